(** * Memory access protocols (MAPs) and their semantics as sets of access
    values (paper, Section 3).  A MAP is a program with the data removed: it
    keeps the accesses (array and index), the control flow and the barriers,
    but no written or read values. *)

From Coq Require Import List Arith Bool.
Import ListNotations.
From BabyCUDA Require Import Syntax Semantics.

Inductive proto :=
| MSkip
| MRd (A : arr) (ix : list nexp)                    (** [rd A[ix]] *)
| MWr (A : arr) (ix : list nexp) (ov : option nexp)
    (** [wr A[ix]], with the value written when it depends on no data (benign races) *)
| MAt (A : arr) (ix : list nexp)                    (** [atomic A[ix]] *)
| MSeq (u v : proto)
| MIf (c : bexp) (u v : proto)
| MFor (x : var) (lo hi : nexp) (st : step) (u : proto)
| MLoopVals (x : var) (vs : list nat) (u : proto)   (** run-time form *)
| MLet (x : var) (e : nexp) (u : proto)             (** binds a pure local (inlined by faial-ts) *)
| MSync
| MAssume (c : bexp).

(** ** Semantics of a MAP for one thread, as the list of access values it
    performs, in order.  Barriers and assumptions perform no access: this
    is the single-phase (unsynchronised) reading; [Sync.v] gives the
    phase-by-phase semantics. *)
Fixpoint macc (t : thread) (s : env) (u : proto) : list access :=
  match u with
  | MSkip | MSync | MAssume _ => []
  | MRd A ix => [mkacc t A (evals t s ix) Rd]
  | MWr A ix _ => [mkacc t A (evals t s ix) Wr]
  | MAt A ix => [mkacc t A (evals t s ix) At]
  | MSeq u v => macc t s u ++ macc t s v
  | MIf c u v => if beval t s c then macc t s u else macc t s v
  | MFor x lo hi st u => flat_map (fun n => macc t (upd s x n) u) (iters t s lo hi st)
  | MLoopVals x vs u => flat_map (fun n => macc t (upd s x n) u) vs
  | MLet x e u => macc t (upd s x (eval t s e)) u
  end.

(** ** The same semantics as an inductive membership predicate:
    [MIn t s u a] means that access value [a] belongs to [[u]] for thread
    [t] in environment [s]. *)
Inductive MIn (t : thread) : env -> proto -> access -> Prop :=
| MInRd s A ix : MIn t s (MRd A ix) (mkacc t A (evals t s ix) Rd)
| MInWr s A ix ov : MIn t s (MWr A ix ov) (mkacc t A (evals t s ix) Wr)
| MInAt s A ix : MIn t s (MAt A ix) (mkacc t A (evals t s ix) At)
| MInSeqL s u v a : MIn t s u a -> MIn t s (MSeq u v) a
| MInSeqR s u v a : MIn t s v a -> MIn t s (MSeq u v) a
| MInIfT s c u v a : beval t s c = true -> MIn t s u a -> MIn t s (MIf c u v) a
| MInIfF s c u v a : beval t s c = false -> MIn t s v a -> MIn t s (MIf c u v) a
| MInFor s x lo hi st u n a :
    In n (iters t s lo hi st) -> MIn t (upd s x n) u a -> MIn t s (MFor x lo hi st u) a
| MInLoopVals s x vs u n a :
    In n vs -> MIn t (upd s x n) u a -> MIn t s (MLoopVals x vs u) a
| MInLet s x e u a : MIn t (upd s x (eval t s e)) u a -> MIn t s (MLet x e u) a.

Lemma MIn_macc_1 : forall t s u a, MIn t s u a -> In a (macc t s u).
Proof.
  induction 1; simpl; auto; try (apply in_or_app; auto; fail).
  - rewrite H; auto.
  - rewrite H; auto.
  - apply in_flat_map; eauto.
  - apply in_flat_map; eauto.
Qed.

Lemma MIn_macc_2 : forall u t s a, In a (macc t s u) -> MIn t s u a.
Proof.
  induction u; intros t s a H; simpl in H; try tauto.
  - destruct H as [<-|[]]; constructor.
  - destruct H as [<-|[]]; constructor.
  - destruct H as [<-|[]]; constructor.
  - apply in_app_or in H; destruct H; [apply MInSeqL | apply MInSeqR]; auto.
  - destruct (beval t s c) eqn:E; [apply MInIfT | apply MInIfF]; auto.
  - apply in_flat_map in H; destruct H as [n [Hn Ha]]; econstructor; eauto.
  - apply in_flat_map in H; destruct H as [n [Hn Ha]]; econstructor; eauto.
  - constructor; auto.
Qed.

Lemma MIn_macc : forall u t s a, MIn t s u a <-> In a (macc t s u).
Proof. split; [apply MIn_macc_1 | apply MIn_macc_2]. Qed.

Lemma macc_tid : forall u t s a, In a (macc t s u) -> a_tid a = t.
Proof.
  intros u t s a H; apply MIn_macc in H; induction H; simpl; auto.
Qed.

(** ** The MAP's phase: the access values of all threads of [T] when they
    all run [u] from environment [s]. *)
Definition proto_phase (T : list thread) (s : env) (u : proto) (a : access) : Prop :=
  In (a_tid a) T /\ MIn (a_tid a) s u a.
