(** * Syntax of BabyCUDA (paper, Figure 2) and of expressions over naturals.

    Expressions are deeply embedded and evaluated over [nat] in an
    environment [env] (a total map from variables to naturals) and a thread
    identifier [thread]: its block's index and its index in the block, three
    coordinates each ([blockIdx], [threadIdx]; [blockDim] and [gridDim] are
    variables, bound by the launch).  Arrays may be multi-dimensional: an index is a list of
    expressions (the paper uses one dimension; faial-ts accepts [A[i][j]]). *)

From Coq Require Import List Arith Bool.
Import ListNotations.

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
| NBin (o : binop) (a b : nexp).

(** [tid], the paper's thread identifier: threadIdx.x. *)
Notation NTid := (NId IThread AX).

Inductive bexp :=
| BTrue
| BFalse
| BCmp (o : cmpop) (a b : nexp)
| BAnd (c d : bexp)
| BOr (c d : bexp)
| BNot (c : bexp).

(** Loop steps: [for x in n..m] is [StepAdd 1]; the down-counting loops
    ([downto]) use [StepSub] and [StepDiv]. *)
Inductive step := StepAdd (k : nexp) | StepMul (k : nexp) | StepSub (k : nexp) | StepDiv (k : nexp).

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

Fixpoint eval (t : thread) (s : env) (e : nexp) : nat :=
  match e with
  | NNum n => n
  | NVar x => s x
  | NId k a => coord (match k with IThread => t_thread t | IBlock => t_block t end) a
  | NBin o a b => eval_binop o (eval t s a) (eval t s b)
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

Definition step_values (st : step) (t : thread) (s : env) (n m : nat) : list nat :=
  match st with
  | StepAdd k => up_add (m - n) n m (eval t s k)
  | StepMul k => up_mul m n m (eval t s k)
  | StepSub k => down_sub (S n) n m (eval t s k)
  | StepDiv k => down_div (S n) n m (eval t s k)
  end.

Definition iters (t : thread) (s : env) (lo hi : nexp) (st : step) : list nat :=
  step_values st t s (eval t s lo) (eval t s hi).

(** ** Free variables *)
Fixpoint nvars (e : nexp) : list var :=
  match e with
  | NNum _ | NId _ _ => []
  | NVar x => [x]
  | NBin _ a b => nvars a ++ nvars b
  end.

Fixpoint bvars (c : bexp) : list var :=
  match c with
  | BTrue | BFalse => []
  | BCmp _ a b => nvars a ++ nvars b
  | BAnd c d | BOr c d => bvars c ++ bvars d
  | BNot c => bvars c
  end.

Definition step_exp (st : step) : nexp :=
  match st with StepAdd k | StepMul k | StepSub k | StepDiv k => k end.

(** ** Basic facts about evaluation *)

Lemma eval_agree : forall t s s' e,
  (forall x, In x (nvars e) -> s x = s' x) -> eval t s e = eval t s' e.
Proof.
  induction e; simpl; intros H; auto.
  rewrite IHe1, IHe2; auto; intros; apply H; apply in_or_app; auto.
Qed.

Lemma beval_agree : forall t s s' c,
  (forall x, In x (bvars c) -> s x = s' x) -> beval t s c = beval t s' c.
Proof.
  induction c; simpl; intros H; auto.
  - rewrite (eval_agree t s s' a), (eval_agree t s s' b); auto;
      intros; apply H; apply in_or_app; auto.
  - rewrite IHc1, IHc2; auto; intros; apply H; apply in_or_app; auto.
  - rewrite IHc1, IHc2; auto; intros; apply H; apply in_or_app; auto.
  - rewrite IHc; auto.
Qed.

Lemma upd_eq : forall s x v, upd s x v x = v.
Proof. unfold upd; intros; rewrite Nat.eqb_refl; auto. Qed.

Lemma upd_neq : forall s x v y, y <> x -> upd s x v y = s y.
Proof. unfold upd; intros; destruct (Nat.eqb_spec y x); congruence. Qed.
