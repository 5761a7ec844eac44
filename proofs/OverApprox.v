(** * Soundness of the over-approximation for ill-typed programs (stretch
    goal of issue 5).

    Every program, typable or not, gets an approximate MAP: the program
    with written values dropped and each value read from memory replaced by
    an unknown ([AHavoc x u]: "x is any natural in u").  Indices,
    conditions and loop bounds that mention data-dependent variables are
    kept and evaluated with the unknown values.  The semantics is a set of
    access values (a union over all choices of the unknowns).  We prove
    that it contains every access of every execution, so a DRF verdict on
    the approximate MAP is a proof that the program is DRF. *)

From Coq Require Import List Arith Bool.
Import ListNotations.
From BabyCUDA Require Import Syntax Semantics Map Typing Theorem1.

Inductive aproto :=
| ASkip
| ARd (A : arr) (ix : list nexp)
| AWr (A : arr) (ix : list nexp)
| AAt (A : arr) (ix : list nexp)
| ASeq (u v : aproto)
| AIf (c : bexp) (u v : aproto)
| AFor (x : var) (lo hi : nexp) (st : step) (u : aproto)
| ALoopVals (x : var) (vs : list nat) (u : aproto)
| ALet (x : var) (e : nexp) (u : aproto)
| AHavoc (x : var) (u : aproto)            (** [x] is unknown (data) in [u] *)
| ASync
| AAssume (c : bexp).

(** The approximate MAP of any program. *)
Fixpoint approx (p : prog) : aproto :=
  match p with
  | PSkip => ASkip
  | PWrite A ix _ => AWr A ix
  | PRead x A ix p => ASeq (ARd A ix) (AHavoc x (approx p))
  | PAtomic x A ix _ _ p => ASeq (AAt A ix) (AHavoc x (approx p))
  | PLet x e p => ALet x e (approx p)
  | PSeq p q => ASeq (approx p) (approx q)
  | PIf c p q => AIf c (approx p) (approx q)
  | PFor x lo hi st p => AFor x lo hi st (approx p)
  | PLoopVals x vs p => ALoopVals x vs (approx p)
  | PSync => ASync
  | PAssume c => AAssume c
  end.

(** [AIn t s u a]: [a] is a possible access of thread [t] for some choice
    of the unknowns. *)
Inductive AIn (t : thread) : env -> aproto -> access -> Prop :=
| AInRd s A ix : AIn t s (ARd A ix) (mkacc t A (evals t s ix) Rd)
| AInWr s A ix : AIn t s (AWr A ix) (mkacc t A (evals t s ix) Wr)
| AInAt s A ix : AIn t s (AAt A ix) (mkacc t A (evals t s ix) At)
| AInSeqL s u v a : AIn t s u a -> AIn t s (ASeq u v) a
| AInSeqR s u v a : AIn t s v a -> AIn t s (ASeq u v) a
| AInIfT s c u v a : beval t s c = true -> AIn t s u a -> AIn t s (AIf c u v) a
| AInIfF s c u v a : beval t s c = false -> AIn t s v a -> AIn t s (AIf c u v) a
| AInFor s x lo hi st u n a :
    In n (iters t s lo hi st) -> AIn t (upd s x n) u a -> AIn t s (AFor x lo hi st u) a
| AInLoopVals s x vs u n a :
    In n vs -> AIn t (upd s x n) u a -> AIn t s (ALoopVals x vs u) a
| AInLet s x e u a : AIn t (upd s x (eval t s e)) u a -> AIn t s (ALet x e u) a
| AInHavoc s x v u a : AIn t (upd s x v) u a -> AIn t s (AHavoc x u) a.

(** ** Soundness for one thread: every access of every execution is in
    the approximate MAP. *)
Lemma exec_approx : forall t mem s p evs, exec t mem s p evs ->
  forall a, In a (accs evs) -> AIn t s (approx p) a.
Proof.
  unfold accs; induction 1; intros a Ha; simpl in *;
    repeat match goal with
    | H : In _ (map _ (_ ++ _)) |- _ => rewrite map_app in H
    | H : In _ (_ ++ _) |- _ => apply in_app_or in H; destruct H
    | H : _ \/ _ |- _ => destruct H
    end; try tauto; subst.
  - constructor.
  - apply AInSeqL; constructor.
  - apply AInSeqR; econstructor; eauto.
  - apply AInSeqL; constructor.
  - apply AInSeqR; econstructor; eauto.
  - constructor; auto.
  - apply AInSeqL; auto.
  - apply AInSeqR; auto.
  - apply AInIfT; auto.
  - apply AInIfF; auto.
  - match goal with Hi : In a (map ev_acc evs) |- _ => specialize (IHexec a Hi) end.
    inversion IHexec; subst; econstructor; eauto.
  - econstructor; [left; reflexivity | auto].
  - match goal with Hi : In a (map ev_acc e2) |- _ => specialize (IHexec2 a Hi) end.
    inversion IHexec2; subst; econstructor; [right; eauto | eauto].
Qed.

