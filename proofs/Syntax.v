(** * Syntax of BabyCUDA (paper, Figure 2) and of expressions over naturals.

    Expressions are deeply embedded and evaluated over [nat] in an
    environment [env] (a total map from variables to naturals) and a thread
    identifier [thread]: its block's index and its index in the block, three
    coordinates each ([blockIdx], [threadIdx]; [blockDim] and [gridDim] are
    variables, bound by the launch).  Arrays may be multi-dimensional: an index is a list of
    expressions (the paper uses one dimension; faial-ts accepts [A[i][j]]). *)

From Coq Require Import List Arith Bool ZArith.
Import ListNotations.
From BabyCUDA Require MachineInt.
Import MachineInt(ity, mop, MAdd, MSub, MMul, MDiv).

Definition var := nat.
Definition arr := nat.

(** ** Threads of a grid *)
Record dim3 := mkdim { d_x : nat; d_y : nat; d_z : nat }.
Record thread := mkthr { t_block : dim3; t_thread : dim3 }.

Inductive idkind := IThread | IBlock.   (** [threadIdx], [blockIdx] *)
Inductive axis := AX | AY | AZ.

Definition coord (d : dim3) (a : axis) : nat :=
  match a with AX => d_x d | AY => d_y d | AZ => d_z d end.

Definition dim3_eq_dec : forall d e : dim3, {d = e} + {d <> e}.
Proof. decide equality; apply Nat.eq_dec. Defined.
Definition thread_eq_dec : forall t u : thread, {t = u} + {t <> u}.
Proof. decide equality; apply dim3_eq_dec. Defined.

(** Thread [n] along x of block 0: the threads of the paper's examples. *)
Definition tid_x (n : nat) : thread := mkthr (mkdim 0 0 0) (mkdim n 0 0).

(** ** Arithmetic and boolean expressions *)

Inductive binop := OAdd | OSub | OMul | ODiv | OMod | OShl | OShr | OAnd | OOr | OXor.
Inductive cmpop := CEq | CNe | CLt | CLe | CGt | CGe.

Inductive nexp :=
| NNum (n : nat)
| NVar (x : var)
| NId (k : idkind) (a : axis)           (** [threadIdx.a], [blockIdx.a] *)
| NBin (o : binop) (a b : nexp)
(** Machine integers (MachineInt.v), as the typed expressions of faial-ts's
    core: a typed value is held as its type's bits ([bits]: a natural below
    2^width), read back as the typed value ([decode] by the expression's
    static type [ntype]). *)
