(** * The behavioural type system (paper, Figure 6): V ⊢ n, V ⊢ c and
    V ⊢ b ▶ u.  [V] is the set of variables that may appear in indices,
    conditions and loop bounds: parameters, loop variables and pure locals
    built from them.  A variable bound by an array read is never in [V]. *)

From Coq Require Import List Arith Bool.
Import ListNotations.
From BabyCUDA Require Import Syntax Semantics Map.

Definition vset := var -> Prop.
Definition vadd (V : vset) (x : var) : vset := fun y => y = x \/ V y.
Definition vdel (V : vset) (x : var) : vset := fun y => y <> x /\ V y.

(** V ⊢ n *)
Definition wt_n (V : vset) (e : nexp) : Prop := forall x, In x (nvars e) -> V x.
(** V ⊢ c *)
Definition wt_b (V : vset) (c : bexp) : Prop := forall x, In x (bvars c) -> V x.
Definition wt_ix (V : vset) (ix : list nexp) : Prop := Forall (wt_n V) ix.
Definition wt_step (V : vset) (st : step) : Prop := wt_n V (step_exp st).

(** V ⊢ b ▶ u *)
Inductive ty : vset -> prog -> proto -> Prop :=
| TSkip V : ty V PSkip MSkip
| TWrite V A ix e ov :
    wt_ix V ix ->                         (* the written value [e] is unconstrained... *)
    (forall e', ov = Some e' -> e' = e /\ wt_n V e) ->  (* ...and kept in the MAP only if it depends on no data *)
    ty V (PWrite A ix e) (MWr A ix ov)
| TRead V x A ix p u :
    wt_ix V ix -> ty (vdel V x) p u ->    (* [x] is data: removed from V *)
    ty V (PRead x A ix p) (MSeq (MRd A ix) u)
| TAtomic V x A ix op vs p u :
    wt_ix V ix -> ty (vdel V x) p u ->    (* the old value [x] is data; the operands are values *)
    ty V (PAtomic x A ix op vs p) (MSeq (MAt A ix) u)
| TLet V x e p u :                        (* pure let of a V-expression: x joins V *)
    wt_n V e -> ty (vadd V x) p u -> ty V (PLet x e p) (MLet x e u)
| TLetData V x e p u :                    (* pure let of anything: x is data *)
    ty (vdel V x) p u -> ty V (PLet x e p) u
| TSeq V p q u v : ty V p u -> ty V q v -> ty V (PSeq p q) (MSeq u v)
| TIf V c p q u v :
    wt_b V c -> ty V p u -> ty V q v -> ty V (PIf c p q) (MIf c u v)
| TFor V x lo hi st p u :
    wt_n V lo -> wt_n V hi -> wt_step V st -> ty (vadd V x) p u ->
    ty V (PFor x lo hi st p) (MFor x lo hi st u)
| TLoopVals V x vs p u :
    ty (vadd V x) p u -> ty V (PLoopVals x vs p) (MLoopVals x vs u)
| TSync V : ty V PSync MSync
| TAssume V c : wt_b V c -> ty V (PAssume c) (MAssume c).

(** ** Environments that agree on V evaluate V-expressions equally. *)
Definition agree (V : vset) (s s' : env) : Prop := forall x, V x -> s x = s' x.

Lemma eval_wt : forall V t s s' e, wt_n V e -> agree V s s' -> eval t s e = eval t s' e.
Proof. intros; apply eval_agree; auto. Qed.

Lemma beval_wt : forall V t s s' c, wt_b V c -> agree V s s' -> beval t s c = beval t s' c.
Proof. intros; apply beval_agree; auto. Qed.

Lemma evals_wt : forall V t s s' ix, wt_ix V ix -> agree V s s' -> evals t s ix = evals t s' ix.
Proof.
  induction ix; simpl; intros W A; auto; inversion W; subst; unfold evals; simpl.
  f_equal; [eapply eval_wt; eauto | apply IHix; auto].
Qed.

Lemma iters_wt : forall V t s s' lo hi st,
  wt_n V lo -> wt_n V hi -> wt_step V st -> agree V s s' ->
  iters t s lo hi st = iters t s' lo hi st.
Proof.
  intros; unfold iters.
  rewrite (eval_wt V t s s' lo), (eval_wt V t s s' hi); auto.
  destruct st; simpl in *; unfold wt_step in *; simpl in *;
    [rewrite (eval_wt V t s s' k); auto ..|].
  unfold zval; rewrite (eval_wt V t s s' k); auto.
Qed.

Lemma agree_vdel : forall V s s' x v, agree V s s' -> agree (vdel V x) (upd s x v) s'.
Proof. unfold agree, vdel; intros V s s' x v A y [Hy Hv]; rewrite upd_neq; auto. Qed.

Lemma agree_vadd : forall V s s' x v, agree V s s' -> agree (vadd V x) (upd s x v) (upd s' x v).
Proof.
  unfold agree, vadd; intros V s s' x v A y [->|Hv].
  - rewrite !upd_eq; auto.
  - unfold upd; destruct (Nat.eqb y x); auto.
Qed.

Lemma agree_refl : forall V s, agree V s s.
Proof. unfold agree; auto. Qed.
