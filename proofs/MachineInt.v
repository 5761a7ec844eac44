(** * Machine integers as docs/machine-integers.md and src/core/arith.ts
    define them: the types [u32], [i32], [u64], [i64], their ranges, the
    modular conversion [wrap], the two's complement encoding, and each
    binary operation's result, [None] when the operation is outside the
    scope of verification (signed overflow, division by zero, a shift count
    out of range). *)

From Coq Require Import ZArith Bool Lia.
Open Scope Z_scope.

Inductive ity := U32 | I32 | U64 | I64.

Definition width (t : ity) : Z := match t with U32 | I32 => 32 | U64 | I64 => 64 end.
Definition signed (t : ity) : bool := match t with I32 | I64 => true | U32 | U64 => false end.

(** The range of a type: [tmin t <= v <= tmax t]. *)
Definition tmin (t : ity) : Z := if signed t then - 2 ^ (width t - 1) else 0.
Definition tmax (t : ity) : Z :=
  if signed t then 2 ^ (width t - 1) - 1 else 2 ^ width t - 1.
Definition in_range (t : ity) (v : Z) : Prop := tmin t <= v <= tmax t.
Definition in_rangeb (t : ity) (v : Z) : bool := (tmin t <=? v) && (v <=? tmax t).

Lemma in_rangeb_spec : forall t v, in_rangeb t v = true <-> in_range t v.
Proof.
  intros t v; unfold in_rangeb, in_range; rewrite andb_true_iff, Z.leb_le, Z.leb_le; tauto.
Qed.

(** Conversion to a type (casts, C++20): exact and modular. *)
Definition wrap (t : ity) (v : Z) : Z :=
  if signed t then (v + 2 ^ (width t - 1)) mod 2 ^ width t - 2 ^ (width t - 1)
  else v mod 2 ^ width t.