| NInt (t : ity) (z : Z)                  (** a constant of type [t] *)
| NOp (t : ity) (o : mop) (a b : nexp)    (** C's operation on [t] ([mapply]) *)
| NCast (t : ity) (a : nexp).             (** conversion to [t] ([wrap]); a variable of type [t] is [NCast t (NVar x)] *)

(** [tid], the paper's thread identifier: threadIdx.x. *)
Notation NTid := (NId IThread AX).

Inductive bexp :=
| BTrue
| BFalse
| BCmp (o : cmpop) (a b : nexp)
| BAnd (c d : bexp)
| BOr (c d : bexp)
| BNot (c : bexp)
| BZCmp (o : cmpop) (a b : nexp).   (** comparison of the operands' values as integers (typed operands decoded) *)

(** Loop steps: [for x in n..m] is [StepAdd 1]; the down-counting loops
    ([downto]) use [StepSub] and [StepDiv]. *)
Inductive step := StepAdd (k : nexp) | StepMul (k : nexp) | StepSub (k : nexp) | StepDiv (k : nexp)
(** a loop whose counter has machine type [t]: [o] is [MAdd]/[MMul] (up,
    while [x < hi]) or [MSub]/[MDiv] (down, while [x >= hi]), computed in
    [t] (src/semantics/loops.ts) *)
| StepT (t : ity) (o : mop) (k : nexp).

(** Atomic read-modify-write operations (CUDA's atomicAdd and kin). *)
Inductive atomic_op := AtAdd | AtSub | AtMax | AtMin | AtAnd | AtOr | AtXor | AtExch | AtCas | AtInc | AtDec.

(** ** Programs *)
Inductive prog :=
| PSkip
| PWrite (A : arr) (ix : list nexp) (e : nexp)          (** [A[ix] := e] *)
| PRead (x : var) (A : arr) (ix : list nexp) (p : prog) (** [let x = A[ix] in p] *)
| PLet (x : var) (e : nexp) (p : prog)                   (** pure [let x = e in p] (extension) *)
| PAtomic (x : var) (A : arr) (ix : list nexp) (op : atomic_op) (vs : list nexp) (p : prog)
    (** [let x = atomic op(A[ix], vs) in p]: [x] is the old value (extension) *)
| PSeq (p q : prog)
| PIf (c : bexp) (p q : prog)
| PFor (x : var) (lo hi : nexp) (st : step) (p : prog)  (** [for x in lo..hi step st {p}] *)
| PLoopVals (x : var) (vs : list nat) (p : prog)        (** run-time form: [for x in vs {p}] *)
| PSync
| PAssume (c : bexp).                                    (** [assume c] (extension) *)

(** The value an atomic writes, from the element's old value and its
    operands, on naturals (as [atomicResult] in src/semantics/values.ts). *)
Definition atomic_result (op : atomic_op) (old : nat) (vs : list nat) : nat :=
  let v := nth 0 vs 0 in
  let w := nth 1 vs 0 in
  match op with
  | AtAdd => old + v
  | AtSub => old - v
  | AtMax => Nat.max old v
  | AtMin => Nat.min old v
  | AtAnd => Nat.land old v
  | AtOr => Nat.lor old v
  | AtXor => Nat.lxor old v
  | AtExch => v
  | AtCas => if Nat.eqb old v then w else old
  | AtInc => if Nat.leb v old then 0 else old + 1
  | AtDec => if Nat.eqb old 0 || Nat.ltb v old then v else old - 1
  end.

(** ** Environments *)
Definition env := var -> nat.
Definition upd (s : env) (x : var) (v : nat) : env :=
  fun y => if Nat.eqb y x then v else s y.

(** ** Evaluation.  Natural-number arithmetic is Coq's: truncated
    subtraction ([2 - 3 = 0]), [n / 0 = 0], [n mod 0 = n], no overflow.
    None of the theorems depends on these choices. *)
Definition eval_binop (o : binop) : nat -> nat -> nat :=
  match o with
  | OAdd => Nat.add | OSub => Nat.sub | OMul => Nat.mul
  | ODiv => Nat.div | OMod => Nat.modulo
  | OShl => Nat.shiftl | OShr => Nat.shiftr
  | OAnd => Nat.land | OOr => Nat.lor | OXor => Nat.lxor
  end.

Definition eval_cmp (o : cmpop) (a b : nat) : bool :=
  match o with
  | CEq => Nat.eqb a b | CNe => negb (Nat.eqb a b)
  | CLt => Nat.ltb a b | CLe => Nat.leb a b
  | CGt => Nat.ltb b a | CGe => Nat.leb b a
  end.

(** The static type of an expression: [None] for BabyCUDA's naturals. *)
Definition ntype (e : nexp) : option ity :=
  match e with NInt t _ | NOp t _ _ _ | NCast t _ => Some t | _ => None end.

(** A typed value's bits, and the value of held bits (a natural is itself). *)
Definition bits (t : ity) (v : Z) : nat := Z.to_nat (MachineInt.enc t v).
Definition decode (ty : option ity) (n : nat) : Z :=
  match ty with Some t => MachineInt.dec t (Z.of_nat n) | None => Z.of_nat n end.

(** Evaluation is total: an operation outside the scope ([mapply] is
    [None]) gives 0 here, and [ndef] below says it is undefined; the
    executable semantics (Run.v) stops there. *)
Fixpoint eval (t : thread) (s : env) (e : nexp) : nat :=
  match e with
  | NNum n => n
  | NVar x => s x
  | NId k a => coord (match k with IThread => t_thread t | IBlock => t_block t end) a
  | NBin o a b => eval_binop o (eval t s a) (eval t s b)
  | NInt ty z => bits ty z
  | NOp ty o a b =>
      match MachineInt.mapply ty o (decode (ntype a) (eval t s a)) (decode (ntype b) (eval t s b)) with
      | Some v => bits ty v
      | None => 0
      end
  | NCast ty a => bits ty (decode (ntype a) (eval t s a))
  end.

(** The value as an integer: a typed expression's decoded, a natural's itself. *)
Definition zval (t : thread) (s : env) (e : nexp) : Z := decode (ntype e) (eval t s e).

(** Whether every operation of [e] is in the scope (docs/machine-integers.md):
    constants in their type's range, operations defined ([mapply]). *)
Fixpoint ndef (t : thread) (s : env) (e : nexp) : bool :=
  match e with
  | NNum _ | NVar _ | NId _ _ => true
  | NBin _ a b => ndef t s a && ndef t s b
  | NInt ty z => MachineInt.in_rangeb ty z
  | NOp ty o a b =>
      ndef t s a && ndef t s b &&
      match MachineInt.mapply ty o (zval t s a) (zval t s b) with Some _ => true | None => false end
  | NCast _ a => ndef t s a
  end.

Definition eval_zcmp (o : cmpop) (a b : Z) : bool :=
  match o with
  | CEq => Z.eqb a b | CNe => negb (Z.eqb a b)
  | CLt => Z.ltb a b | CLe => Z.leb a b
  | CGt => Z.ltb b a | CGe => Z.leb b a
  end.

Definition evals (t : thread) (s : env) (ix : list nexp) : list nat := map (eval t s) ix.

Fixpoint beval (t : thread) (s : env) (c : bexp) : bool :=
  match c with
  | BTrue => true
  | BFalse => false
  | BCmp o a b => eval_cmp o (eval t s a) (eval t s b)
  | BAnd c d => beval t s c && beval t s d
  | BOr c d => beval t s c || beval t s d
  | BNot c => negb (beval t s c)
  | BZCmp o a b => eval_zcmp o (zval t s a) (zval t s b)
  end.

(** Whether a condition's evaluation is in the scope; [&&] and [||] evaluate
    their right operand only when needed, as C's (and values.ts's) do. *)
Fixpoint bdef (t : thread) (s : env) (c : bexp) : bool :=
  match c with
  | BTrue | BFalse => true
  | BCmp _ a b | BZCmp _ a b => ndef t s a && ndef t s b
  | BAnd c d => bdef t s c && (if beval t s c then bdef t s d else true)
  | BOr c d => bdef t s c && (if beval t s c then true else bdef t s d)
  | BNot c => bdef t s c
  end.

(** ** Loop iteration values (spec, section 3).  Each loop visits a finite
    list of values; [fuel] bounds the list for degenerate steps (step [0],
    [* 1], [/ 1]) that would not terminate in C and that the front end
    rejects. *)
Fixpoint up_add (fuel n m k : nat) : list nat :=
  match fuel with 0 => [] | S f => if Nat.ltb n m then n :: up_add f (n + k) m k else [] end.
Fixpoint up_mul (fuel n m k : nat) : list nat :=
  match fuel with 0 => [] | S f => if Nat.ltb n m then n :: up_mul f (n * k) m k else [] end.
Fixpoint down_sub (fuel n m k : nat) : list nat :=
  match fuel with
  | 0 => []
  | S f => if Nat.leb m n then n :: (if Nat.ltb n k then [] else down_sub f (n - k) m k) else []
  end.
Fixpoint down_div (fuel n m k : nat) : list nat :=
  match fuel with 0 => [] | S f => if Nat.leb m n then n :: down_div f (n / k) m k else [] end.

(** A typed loop (src/semantics/loops.ts): the counter's values in [t],
    each held as its bits; the step after each value is computed in [t] and
    must stay in the type ([tnext]: an unsigned counter that would wrap
    around is outside the scope, as [loopStepUndefined]); the flag says
    whether every step taken was in the scope. *)
Definition tup (o : mop) : bool := match o with MachineInt.MSub | MachineInt.MDiv => false | _ => true end.
Definition tnext (t : ity) (o : mop) (x k : Z) : option Z :=
  match o with
  | MachineInt.MAdd => MachineInt.fit t (x + k)
  | MachineInt.MSub => MachineInt.fit t (x - k)
  | MachineInt.MMul => MachineInt.fit t (x * k)
  | _ => MachineInt.mapply t o x k
  end.
Fixpoint tvals (fuel : nat) (t : ity) (o : mop) (k x m : Z) : list nat * bool :=
  match fuel with
  | 0 => ([], true)
  | S f =>
      if (if tup o then Z.ltb x m else Z.leb m x) then
        match tnext t o x k with
        | Some y => let r := tvals f t o k y m in (bits t x :: fst r, snd r)
        | None => ([bits t x], false)
        end
      else ([], true)
  end.
(** Enough values for every loop: a counter of type [t] has 2^width values,
    so a longer list repeats one (a step that stays put, or a cycle through
    wrap-around, is degenerate, as for the natural loops).  The distance
    between the bounds is not enough: [for i: i32 in -1..3 step * 4] runs
    away from its bound until it overflows. *)
Definition tfuel (t : ity) (n m : nat) : nat := S (Z.to_nat (2 ^ MachineInt.width t)).

Definition step_values (st : step) (t : thread) (s : env) (n m : nat) : list nat :=
  match st with
  | StepAdd k => up_add (m - n) n m (eval t s k)
  | StepMul k => up_mul m n m (eval t s k)
  | StepSub k => down_sub (S n) n m (eval t s k)
  | StepDiv k => down_div (S n) n m (eval t s k)
  | StepT ty o k => fst (tvals (tfuel ty n m) ty o (zval t s k) (MachineInt.dec ty (Z.of_nat n)) (MachineInt.dec ty (Z.of_nat m)))
  end.

Definition iters (t : thread) (s : env) (lo hi : nexp) (st : step) : list nat :=
  step_values st t s (eval t s lo) (eval t s hi).

(** ** Free variables *)
Fixpoint nvars (e : nexp) : list var :=
  match e with
  | NNum _ | NId _ _ => []
  | NVar x => [x]
  | NBin _ a b | NOp _ _ a b => nvars a ++ nvars b
  | NInt _ _ => []
  | NCast _ a => nvars a
  end.

Fixpoint bvars (c : bexp) : list var :=
  match c with
  | BTrue | BFalse => []
  | BCmp _ a b | BZCmp _ a b => nvars a ++ nvars b
  | BAnd c d | BOr c d => bvars c ++ bvars d
  | BNot c => bvars c
  end.

Definition step_exp (st : step) : nexp :=
  match st with StepAdd k | StepMul k | StepSub k | StepDiv k | StepT _ _ k => k end.

(** ** Basic facts about evaluation *)

Lemma eval_agree : forall t s s' e,
  (forall x, In x (nvars e) -> s x = s' x) -> eval t s e = eval t s' e.
Proof.
  induction e; simpl; intros H; auto;
    try (rewrite IHe1, IHe2; auto; intros; apply H; apply in_or_app; auto);
    rewrite IHe; auto.
Qed.

Lemma zval_agree : forall t s s' e,
  (forall x, In x (nvars e) -> s x = s' x) -> zval t s e = zval t s' e.
Proof. unfold zval; intros; rewrite (eval_agree t s s' e); auto. Qed.

Lemma beval_agree : forall t s s' c,
  (forall x, In x (bvars c) -> s x = s' x) -> beval t s c = beval t s' c.
Proof.
  induction c; simpl; intros H; auto.
  - rewrite (eval_agree t s s' a), (eval_agree t s s' b); auto;
      intros; apply H; apply in_or_app; auto.
  - rewrite IHc1, IHc2; auto; intros; apply H; apply in_or_app; auto.
  - rewrite IHc1, IHc2; auto; intros; apply H; apply in_or_app; auto.
  - rewrite IHc; auto.
  - rewrite (zval_agree t s s' a), (zval_agree t s s' b); auto;
      intros; apply H; apply in_or_app; auto.
Qed.

Lemma upd_eq : forall s x v, upd s x v x = v.
Proof. unfold upd; intros; rewrite Nat.eqb_refl; auto. Qed.

Lemma upd_neq : forall s x v y, y <> x -> upd s x v y = s y.
Proof. unfold upd; intros; destruct (Nat.eqb_spec y x); congruence. Qed.
