(** * Theorem 1 for the synchronised fragment (barriers, also inside loops). *)

From Coq Require Import List Arith Bool.
Import ListNotations.
From BabyCUDA Require Import Syntax Semantics Map Typing Sync.

(** ** The MAP's phase semantics is deterministic *)
Lemma mrun_det : forall t m a r, mrun t m a r ->
  forall a' r', mrun t m a' r' -> a = a' /\ r = r'.
Proof.
  induction 1; intros a' r' H'; inversion H'; subst; try congruence;
    try (edestruct IHmrun as [-> ->]; eauto; fail); auto.
Qed.

Lemma mstep_det : forall ths A rs, mstep ths A rs ->
  forall A' rs', mstep ths A' rs' -> A = A' /\ rs = rs'.
Proof.
  induction 1; intros A' rs' H'; inversion H' as [|t' k' ths' a1' r' A1 rs1 Hr Hs]; subst; auto.
  destruct (mrun_det _ _ _ _ H _ _ Hr) as [-> ->].
  destruct (IHmstep _ _ Hs) as [-> ->]; auto.
Qed.

Lemma mstep_length : forall ths A rs, mstep ths A rs -> length rs = length ths.
Proof. induction 1; simpl; auto. Qed.

Lemma resume_inj : forall {K} (l l' : list (thread * K)), resume l = resume l' -> l = l'.
Proof.
  induction l as [|[t k] l IH]; destruct l' as [|[t' k'] l']; simpl; intros E;
    inversion E; subst; auto; f_equal; auto.
Qed.

Lemma all_done_resume : forall {K} (l : list (thread * K)), all_done (resume l) -> l = [].
Proof. destruct l as [|[t k] l]; simpl; intros D; auto; inversion D; simpl in *; discriminate. Qed.

Lemma mrun_all_det : forall ths As, mrun_all ths As -> forall As', mrun_all ths As' -> As = As'.
Proof.
  induction 1 as [ths A rs Hs Hd | ths A ths' As Hne Hs Hr IH]; intros As' H';
    inversion H' as [ths1 A1 rs1 Hs1 Hd1 | ths1 A1 ths1' As1 Hne1 Hs1 Hr1]; subst.
  - destruct (mstep_det _ _ _ Hs _ _ Hs1) as [-> _]; auto.
  - exfalso. destruct (mstep_det _ _ _ Hs _ _ Hs1) as [_ ->].
    apply all_done_resume in Hd; subst. apply mstep_length in Hs1; destruct ths; simpl in *; congruence.
  - exfalso. destruct (mstep_det _ _ _ Hs _ _ Hs1) as [_ <-].
    apply all_done_resume in Hd1; subst. apply mstep_length in Hs; destruct ths; simpl in *; congruence.
  - destruct (mstep_det _ _ _ Hs _ _ Hs1) as [-> E]. apply resume_inj in E; subst.
    f_equal; auto.
Qed.

(** ** Simulation: a well-typed program and its MAP run in lock-step *)
Inductive frel : frame -> mframe -> Prop :=
| FRProg V s s' p u : ty V p u -> agree V s s' -> frel (FProg s p) (MFProg s' u)
| FRLoop V s s' x vs p u :
    ty (vadd V x) p u -> agree V s s' -> frel (FLoop s x vs p) (MFLoop s' x vs u).
Definition krel : kont -> mkont -> Prop := Forall2 frel.

Inductive orel : option kont -> option mkont -> Prop :=
| ORNone : orel None None
| ORSome k m : krel k m -> orel (Some k) (Some m).

Ltac inv H := inversion H; subst; clear H.

Ltac invrel :=
  match goal with
  | K : Forall2 frel (_ :: _) _ |- _ => inv K
  | K : Forall2 frel [] _ |- _ => inv K
  | F : frel (FProg _ _) _ |- _ => inv F
  | F : frel (FLoop _ _ _ _) _ |- _ => inv F
  | T : ty _ PSkip _ |- _ => inv T
  | T : ty _ (PWrite _ _ _) _ |- _ => inv T
  | T : ty _ (PRead _ _ _ _) _ |- _ => inv T
  | T : ty _ (PAtomic _ _ _ _ _ _) _ |- _ => inv T
  | T : ty _ (PLet _ _ _) _ |- _ => inv T
  | T : ty _ (PSeq _ _) _ |- _ => inv T
  | T : ty _ (PIf _ _ _) _ |- _ => inv T
  | T : ty _ (PFor _ _ _ _ _) _ |- _ => inv T
  | T : ty _ (PLoopVals _ _ _) _ |- _ => inv T
  | T : ty _ PSync _ |- _ => inv T
  | T : ty _ (PAssume _) _ |- _ => inv T
  end.

Lemma agree_vadd_eval : forall V t s s' x e,
  wt_n V e -> agree V s s' ->
  agree (vadd V x) (upd s x (eval t s e)) (upd s' x (eval t s' e)).
Proof. intros; rewrite (eval_wt V t s s' e); auto; apply agree_vadd; auto. Qed.

(** A read or an atomic: the access, then the body with the bound variable out of V. *)
Ltac binder_access :=
  match goal with IH : forall m, Forall2 frel _ m -> _ |- _ =>
    edestruct IH as [?r [?M ?O]];
    [constructor; [econstructor; [eauto | apply agree_vdel; eauto] | eauto] |]
  end;
  eexists; split; [| eassumption];
  match goal with W : wt_ix ?V ?ix, A : agree ?V ?s ?s' |- context [evals ?t ?s ?ix] =>
    rewrite (evals_wt V t s s' ix W A) end;
  constructor; constructor; eassumption.

Lemma krun_sim : forall t mem k evs r, krun t mem k evs r ->
  forall m, krel k m -> exists r', mrun t m (accs evs) r' /\ orel r r'.
Proof.
  unfold krel; induction 1; intros m Km; repeat invrel; simpl.
  - exists None; split; constructor.
  - (* skip *)
    edestruct IHkrun as [r' [M O]]; [eauto|]. exists r'; split; auto; constructor; auto.
  - (* write *)
    edestruct IHkrun as [r' [M O]]; [eauto|]. exists r'; split; auto.
    match goal with W : wt_ix ?V ix, A : agree ?V s ?s' |- _ =>
      rewrite (evals_wt V t s s' ix W A) end.
    constructor; auto.
  - (* read *) binder_access.
  - (* atomic *) binder_access.
  - (* pure let, V-expression *)
    edestruct IHkrun as [r' [M O]].
    { constructor; [econstructor; [eauto | apply agree_vadd_eval; eauto] | eauto]. }
    exists r'; split; auto. constructor; auto.
  - (* pure let, data *)
    edestruct IHkrun as [r' [M O]].
    { constructor; [econstructor; [eauto | apply agree_vdel; eauto] | eauto]. }
    exists r'; split; auto.
  - (* seq *)
    edestruct IHkrun as [r' [M O]].
    { constructor; [econstructor; eauto | constructor; [econstructor; eauto | eauto]]. }
    exists r'; split; auto. constructor; auto.
  - (* if true *)
    edestruct IHkrun as [r' [M O]].
    { constructor; [econstructor; eauto | eauto]. }
    exists r'; split; auto. apply MRIfT; auto.
    match goal with W : wt_b ?V c, A : agree ?V s ?s' |- _ =>
      rewrite <- (beval_wt V t s s' c W A) end; auto.
  - (* if false *)
    edestruct IHkrun as [r' [M O]].
    { constructor; [econstructor; eauto | eauto]. }
    exists r'; split; auto. apply MRIfF; auto.
    match goal with W : wt_b ?V c, A : agree ?V s ?s' |- _ =>
      rewrite <- (beval_wt V t s s' c W A) end; auto.
  - (* for *)
    edestruct IHkrun as [r' [M O]].
    { constructor; [eapply FRLoop; eauto | eauto]. }
    exists r'; split; auto. constructor.
    match goal with A : agree ?V s ?s', W1 : wt_n ?V lo, W2 : wt_n ?V hi, W3 : wt_step ?V st |- _ =>
      rewrite <- (iters_wt V t s s' lo hi st W1 W2 W3 A) end; auto.
  - (* loop, values given *)
    edestruct IHkrun as [r' [M O]].
    { constructor; [eapply FRLoop; eauto | eauto]. }
    exists r'; split; auto. constructor; auto.
  - (* loop, no more iterations *)
    edestruct IHkrun as [r' [M O]]; [eauto|].
    exists r'; split; auto. constructor; auto.
  - (* loop, next iteration *)
    edestruct IHkrun as [r' [M O]].
    { constructor; [econstructor; [eauto | apply agree_vadd; eauto] |].
      constructor; [eapply FRLoop; eauto | eauto]. }
    exists r'; split; auto. constructor; auto.
  - (* sync *)
    eexists; split; constructor; eauto.
  - (* assume *)
    edestruct IHkrun as [r' [M O]]; [eauto|].
    exists r'; split; auto. constructor; auto.
    match goal with W : wt_b ?V c, A : agree ?V s ?s' |- _ =>
      rewrite <- (beval_wt V t s s' c W A) end; auto.
Qed.

(** ** Lifting the simulation to all threads and all phases *)
Definition trel (tk : thread * kont) (tm : thread * mkont) : Prop :=
  fst tk = fst tm /\ krel (snd tk) (snd tm).
Definition torel (tr : thread * option kont) (tm : thread * option mkont) : Prop :=
  fst tr = fst tm /\ orel (snd tr) (snd tm).

Lemma kstep_sim : forall mem ths P rs, kstep mem ths P rs ->
  forall mths, Forall2 trel ths mths ->
  exists rs', mstep mths (accs P) rs' /\ Forall2 torel rs rs'.
Proof.
  induction 1; intros mths R; inversion R as [| tk tm ths0 mths0 Htk Hths]; subst.
  - exists []; split; constructor.
  - destruct tm as [t' m]; destruct Htk as [Ht Hk]; simpl in *; subst.
    destruct (krun_sim _ _ _ _ _ H m Hk) as [r' [M O]].
    destruct (IHkstep mths0 Hths) as [rs' [M' O']].
    exists ((t', r') :: rs'); split.
    + unfold accs; rewrite map_app; constructor; auto.
    + constructor; auto; split; auto.
Qed.

Lemma torel_done : forall rs rs', Forall2 torel rs rs' -> all_done rs -> all_done rs'.
Proof.
  unfold all_done; induction 1 as [| [t r] [t' r'] rs rs' [_ O] R IH]; intros D; constructor;
    inversion D; subst; simpl in *; subst; auto.
  inversion O; auto.
Qed.

Lemma torel_resume : forall ths rs', Forall2 torel (resume ths) rs' ->
  exists mths, rs' = resume mths /\ Forall2 trel ths mths.
Proof.
  induction ths as [| [t k] ths IH]; simpl; intros rs' R; inversion R as [| a b l l' Hab Hl]; subst.
  - exists []; split; auto.
  - destruct b as [t' r']; destruct Hab as [Ht O]; simpl in *; subst.
    inversion O as [| k0 m Km]; subst.
    destruct (IH l' Hl) as [mths [-> Hm]].
    exists ((t', m) :: mths); split; auto. constructor; auto. split; auto.
Qed.

Definition same_accs (P : phase) (A : list access) : Prop := accs P = A.

Lemma krun_all_sim : forall mem ths Ps, krun_all mem ths Ps ->
  forall mths, Forall2 trel ths mths ->
  exists As, mrun_all mths As /\ Forall2 same_accs Ps As.
Proof.
  induction 1 as [mem ths P rs Hs Hd | mem ths P ths' Ps Hne Hs Hr IH]; intros mths R.
  - destruct (kstep_sim _ _ _ _ Hs _ R) as [rs' [M O]].
    exists [accs P]; split.
    + econstructor; eauto. eapply torel_done; eauto.
    + constructor; [reflexivity | constructor].
  - destruct (kstep_sim _ _ _ _ Hs _ R) as [rs' [M O]].
    destruct (torel_resume _ _ O) as [mths' [-> R']].
    destruct (IH _ R') as [As [MA F]].
    exists (accs P :: As); split.
    + econstructor; eauto. intro E; subst; inversion R; subst; congruence.
    + constructor; auto. reflexivity.
Qed.

Lemma start_rel : forall V T s p u, ty V p u -> Forall2 trel (start T s p) (mstart T s u).
Proof.
  induction T; simpl; intros; constructor; auto.
  split; simpl; auto. constructor; [econstructor; eauto; apply agree_refl | constructor].
Qed.

(** ** The general lemma, synchronised fragment: for a well-typed program,
    the MAP has phases, and — phase by phase — an access value is in the
    program's phase iff it is in the MAP's phase.  Since the MAP's phases
    are unique ([mrun_all_det]), this holds for the MAP's phases, whichever
    derivation computed them. *)
Theorem sync_phases : forall V T s p u H H',
  ty V p u -> kernel_run T s p H H' ->
  exists As, proto_phases T s u As /\
  forall As', proto_phases T s u As' ->
  exists Ps, H' = H ++ Ps /\ Forall2 same_accs Ps As'.
Proof.
  intros V T s p u H H' Ty [Ps [R ->]].
  destruct (krun_all_sim _ _ _ R _ (start_rel V T s p u Ty)) as [As [MA F]].
  exists As; split; auto.
  intros As' MA'. rewrite <- (mrun_all_det _ _ MA _ MA'). eauto.
Qed.

Corollary sync_phase_iff : forall V T s p u H H' As,
  ty V p u -> kernel_run T s p H H' -> proto_phases T s u As ->
  exists Ps, H' = H ++ Ps /\
  Forall2 (fun P A => forall a, In a (accs P) <-> In a A) Ps As.
Proof.
  intros V T s p u H H' As Ty R MA.
  destruct (sync_phases V T s p u H H' Ty R) as [_ [_ All]].
  destruct (All As MA) as [Ps [-> F]]. exists Ps; split; auto.
  clear -F; induction F as [| P A Ps As E F IH]; constructor; auto.
  intros a; unfold same_accs in E; subst; tauto.
Qed.

Definition drf_accs (A : list access) : Prop := drf_set (fun a => In a A).

Lemma same_accs_drf : forall Ps As, Forall2 same_accs Ps As ->
  (drf_hist Ps <-> Forall drf_accs As).
Proof.
  induction 1 as [| P A Ps As E F IH]; unfold drf_hist in *; split; intros D; constructor;
    inversion D; subst; unfold same_accs, drf_phase, drf_accs in *; subst; try tauto.
Qed.

(** ** Theorem 1, synchronised fragment: for a well-typed program run from
    a DRF history, the output history is DRF iff every phase of the MAP is
    DRF. *)
Theorem theorem1_sync : forall V T s p u H H' As,
  ty V p u -> drf_hist H -> kernel_run T s p H H' -> proto_phases T s u As ->
  (drf_hist H' <-> Forall drf_accs As).
Proof.
  intros V T s p u H H' As Ty D R MA.
  destruct (sync_phases V T s p u H H' Ty R) as [_ [_ All]].
  destruct (All As MA) as [Ps [-> F]].
  rewrite drf_hist_app, <- (same_accs_drf Ps As F). tauto.
Qed.

(** The MAP's phases always exist when the program runs, so the theorem
    above is never vacuous. *)
Corollary proto_phases_exist : forall V T s p u H H',
  ty V p u -> kernel_run T s p H H' -> exists As, proto_phases T s u As.
Proof.
  intros V T s p u H H' Ty R.
  destruct (sync_phases V T s p u H H' Ty R) as [As [MA _]]; eauto.
Qed.
