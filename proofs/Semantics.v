(** * Semantics of BabyCUDA (paper, Figure 5): access values, phases,
    access histories, per-thread big-step semantics with [lastwrite],
    parallel semantics, and data-race freedom (paper, Definition 1). *)

From Coq Require Import List Arith Bool.
Import ListNotations.
From BabyCUDA Require Import Syntax.

(** ** Access values *)
(** A read, a write, or an atomic read-modify-write. *)
Inductive mode := Rd | Wr | At.

Record access := mkacc { a_tid : thread; a_arr : arr; a_idx : list nat; a_mode : mode }.

(** An event of the history is an access together with the value read or
    written (an atomic's: the value it writes; the value is what [lastwrite]
    needs; races only look at the access). *)
Record event := mkev { ev_acc : access; ev_val : nat }.

(** A phase is the list of events between two barriers, in execution
    order; an access history is the list of phases, oldest first. *)
Definition phase := list event.
Definition history := list phase.

Definition accs (P : phase) : list access := map ev_acc P.

(** ** [lastwrite]: the value of the most recent write to [A[i]] in a list
    of events (oldest first); [0] when the cell was never written
    (uninitialised memory reads as 0). *)
Fixpoint lastwrite_rev (es : list event) (A : arr) (i : list nat) : nat :=
  match es with
  | [] => 0
  | e :: es =>
      let a := ev_acc e in
      match a_mode a with
      | Wr | At => if Nat.eqb (a_arr a) A && (if list_eq_dec Nat.eq_dec (a_idx a) i then true else false)
              then ev_val e else lastwrite_rev es A i
      | Rd => lastwrite_rev es A i
      end
  end.
Definition lastwrite (mem : list event) (A : arr) (i : list nat) : nat :=
  lastwrite_rev (rev mem) A i.

(** ** Per-thread big-step semantics of the unsynchronised fragment.
    [exec t mem s p evs]: thread [t], whose memory view is the event list
    [mem] (the flattened history so far), runs [p] in environment [s] and
    performs the events [evs] (in order).  [let] scopes over its body only,
    so no environment is returned.  There is no rule for [sync]: barriers
    are handled by the semantics of [Sync.v]. *)
Inductive exec (t : thread) : list event -> env -> prog -> list event -> Prop :=
| ESkip mem s : exec t mem s PSkip []
| EWrite mem s A ix e :
    exec t mem s (PWrite A ix e) [mkev (mkacc t A (evals t s ix) Wr) (eval t s e)]
| ERead mem s x A ix p evs :
    exec t (mem ++ [mkev (mkacc t A (evals t s ix) Rd) (lastwrite mem A (evals t s ix))])
         (upd s x (lastwrite mem A (evals t s ix))) p evs ->
    exec t mem s (PRead x A ix p)
         (mkev (mkacc t A (evals t s ix) Rd) (lastwrite mem A (evals t s ix)) :: evs)
| EAtomic mem s x A ix op vs p evs :
    exec t (mem ++ [mkev (mkacc t A (evals t s ix) At) (atomic_result op (lastwrite mem A (evals t s ix)) (evals t s vs))])
         (upd s x (lastwrite mem A (evals t s ix))) p evs ->
    exec t mem s (PAtomic x A ix op vs p)
         (mkev (mkacc t A (evals t s ix) At) (atomic_result op (lastwrite mem A (evals t s ix)) (evals t s vs)) :: evs)
| ELet mem s x e p evs :
    exec t mem (upd s x (eval t s e)) p evs -> exec t mem s (PLet x e p) evs
| ESeq mem s p q e1 e2 :
    exec t mem s p e1 -> exec t (mem ++ e1) s q e2 -> exec t mem s (PSeq p q) (e1 ++ e2)
| EIfT mem s c p q evs :
    beval t s c = true -> exec t mem s p evs -> exec t mem s (PIf c p q) evs
| EIfF mem s c p q evs :
    beval t s c = false -> exec t mem s q evs -> exec t mem s (PIf c p q) evs
| EFor mem s x lo hi st p evs :
    exec t mem s (PLoopVals x (iters t s lo hi st) p) evs ->
    exec t mem s (PFor x lo hi st p) evs
| ELoopNil mem s x p : exec t mem s (PLoopVals x [] p) []
| ELoopCons mem s x v vs p e1 e2 :
    exec t mem (upd s x v) p e1 ->
    exec t (mem ++ e1) s (PLoopVals x vs p) e2 ->
    exec t mem s (PLoopVals x (v :: vs) p) (e1 ++ e2)
| EAssume mem s c : beval t s c = true -> exec t mem s (PAssume c) [].

(** ** Parallel semantics of the unsynchronised fragment.  A kernel
    launch opens a new phase.  Within a phase, threads do not see each
    other's writes (the paper's [lastwrite]): each thread of [T] runs from
    the history of the earlier phases, and its reads see its own writes of
    the current phase, else the last write of the earlier phases.  The new
    phase lists the threads' events in the order of [T]. *)
Inductive par_threads : list event -> env -> prog -> list thread -> phase -> Prop :=
| PTNil mem s p : par_threads mem s p [] []
| PTCons mem s p t T e1 e2 :
    exec t mem s p e1 -> par_threads mem s p T e2 ->
    par_threads mem s p (t :: T) (e1 ++ e2).

Definition par (T : list thread) (s : env) (p : prog) (H H' : history) : Prop :=
  exists P, par_threads (concat H) s p T P /\ H' = H ++ [P].

(** ** Data-race freedom (paper, Definition 1).  Two accesses of one
    element by distinct threads race when one writes; an atomic counts as a
    write, except that two atomics never race (spec, section 6). *)
Definition racing_modes (m n : mode) : Prop :=
  m = Wr \/ n = Wr \/ (m = At /\ n = Rd) \/ (m = Rd /\ n = At).

Definition conflict (a b : access) : Prop :=
  a_tid a <> a_tid b /\ a_arr a = a_arr b /\ a_idx a = a_idx b /\ racing_modes (a_mode a) (a_mode b).

(** A set of access values is DRF when no two of its elements conflict. *)
Definition drf_set (S : access -> Prop) : Prop :=
  forall a b, S a -> S b -> ~ conflict a b.

Definition drf_phase (P : phase) : Prop := drf_set (fun a => In a (accs P)).
Definition drf_hist (H : history) : Prop := Forall drf_phase H.

Lemma drf_set_ext : forall (S S' : access -> Prop),
  (forall a, S a <-> S' a) -> (drf_set S <-> drf_set S').
Proof.
  unfold drf_set; split; intros D a b Ha Hb; apply D; firstorder.
Qed.

Lemma drf_hist_app : forall H H', drf_hist (H ++ H') <-> drf_hist H /\ drf_hist H'.
Proof. intros; unfold drf_hist; rewrite Forall_app; tauto. Qed.

Lemma drf_hist_snoc : forall H P, drf_hist H -> (drf_hist (H ++ [P]) <-> drf_phase P).
Proof.
  intros H P D; rewrite drf_hist_app; unfold drf_hist; split.
  - intros [_ F]; inversion F; auto.
  - intros; split; auto.
Qed.

(** Every event of a thread is performed by that thread. *)
Lemma exec_tid : forall t mem s p evs, exec t mem s p evs ->
  forall e, In e evs -> a_tid (ev_acc e) = t.
Proof.
  induction 1; simpl; intros ev Hin;
    repeat match goal with
    | H : In _ (_ ++ _) |- _ => apply in_app_or in H; destruct H
    | H : _ \/ _ |- _ => destruct H
    end; subst; simpl; eauto; tauto.
Qed.
