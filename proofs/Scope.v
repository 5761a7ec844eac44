(** * Typed expressions over machine integers, launches in scope, and
    Theorem 1 restricted to them (docs/machine-integers.md, "The scope of a
    proof").  A thread evaluates typed expressions with [teval]; [None] is an
    undefined operation.  A launch is in scope when no thread's evaluation
    of the kernel's typed expressions is undefined; [vacuous] means no launch
    is.  The verifier does not evaluate partially: it computes each
    operation's value ([mraw], src/core/arith.ts [machineValue]) and adds the
    operation's condition ([op_ok], [machineUndefined]) as a guard;
    [guard_infer] proves the two readings equal. *)

From Coq Require Import ZArith List Bool Lia.
Import ListNotations.
From BabyCUDA Require Import Syntax Semantics Map Typing Theorem1 Sync SyncTheorem Grid MachineInt.
Open Scope Z_scope.

(** ** One operation: its value and its condition *)

Definition shift_ok (t : ity) (b : Z) : bool := negb ((b <? 0) || (width t <=? b)).

Definition mraw (t : ity) (o : mop) (a b : Z) : Z :=
  match o with
  | MAdd => if signed t then a + b else wrap t (a + b)
  | MSub => if signed t then a - b else wrap t (a - b)
  | MMul => if signed t then a * b else wrap t (a * b)
  | MDiv => Z.quot a b
  | MMod => Z.rem a b
  | MShl => if signed t then a * 2 ^ b else wrap t (a * 2 ^ b)
  | MShr => a / 2 ^ b
  | MAnd => wrap t (Z.land a b)
  | MOr => wrap t (Z.lor a b)
  | MXor => wrap t (Z.lxor a b)
  end.

Definition op_ok (t : ity) (o : mop) (a b : Z) : bool :=
  match o with
  | MAdd | MSub | MMul => if signed t then in_rangeb t (mraw t o a b) else true
  | MDiv => negb (b =? 0) && in_rangeb t (mraw t o a b)
  | MMod => negb ((b =? 0) || ((a =? tmin t) && (b =? -1))) && in_rangeb t (mraw t o a b)
  | MShl => shift_ok t b && (if signed t then in_rangeb t (mraw t o a b) else true)
  | MShr => shift_ok t b
  | MAnd | MOr | MXor => true
  end.

Lemma mapply_guard : forall t o a b,
  mapply t o a b = if op_ok t o a b then Some (mraw t o a b) else None.
Proof.
  intros t o a b; destruct o; unfold mapply, op_ok, shift_ok, fit, mraw;
    destruct (signed t); simpl; auto;
    repeat match goal with |- context [if ?c then _ else _] => destruct c; simpl end; auto.
Qed.

(** ** Typed expressions *)
Inductive texp :=
| TNum (t : ity) (z : Z)
| TVar (t : ity) (x : var)
| TId (k : idkind) (a : axis)                 (** [threadIdx.a], [blockIdx.a]: [u32] *)
| TBin (t : ity) (o : mop) (a b : texp)
| TCast (t : ity) (e : texp).

Definition tyof (e : texp) : ity :=
  match e with
  | TNum t _ | TVar t _ | TBin t _ _ _ | TCast t _ => t
  | TId _ _ => U32
  end.

(** The type system: both operands of an operation have its type (the
    front end makes C's conversions explicit as casts). *)
Fixpoint twt (e : texp) : Prop :=
  match e with
  | TNum _ _ | TVar _ _ | TId _ _ => True
  | TBin t _ a b => tyof a = t /\ tyof b = t /\ twt a /\ twt b
  | TCast _ e => twt e
  end.

(** The launch's values: the parameters of the nat semantics, read as
    integers, so that a typed kernel and its BabyCUDA program share one
    environment. *)
Definition zenv (s : env) : var -> Z := fun x => Z.of_nat (s x).

Definition id_val (th : thread) (k : idkind) (a : axis) : Z :=
  Z.of_nat (coord (match k with IThread => t_thread th | IBlock => t_block th end) a).

Fixpoint teval (th : thread) (s : env) (e : texp) : option Z :=
  match e with
  | TNum t z => fit t z
  | TVar t x => fit t (zenv s x)
  | TId k a => fit U32 (id_val th k a)
  | TBin t o a b =>
      match teval th s a, teval th s b with
      | Some x, Some y => mapply t o x y
      | _, _ => None
      end
  | TCast t e => option_map (wrap t) (teval th s e)
  end.

(** What the verifier computes: every operation's value, unguarded. *)
Fixpoint traw (th : thread) (s : env) (e : texp) : Z :=
  match e with
  | TNum _ z => z
  | TVar _ x => zenv s x
  | TId k a => id_val th k a
  | TBin t o a b => mraw t o (traw th s a) (traw th s b)
  | TCast t e => wrap t (traw th s e)
  end.

(** The guards it adds: each leaf in its type's range, each operation's
    condition on its operands' values. *)
Fixpoint guards (th : thread) (s : env) (e : texp) : Prop :=
  match e with
  | TNum t z => in_range t z
  | TVar t x => in_range t (zenv s x)
  | TId k a => in_range U32 (id_val th k a)
  | TBin t o a b => guards th s a /\ guards th s b /\ op_ok t o (traw th s a) (traw th s b) = true
  | TCast _ e => guards th s e
  end.

(** The guards hold exactly when the evaluation is defined, and then the
    unguarded value is the value. *)
Theorem guard_infer : forall th s e v,
  teval th s e = Some v <-> guards th s e /\ traw th s e = v.
Proof.
  intros th s e; induction e; intros v; simpl.
  - unfold fit; rewrite <- in_rangeb_spec; destruct (in_rangeb t z); split;
      intros H; try (inversion H; subst); intuition congruence.
  - unfold fit; rewrite <- in_rangeb_spec; destruct (in_rangeb t (zenv s x)); split;
      intros H; try (inversion H; subst); intuition congruence.
  - unfold fit; rewrite <- in_rangeb_spec; destruct (in_rangeb U32 (id_val th k a)); split;
      intros H; try (inversion H; subst); intuition congruence.
  - destruct (teval th s e1) as [x|] eqn:E1.
    + destruct (teval th s e2) as [y|] eqn:E2.
      * destruct (proj1 (IHe1 x) eq_refl) as [G1 R1]; destruct (proj1 (IHe2 y) eq_refl) as [G2 R2].
        rewrite R1, R2, mapply_guard.
        destruct (op_ok t o x y); split; intros H; try (inversion H; subst); intuition congruence.
      * split; [discriminate|]. intros [[_ [G2 _]] _].
        assert (None = Some (traw th s e2)) by (apply IHe2; auto); discriminate.
    + split; [discriminate|]. intros [[G1 _] _].
      assert (None = Some (traw th s e1)) by (apply IHe1; auto); discriminate.
  - destruct (teval th s e) as [x|] eqn:E; simpl.
    + destruct (proj1 (IHe x) eq_refl) as [G R]; rewrite R; split; intros H;
        try (inversion H; subst); intuition congruence.
    + split; [discriminate|]. intros [G _].
      assert (None = Some (traw th s e)) by (apply IHe; auto); discriminate.
Qed.

(** A defined value of a well-typed expression is in its type's range. *)
Theorem teval_range : forall th s e v, twt e -> teval th s e = Some v -> in_range (tyof e) v.
Proof.
  intros th s e; induction e; intros v W; simpl.
  - apply fit_range.
  - apply fit_range.
  - apply fit_range.
  - destruct W as [T1 [T2 [W1 W2]]].
    destruct (teval th s e1) as [x|] eqn:E1; [|discriminate].
    destruct (teval th s e2) as [y|] eqn:E2; [|discriminate].
    apply mapply_range; [rewrite <- T1 | rewrite <- T2]; auto.
  - destruct (teval th s e); simpl; intros H; inversion H; subst; apply wrap_range.
Qed.

(** ** Launches in scope *)

(** Each thread of [T] evaluates the kernel's typed expressions [es] (its
    indices, conditions, bounds, values written) with the launch's values
    [s]; the launch is in scope when none is undefined. *)
Definition in_scope (T : list thread) (s : env) (es : list texp) : Prop :=
  forall th e, In th T -> In e es -> teval th s e <> None.

Lemma in_scope_guards : forall T s es,
  in_scope T s es <-> forall th e, In th T -> In e es -> guards th s e.
Proof.
  intros T s es; split; intros H th e Ht He.
  - specialize (H th e Ht He). destruct (teval th s e) as [v|] eqn:E; [|congruence].
    apply (guard_infer th s e v); auto.
  - intros E. specialize (H th e Ht He).
    assert (teval th s e = Some (traw th s e)) by (apply guard_infer; auto); congruence.
Qed.

(** ** Theorem 1 restricted to launches in scope: for a well-typed kernel
    (V ⊢ p ▶ u), every race of the MAP at a launch in scope is a race of the
    kernel's run at that launch.  Being in scope only removes launches, so
    this is [map_race_is_real] (Theorem1.v) read at those launches; what it
    adds is that the launches [confirmed] relies on are exactly the ones
    with every thread's evaluation defined ([in_scope], [guard_infer]). *)
Theorem theorem1_scope : forall V T s p u es H H',
  ty V p u -> in_scope T s es -> drf_hist H -> par T s p H H' ->
  (drf_hist H' <-> drf_set (proto_phase T s u)).
Proof. intros V T s p u es H H' Ty _ D R; eapply theorem1; eauto. Qed.

Corollary map_race_is_real_scope : forall V T s p u es H H',
  ty V p u -> in_scope T s es -> drf_hist H -> par T s p H H' ->
  ~ drf_set (proto_phase T s u) -> ~ drf_hist H'.
Proof. intros V T s p u es H H' Ty Sc D R N Hd; apply N; apply (theorem1_scope V T s p u es H H'); auto. Qed.

(** The same reading for the synchronised fragment (barriers) and for the
    launch (blocks of a grid, every thread of every block in scope). *)
Theorem theorem1_sync_scope : forall V T s p u es H H' As,
  ty V p u -> in_scope T s es -> drf_hist H -> kernel_run T s p H H' -> proto_phases T s u As ->
  (drf_hist H' <-> Forall drf_accs As).
Proof. intros V T s p u es H H' As Ty _ D R M; eapply theorem1_sync; eauto. Qed.

Theorem theorem1_grid_scope : forall V sc B s p u es mem Pss Ass,
  ty V p u -> in_scope (concat B) s es -> grid_run B s p mem Pss -> grid_phases B s u Ass ->
  (drf_launch sc (map (map accs) Pss) <-> drf_launch sc Ass).
Proof. intros V sc B s p u es mem Pss Ass Ty _ R M; eapply theorem1_grid; eauto. Qed.

(** ** Vacuity: no launch (of at least one thread) satisfying the
    assumptions [req] is in scope. *)
Definition vacuous (req : list thread -> env -> Prop) (es : list texp) : Prop :=
  forall T s, T <> [] -> req T s -> ~ in_scope T s es.

(** A vacuous kernel has no run in scope: no verdict about races is about
    any execution, which is why the tool says [vacuous] and never DRF. *)
Lemma vacuous_no_scope_run : forall req es p,
  vacuous req es ->
  ~ exists T s H H', T <> [] /\ req T s /\ in_scope T s es /\ par T s p H H'.
Proof. intros req es p Vac [T [s [H [H' [NE [Rq [Sc _]]]]]]]; exact (Vac T s NE Rq Sc). Qed.

(** One thread evaluating an undefined operation in every launch makes the
    kernel vacuous. *)
Lemma undefined_everywhere_vacuous : forall req es e,
  In e es -> (forall th s, teval th s e = None) -> vacuous req es.
Proof.
  intros req es e He U T s NE _ Sc. destruct T as [|th T]; [congruence|].
  apply (Sc th e); simpl; auto.
Qed.

(** ** Typed expressions in the program (Syntax.v's [NInt], [NOp], [NCast])

    The program's expressions hold a typed value as its bits and decode it
    by the expression's type ([zval]); [ndef] says whether every operation
    is in the scope, and the executable semantics (Run.v) stops with
    [OUndefined] where it is not.  A typed expression of this file is a
    program expression ([embed]; a variable of type [t] is [NCast t (NVar
    x)]), and where its typed evaluation is defined, the program's
    evaluation is defined and gives the same value: the lowering of a typed
    kernel to the program the theorems run computes as C. *)
Fixpoint embed (e : texp) : nexp :=
  match e with
  | TNum t z => NInt t z
  | TVar t x => NCast t (NVar x)
  | TId k a => NCast U32 (NId k a)
  | TBin t o a b => NOp t o (embed a) (embed b)
  | TCast t e => NCast t (embed e)
  end.

(** Held bits decode to the value converted to the type. *)
Lemma decode_bits : forall t v, dec t (Z.of_nat (bits t v)) = wrap t v.
Proof.
  intros t v; unfold bits; rewrite Z2Nat.id.
  - symmetry; apply wrap_dec_enc.
  - unfold enc; apply Z.mod_pos_bound, Z.pow_pos_nonneg; [lia|destruct t; simpl; lia].
Qed.

Theorem embed_teval : forall th s e v, twt e -> teval th s e = Some v ->
  ndef th s (embed e) = true /\ zval th s (embed e) = v.
Proof.
  intros th s e; induction e as [t z|t x|k a|t o a IHa b IHb|t e IHe]; intros v W; simpl.
  - unfold fit; destruct (in_rangeb t z) eqn:R; intros H; inversion H; subst.
    split; auto. unfold zval; simpl. rewrite decode_bits. apply wrap_id, in_rangeb_spec; auto.
  - unfold fit; destruct (in_rangeb t (zenv s x)) eqn:R; intros H; inversion H; subst.
    split; auto. unfold zval; simpl. rewrite decode_bits. apply wrap_id, in_rangeb_spec; auto.
  - unfold fit; destruct (in_rangeb U32 (id_val th k a)) eqn:R; intros H; inversion H; subst.
    split; auto. unfold zval; simpl. rewrite decode_bits. apply wrap_id, in_rangeb_spec; auto.
  - destruct W as [T1 [T2 [W1 W2]]].
    destruct (teval th s a) as [x|] eqn:Ea; [|discriminate].
    destruct (teval th s b) as [y|] eqn:Eb; [|discriminate].
    intros H.
    destruct (IHa x W1 eq_refl) as [Da Za]; destruct (IHb y W2 eq_refl) as [Db Zb].
    rewrite Da, Db, Za, Zb, H; split; auto.
    unfold zval in *; simpl. rewrite Za, Zb, H, decode_bits. apply wrap_id.
    apply (mapply_range t o x y v); auto.
    + rewrite <- T1; apply (teval_range th s a); auto.
    + rewrite <- T2; apply (teval_range th s b); auto.
  - destruct (teval th s e) as [x|] eqn:E; simpl; [|discriminate]. intros H; inversion H; subst.
    destruct (IHe x W eq_refl) as [D Z]. split; auto.
    unfold zval in *; simpl. rewrite Z, decode_bits; reflexivity.
Qed.

(** So at a launch in scope every thread's program evaluates the kernel's
    typed expressions, defined, to their typed values. *)
Corollary in_scope_embed : forall T s es, in_scope T s es -> (forall e, In e es -> twt e) ->
  forall th e, In th T -> In e es -> ndef th s (embed e) = true /\ Some (zval th s (embed e)) = teval th s e.
Proof.
  intros T s es Sc W th e Ht He.
  destruct (teval th s e) as [v|] eqn:E; [|exfalso; exact (Sc th e Ht He E)].
  destruct (embed_teval th s e v (W e He) E) as [D Z]; rewrite Z; auto.
Qed.