(** The approximate MAP's phase for the threads [T]. *)
Definition approx_phase (T : list thread) (s : env) (p : prog) (a : access) : Prop :=
  In (a_tid a) T /\ AIn (a_tid a) s (approx p) a.

Lemma par_threads_approx : forall mem s p T P, par_threads mem s p T P ->
  forall a, In a (accs P) -> approx_phase T s p a.
Proof.
  induction 1; intros a Ha; unfold accs, approx_phase in *; simpl in *; [tauto|].
  rewrite map_app in Ha; apply in_app_or in Ha; destruct Ha as [Ha | Ha].
  - apply in_map_iff in Ha; destruct Ha as [ev [<- Hev]].
    rewrite (exec_tid _ _ _ _ _ H ev Hev); split; [left; auto|].
    apply (exec_approx _ _ _ _ _ H). apply in_map; auto.
  - destruct (IHpar_threads a Ha) as [HT HA]; split; auto; right; auto.
Qed.

(** ** Soundness of "DRF" for every program (typable or not, unsynchronised
    fragment): if the approximate MAP's phase is DRF, every execution from
    a DRF history yields a DRF history. *)
Theorem approx_drf_sound : forall T s p H H',
  drf_hist H -> par T s p H H' -> drf_set (approx_phase T s p) -> drf_hist H'.
Proof.
  intros T s p H H' D [P [PT ->]] DA.
  apply drf_hist_snoc; auto.
  intros a b Ha Hb; apply DA; eapply par_threads_approx; eauto.
Qed.

(** Contrapositive, as used for "possible" alarms: a race in an execution
    is a race of the approximate MAP (no race is ever missed). *)
Corollary approx_no_missed_race : forall T s p H H',
  drf_hist H -> par T s p H H' -> ~ drf_hist H' -> ~ drf_set (approx_phase T s p).
Proof. intros T s p H H' D R N DA; apply N; eapply approx_drf_sound; eauto. Qed.

(** ** For a well-typed program the approximation is exact: the
    approximate MAP and the MAP of the typing rules have the same access
    values.  So the unknowns only ever matter for ill-typed programs, whose
    alarms faial-ts labels "possible". *)
Lemma approx_typed_1 : forall V p u, ty V p u ->
  forall t s1 s2 a, agree V s1 s2 -> AIn t s1 (approx p) a -> MIn t s2 u a.
Proof.
  induction 1; intros t s1 s2 a Ag Hin; simpl in Hin; inversion Hin; subst.
  - rewrite (evals_wt V t s1 s2 ix); auto; constructor.
  - match goal with Hr : AIn _ _ (ARd _ _) _ |- _ => inversion Hr; subst end.
    apply MInSeqL. rewrite (evals_wt V t s1 s2 ix); auto; constructor.
  - match goal with Hh : AIn _ _ (AHavoc _ _) _ |- _ => inversion Hh; subst end.
    apply MInSeqR. eapply IHty; eauto. apply agree_vdel; auto.
  - match goal with Hr : AIn _ _ (AAt _ _) _ |- _ => inversion Hr; subst end.
    apply MInSeqL. rewrite (evals_wt V t s1 s2 ix); auto; constructor.
  - match goal with Hh : AIn _ _ (AHavoc _ _) _ |- _ => inversion Hh; subst end.
    apply MInSeqR. eapply IHty; eauto. apply agree_vdel; auto.
  - constructor. eapply IHty; eauto.
    rewrite <- (eval_wt V t s1 s2 e); auto. apply agree_vadd; auto.
  - eapply IHty; eauto. apply agree_vdel; auto.
  - apply MInSeqL; eauto.
  - apply MInSeqR; eauto.
  - apply MInIfT; eauto. rewrite <- (beval_wt V t s1 s2 c); auto.
  - apply MInIfF; eauto. rewrite <- (beval_wt V t s1 s2 c); auto.
  - econstructor; [rewrite <- (iters_wt V t s1 s2 lo hi st); eauto |].
    eapply IHty; eauto. apply agree_vadd; auto.
  - econstructor; eauto. eapply IHty; eauto. apply agree_vadd; auto.
Qed.

Lemma approx_typed_2 : forall V p u, ty V p u ->
  forall t s1 s2 a, agree V s1 s2 -> MIn t s2 u a -> AIn t s1 (approx p) a.
Proof.
  induction 1; intros t s1 s2 a Ag Hin; simpl.
  - inversion Hin.
  - inversion Hin; subst. rewrite <- (evals_wt V t s1 s2 ix); auto; constructor.
  - inversion Hin; subst.
    + match goal with Hr : MIn _ _ (MRd _ _) _ |- _ => inversion Hr; subst end.
      apply AInSeqL. rewrite <- (evals_wt V t s1 s2 ix); auto; constructor.
    + apply AInSeqR. apply (AInHavoc t s1 x 0).
      eapply IHty; eauto. apply agree_vdel; auto.
  - inversion Hin; subst.
    + match goal with Hr : MIn _ _ (MAt _ _) _ |- _ => inversion Hr; subst end.
      apply AInSeqL. rewrite <- (evals_wt V t s1 s2 ix); auto; constructor.
    + apply AInSeqR. apply (AInHavoc t s1 x 0).
      eapply IHty; eauto. apply agree_vdel; auto.
  - inversion Hin; subst. constructor. eapply IHty; eauto.
    rewrite (eval_wt V t s1 s2 e); auto. apply agree_vadd; auto.
  - constructor. eapply IHty; eauto. apply agree_vdel; auto.
  - inversion Hin; subst; [apply AInSeqL | apply AInSeqR]; eauto.
  - inversion Hin; subst.
    + apply AInIfT; eauto. rewrite (beval_wt V t s1 s2 c); auto.
    + apply AInIfF; eauto. rewrite (beval_wt V t s1 s2 c); auto.
  - inversion Hin; subst.
    econstructor; [rewrite (iters_wt V t s1 s2 lo hi st); eauto |].
    eapply IHty; eauto. apply agree_vadd; auto.
  - inversion Hin; subst. econstructor; eauto. eapply IHty; eauto. apply agree_vadd; auto.
  - inversion Hin.
  - inversion Hin.
Qed.

Theorem approx_exact_typed : forall V p u t s a,
  ty V p u -> (AIn t s (approx p) a <-> MIn t s u a).
Proof.
  intros V p u t s a Ty; split; intro H.
  - eapply approx_typed_1; eauto; apply agree_refl.
  - eapply approx_typed_2; eauto; apply agree_refl.
Qed.
