(** * Soundness of the over-approximation with barriers (stretch goal,
    synchronised fragment).  The approximate MAP runs phase by phase, like
    programs and MAPs in [Sync.v]; each unknown ([AHavoc]) takes any value,
    so the approximate MAP has many runs.  If all of them have DRF phases,
    every execution of the program from a DRF history is DRF. *)

From Coq Require Import List Arith Bool.
Import ListNotations.
From BabyCUDA Require Import Syntax Semantics Map Sync SyncTheorem OverApprox.

Inductive aframe :=
| AFProg (s : env) (u : aproto)
| AFLoop (s : env) (x : var) (vs : list nat) (u : aproto).
Definition akont := list aframe.

Inductive arun (t : thread) : akont -> list access -> option akont -> Prop :=
| ADone : arun t [] [] None
| ARSkip s k a r : arun t k a r -> arun t (AFProg s ASkip :: k) a r
| ARRd s A ix k a r :
    arun t k a r -> arun t (AFProg s (ARd A ix) :: k) (mkacc t A (evals t s ix) Rd :: a) r
| ARWr s A ix k a r :
    arun t k a r -> arun t (AFProg s (AWr A ix) :: k) (mkacc t A (evals t s ix) Wr :: a) r
| ARAt s A ix k a r :
    arun t k a r -> arun t (AFProg s (AAt A ix) :: k) (mkacc t A (evals t s ix) At :: a) r
| ARSeq s u v k a r :
    arun t (AFProg s u :: AFProg s v :: k) a r -> arun t (AFProg s (ASeq u v) :: k) a r
| ARIfT s c u v k a r :
    beval t s c = true -> arun t (AFProg s u :: k) a r -> arun t (AFProg s (AIf c u v) :: k) a r
| ARIfF s c u v k a r :
    beval t s c = false -> arun t (AFProg s v :: k) a r -> arun t (AFProg s (AIf c u v) :: k) a r
| ARFor s x lo hi st u k a r :
    arun t (AFLoop s x (iters t s lo hi st) u :: k) a r ->
    arun t (AFProg s (AFor x lo hi st u) :: k) a r
| ARLoopVals s x vs u k a r :
    arun t (AFLoop s x vs u :: k) a r -> arun t (AFProg s (ALoopVals x vs u) :: k) a r
| ARLoopNil s x u k a r : arun t k a r -> arun t (AFLoop s x [] u :: k) a r
| ARLoopCons s x v vs u k a r :
    arun t (AFProg (upd s x v) u :: AFLoop s x vs u :: k) a r ->
    arun t (AFLoop s x (v :: vs) u :: k) a r
| ARLet s x e u k a r :
    arun t (AFProg (upd s x (eval t s e)) u :: k) a r -> arun t (AFProg s (ALet x e u) :: k) a r
| ARHavoc s x v u k a r :                     (** the unknown takes any value [v] *)
    arun t (AFProg (upd s x v) u :: k) a r -> arun t (AFProg s (AHavoc x u) :: k) a r
| ARSync s k : arun t (AFProg s ASync :: k) [] (Some k)
| ARAssume s c k a r :
    beval t s c = true -> arun t k a r -> arun t (AFProg s (AAssume c) :: k) a r.

Inductive astep : list (thread * akont) -> list access -> list (thread * option akont) -> Prop :=
| ASNil : astep [] [] []
| ASCons t k ths a1 r A rs :
    arun t k a1 r -> astep ths A rs -> astep ((t, k) :: ths) (a1 ++ A) ((t, r) :: rs).

Inductive arun_all : list (thread * akont) -> list (list access) -> Prop :=
| AAEnd ths A rs : astep ths A rs -> all_done rs -> arun_all ths [A]
| AABarrier ths A ths' As :
    ths <> [] -> astep ths A (resume ths') -> arun_all ths' As -> arun_all ths (A :: As).

Definition astart (T : list thread) (s : env) (u : aproto) : list (thread * akont) :=
  map (fun t => (t, [AFProg s u])) T.

(** The possible phase lists of the approximate MAP of [p]. *)
Definition approx_phases (T : list thread) (s : env) (p : prog) (As : list (list access)) : Prop :=
  arun_all (astart T s (approx p)) As.

(** ** Simulation: the program's run is one of the approximate MAP's runs
    (the unknowns take the values actually read). *)
Definition afr (f : frame) : aframe :=
  match f with
  | FProg s p => AFProg s (approx p)
  | FLoop s x vs p => AFLoop s x vs (approx p)
  end.
Definition ak (k : kont) : akont := map afr k.

Lemma krun_arun : forall t mem k evs r, krun t mem k evs r ->
  arun t (ak k) (accs evs) (option_map ak r).
Proof.
  induction 1; simpl in *; try (econstructor; eauto; fail).
  - apply ARSeq; apply ARRd; eapply ARHavoc; exact IHkrun.
  - apply ARSeq; apply ARAt; eapply ARHavoc; exact IHkrun.
Qed.

Lemma kstep_astep : forall mem ths P rs, kstep mem ths P rs ->
  astep (map (fun tk => (fst tk, ak (snd tk))) ths) (accs P)
        (map (fun tr => (fst tr, option_map ak (snd tr))) rs).
Proof.
  induction 1; simpl; [constructor|].
  unfold accs in *; rewrite map_app; constructor; auto.
  apply krun_arun with (mem := mem); auto.
Qed.

Lemma krun_all_arun_all : forall mem ths Ps, krun_all mem ths Ps ->
  arun_all (map (fun tk => (fst tk, ak (snd tk))) ths) (map accs Ps).
Proof.
  induction 1 as [mem ths P rs Hs Hd | mem ths P ths' Ps Hne Hs Hr IH]; simpl.
  - apply (AAEnd _ _ _ (kstep_astep _ _ _ _ Hs)).
    unfold all_done in *; clear Hs; induction Hd as [| [t r] rs E F IHF]; simpl in *;
      constructor; auto; subst; auto.
  - apply (AABarrier _ _ (map (fun tk => (fst tk, ak (snd tk))) ths')).
    + destruct ths; simpl; congruence.
    + pose proof (kstep_astep _ _ _ _ Hs) as A.
      replace (resume (map (fun tk => (fst tk, ak (snd tk))) ths'))
        with (map (fun tr => (fst tr, option_map ak (snd tr))) (resume ths')); auto.
      unfold resume; rewrite !map_map; reflexivity.
    + auto.
Qed.

Lemma drf_hist_map_accs : forall Ps,
  Forall drf_accs (map accs Ps) -> drf_hist Ps.
Proof.
  unfold drf_hist; induction Ps; simpl; intros F; constructor; inversion F; subst; auto.
Qed.

(** ** Soundness of "DRF" for every program with barriers: if every run of
    the approximate MAP has DRF phases, every execution from a DRF history
    yields a DRF history. *)
Theorem approx_sync_drf_sound : forall T s p H H',
  drf_hist H -> kernel_run T s p H H' ->
  (forall As, approx_phases T s p As -> Forall drf_accs As) ->
  drf_hist H'.
Proof.
  intros T s p H H' D [Ps [R ->]] All.
  apply drf_hist_app; split; auto.
  apply drf_hist_map_accs, All.
  unfold approx_phases, astart.
  pose proof (krun_all_arun_all _ _ _ R) as A.
  unfold start in A; rewrite map_map in A; simpl in A; exact A.
Qed.
