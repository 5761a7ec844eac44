(** * MAP inference: an executable version of V ⊢ b ▶ u, as implemented by
    src/map/infer.ts, proved sound with respect to the typing rules.  [V]
    is a list of variables (parameters, builtins other than [tid], loop
    variables and pure locals of V-expressions); a variable bound by a read,
    or by a pure [let] of a data-dependent expression, is removed. *)

From Coq Require Import List Arith Bool.
Import ListNotations.
From BabyCUDA Require Import Syntax Semantics Map Typing Theorem1 SyncTheorem Sync.

Definition mem_b (x : var) (V : list var) : bool := existsb (Nat.eqb x) V.
Definition incl_b (xs V : list var) : bool := forallb (fun x => mem_b x V) xs.
Definition ix_vars (ix : list nexp) : list var := flat_map nvars ix.

Fixpoint infer (V : list var) (p : prog) : option proto :=
  match p with
  | PSkip => Some MSkip
  | PWrite A ix e =>
      if incl_b (ix_vars ix) V then Some (MWr A ix (if incl_b (nvars e) V then Some e else None)) else None
  | PRead x A ix p =>
      if incl_b (ix_vars ix) V
      then option_map (MSeq (MRd A ix)) (infer (remove Nat.eq_dec x V) p) else None
  | PAtomic x A ix _ _ p =>
      if incl_b (ix_vars ix) V
      then option_map (MSeq (MAt A ix)) (infer (remove Nat.eq_dec x V) p) else None
  | PLet x e p =>
      if incl_b (nvars e) V then option_map (MLet x e) (infer (x :: V) p)
      else infer (remove Nat.eq_dec x V) p
  | PSeq p q =>
      match infer V p, infer V q with Some u, Some v => Some (MSeq u v) | _, _ => None end
  | PIf c p q =>
      if incl_b (bvars c) V then
        match infer V p, infer V q with Some u, Some v => Some (MIf c u v) | _, _ => None end
      else None
  | PFor x lo hi st p =>
      if incl_b (nvars lo ++ nvars hi ++ nvars (step_exp st)) V
      then option_map (MFor x lo hi st) (infer (x :: V) p) else None
  | PLoopVals x vs p => option_map (MLoopVals x vs) (infer (x :: V) p)
  | PSync => Some MSync
  | PAssume c => if incl_b (bvars c) V then Some (MAssume c) else None
  end.

Definition vset_of (V : list var) : vset := fun y => In y V.

Lemma incl_b_spec : forall xs V, incl_b xs V = true -> forall x, In x xs -> In x V.
Proof.
  unfold incl_b, mem_b; intros xs V H x Hx.
  rewrite forallb_forall in H; specialize (H x Hx).
  apply existsb_exists in H; destruct H as [y [Hy E]]; apply Nat.eqb_eq in E; subst; auto.
Qed.

Lemma wt_n_ext : forall (V V' : vset) e, (forall y, V y <-> V' y) -> wt_n V e -> wt_n V' e.
Proof. unfold wt_n; intros V V' e E W y Hy; apply E; auto. Qed.

Lemma wt_b_ext : forall (V V' : vset) c, (forall y, V y <-> V' y) -> wt_b V c -> wt_b V' c.
Proof. unfold wt_b; intros V V' c E W y Hy; apply E; auto. Qed.

Lemma wt_ix_ext : forall (V V' : vset) ix, (forall y, V y <-> V' y) -> wt_ix V ix -> wt_ix V' ix.
Proof.
  unfold wt_ix; intros V V' ix E W; induction W; constructor; auto; eapply wt_n_ext; eauto.
Qed.

Lemma ty_ext : forall V p u, ty V p u -> forall V', (forall y, V y <-> V' y) -> ty V' p u.
Proof.
  induction 1; intros V' E.
  - constructor.
  - constructor; [eapply wt_ix_ext; eauto|].
    intros e' Hov; destruct (H0 e' Hov) as [-> W]; split; auto; eapply wt_n_ext; eauto.
  - constructor; [eapply wt_ix_ext; eauto|]. apply IHty; unfold vdel; intro y; rewrite E; tauto.
  - constructor; [eapply wt_ix_ext; eauto|]. apply IHty; unfold vdel; intro y; rewrite E; tauto.
  - constructor; [eapply wt_n_ext; eauto|]. apply IHty; unfold vadd; intro y; rewrite E; tauto.
  - apply TLetData. apply IHty; unfold vdel; intro y; rewrite E; tauto.
  - constructor; auto.
  - constructor; auto; eapply wt_b_ext; eauto.
  - constructor; unfold wt_step in *; try (eapply wt_n_ext; eauto; fail).
    apply IHty; unfold vadd; intro y; rewrite E; tauto.
  - constructor; apply IHty; unfold vadd; intro y; rewrite E; tauto.
  - constructor.
  - constructor; eapply wt_b_ext; eauto.