(** The type's bits, read as an unsigned number, and back. *)
Definition enc (t : ity) (v : Z) : Z := v mod 2 ^ width t.
Definition dec (t : ity) (n : Z) : Z :=
  if signed t && (2 ^ (width t - 1) <=? n) then n - 2 ^ width t else n.

(** The value [v] if it fits the type, else out of scope. *)
Definition fit (t : ity) (v : Z) : option Z := if in_rangeb t v then Some v else None.

Inductive mop := MAdd | MSub | MMul | MDiv | MMod | MShl | MShr | MAnd | MOr | MXor.

(** An operation on two values of type [t].  Unsigned [+ - * <<] wrap
    around modulo 2^width (defined in C, docs/machine-integers.md); signed
    results must fit.  [/] and
    [%] truncate toward zero ([Z.quot], [Z.rem]), and [INT_MIN % -1] is
    out of scope as [INT_MIN / -1] is (C++; src/core/arith.ts); [>>] rounds down (an
    arithmetic shift); [& | ^] work on the type's bits. *)
Definition mapply (t : ity) (o : mop) (a b : Z) : option Z :=
  match o with
  | MAdd => if signed t then fit t (a + b) else Some (wrap t (a + b))
  | MSub => if signed t then fit t (a - b) else Some (wrap t (a - b))
  | MMul => if signed t then fit t (a * b) else Some (wrap t (a * b))
  | MDiv => if b =? 0 then None else fit t (Z.quot a b)
  | MMod => if (b =? 0) || ((a =? tmin t) && (b =? -1)) then None else fit t (Z.rem a b)
  | MShl => if (b <? 0) || (width t <=? b) then None
            else if signed t then fit t (a * 2 ^ b) else Some (wrap t (a * 2 ^ b))
  | MShr => if (b <? 0) || (width t <=? b) then None else Some (a / 2 ^ b)
  | MAnd => Some (wrap t (Z.land a b))
  | MOr => Some (wrap t (Z.lor a b))
  | MXor => Some (wrap t (Z.lxor a b))
  end.

(** ** Properties *)

Lemma wrap_range : forall t v, in_range t (wrap t v).
Proof.
  intros t v; unfold in_range, wrap, tmin, tmax;
    destruct t; simpl;
    match goal with |- context [?x mod ?m] => pose proof (Z.mod_pos_bound x m ltac:(lia)) end;
    lia.
Qed.

Lemma wrap_id : forall t v, in_range t v -> wrap t v = v.
Proof.
  intros t v; unfold in_range, wrap, tmin, tmax; destruct t; simpl; intros R;
    rewrite ?Z.mod_small by lia; lia.
Qed.

Lemma wrap_mod : forall t v, wrap t v mod 2 ^ width t = v mod 2 ^ width t.
Proof.
  intros t v; unfold wrap; destruct (signed t).
  - set (h := 2 ^ (width t - 1)).
    rewrite Zminus_mod, Zmod_mod, <- Zminus_mod, Z.add_simpl_r; reflexivity.
  - apply Zmod_mod.
Qed.

Lemma fit_range : forall t v r, fit t v = Some r -> in_range t r.
Proof.
  unfold fit; intros t v r; destruct (in_rangeb t v) eqn:E; intros H; inversion H; subst.
  apply in_rangeb_spec; auto.
Qed.

Lemma fit_some : forall t v, in_range t v -> fit t v = Some v.
Proof. unfold fit; intros t v R; apply in_rangeb_spec in R; rewrite R; auto. Qed.

Lemma shr_range : forall t a b, in_range t a -> 0 <= b -> in_range t (a / 2 ^ b).
Proof.
  intros t a b R Hb.
  assert (Hk : 0 < 2 ^ b) by (apply Z.pow_pos_nonneg; lia).
  pose proof (Z.div_mod a (2 ^ b) ltac:(lia)) as D.
  pose proof (Z.mod_pos_bound a (2 ^ b) Hk) as M.
  unfold in_range, tmin, tmax in *; destruct t; simpl in *; nia.
Qed.

(** An in-scope operation on values of the type gives a value of the type. *)
Theorem mapply_range : forall t o a b v,
  in_range t a -> in_range t b -> mapply t o a b = Some v -> in_range t v.
Proof.
  intros t o a b v Ra Rb; destruct o; simpl;
    repeat match goal with
    | |- context [if ?c then _ else _] => destruct c eqn:?
    end; intros H; try discriminate;
    try (inversion H; subst; apply wrap_range);
    try (eapply fit_range; eassumption).
  inversion H; subst; apply shr_range; auto.
  apply orb_false_iff in Heqb0; destruct Heqb0 as [B _]; apply Z.ltb_ge in B; auto.
Qed.

(** Unsigned [+ - *] are exact modulo 2^width: defined on every operand. *)
Theorem unsigned_wrap_exact : forall t a b, signed t = false ->
  mapply t MAdd a b = Some (wrap t (a + b)) /\ mapply t MSub a b = Some (wrap t (a - b))
  /\ mapply t MMul a b = Some (wrap t (a * b)).
Proof. intros t a b S; simpl; rewrite S; auto. Qed.

Theorem div_zero_out : forall t a, mapply t MDiv a 0 = None /\ mapply t MMod a 0 = None.
Proof. intros; simpl; auto. Qed.

(** Decoding the bits of a value gives the value back. *)
Theorem dec_enc : forall t v, in_range t v -> dec t (enc t v) = v.
Proof.
  intros t v; unfold in_range, dec, enc, tmin, tmax; destruct t; simpl; intros R;
    (destruct (Z.leb_spec 0 v);
     [rewrite Z.mod_small by lia
     |match goal with |- context [v mod ?m] =>
        rewrite <- (Z.mod_add v 1 m) by lia; rewrite Z.mod_small by lia end]);
    try match goal with |- context [?x <=? ?y] => destruct (Z.leb_spec x y) end; lia.
Qed.

(** A conversion is the value's bits read in the target type. *)
Theorem wrap_dec_enc : forall t v, wrap t v = dec t (enc t v).
Proof.
  intros t v; rewrite <- (dec_enc t (wrap t v)) by apply wrap_range.
  unfold enc; rewrite wrap_mod; reflexivity.
Qed.