Qed.

Lemma wt_ix_of : forall (V : vset) ix, (forall x, In x (ix_vars ix) -> V x) -> wt_ix V ix.
Proof.
  unfold wt_ix, wt_n, ix_vars; induction ix; simpl; intros H; constructor.
  - intros x Hx; apply H, in_or_app; auto.
  - apply IHix; intros; apply H, in_or_app; auto.
Qed.

Lemma vset_remove : forall V x y, vset_of (remove Nat.eq_dec x V) y <-> vdel (vset_of V) x y.
Proof.
  unfold vset_of, vdel; intros; split.
  - intros H; apply in_remove in H; tauto.
  - intros [H1 H2]; apply in_in_remove; auto.
Qed.

Lemma vset_cons : forall V x y, vset_of (x :: V) y <-> vadd (vset_of V) x y.
Proof. unfold vset_of, vadd; simpl; intuition. Qed.

(** Soundness of inference: what [infer] returns is a MAP of the typing
    rules, so Theorem 1 applies to it. *)
Theorem infer_sound : forall p V u, infer V p = Some u -> ty (vset_of V) p u.
Proof.
  induction p; simpl; intros V u Hi;
    repeat match goal with
    | H : (if ?b then _ else _) = _ |- _ => destruct b eqn:?; try discriminate
    | H : option_map _ ?o = Some _ |- _ => destruct o eqn:?; simpl in H; try discriminate
    | H : match ?o with Some _ => _ | None => _ end = _ |- _ => destruct o eqn:?; try discriminate
    | H : Some _ = Some _ |- _ => inversion H; subst; clear H
    end;
    repeat match goal with H : incl_b _ _ = true |- _ => pose proof (incl_b_spec _ _ H); clear H end.
  - constructor.
  - constructor; [apply wt_ix_of; auto|].
    destruct (incl_b (nvars e) V) eqn:I; intros e' Hov; inversion Hov; subst; split; auto.
    intros y Hy; apply (incl_b_spec _ _ I y Hy).
  - constructor; [apply wt_ix_of; auto|].
    eapply ty_ext; [apply IHp; eauto | apply vset_remove].
  - constructor; [intros y Hy; unfold vset_of; auto|].
    eapply ty_ext; [apply IHp; eauto | apply vset_cons].
  - apply TLetData. eapply ty_ext; [apply IHp; eauto | apply vset_remove].
  - constructor; [apply wt_ix_of; auto|].
    eapply ty_ext; [apply IHp; eauto | apply vset_remove].
  - constructor; auto.
  - constructor; auto; intros y Hy; unfold vset_of; auto.
  - constructor; unfold wt_n, wt_step; try (intros y Hy; unfold vset_of;
      match goal with H : forall x, _ -> _ |- _ => apply H end; rewrite ?in_app_iff; auto; fail).
    eapply ty_ext; [apply IHp; eauto | apply vset_cons].
  - constructor; eapply ty_ext; [apply IHp; eauto | apply vset_cons].
  - constructor.
  - constructor; intros y Hy; unfold vset_of; auto.
Qed.

(** Theorem 1 for the inferred MAP (the statement the tool relies on for
    the "confirmed" label), both fragments. *)
Corollary theorem1_infer : forall V T s p u H H',
  infer V p = Some u -> drf_hist H -> par T s p H H' ->
  (drf_hist H' <-> drf_set (proto_phase T s u)).
Proof.
  intros V T s p u H H' I D R.
  exact (theorem1 (vset_of V) T s p u H H' (infer_sound p V u I) D R).
Qed.

Corollary theorem1_sync_infer : forall V T s p u H H' As,
  infer V p = Some u -> drf_hist H -> kernel_run T s p H H' -> proto_phases T s u As ->
  (drf_hist H' <-> Forall drf_accs As).
Proof.
  intros V T s p u H H' As I D R M.
  exact (theorem1_sync (vset_of V) T s p u H H' As (infer_sound p V u I) D R M).
Qed.
