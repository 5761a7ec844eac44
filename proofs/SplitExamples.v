(** * The phase split on a loop whose race crosses its barrier.

    [for i in 0..2 { rd A[tid]; sync; wr A[tid + 1] }] ([i] = 1, [A] = 0)
    run by threads 0 and 1: thread 0's write of [A[1]] after the barrier
    of iteration 0 and thread 1's read of [A[1]] before the barrier of
    iteration 1 are in one interval, which the split finds in its aligned
    phase ([CStep]: the end of iteration [n] and the start of [n + 1]). *)

From Coq Require Import List Arith Bool.
Import ListNotations.
From BabyCUDA Require Import Syntax Semantics Map Sync SyncTheorem Split SplitTheorem SplitUniform.

Definition range02 : range := RFor (NNum 0) (NNum 2) (StepAdd (NNum 1)).
Definition rd_tid : proto := MRd 0 [NTid].
Definition wr_next : proto := MWr 0 [NBin OAdd NTid (NNum 1)] None.
Definition xloop : proto :=
  MFor 1 (NNum 0) (NNum 2) (StepAdd (NNum 1)) (MSeq rd_tid (MSeq MSync wr_next)).
Definition T2 : list thread := [tid_x 0; tid_x 1].
Definition s0 : env := fun _ => 0.

(** The split, as [src/phases/split.ts] computes it: the loop may run zero
    times; up to the first barrier; the aligned phase; after the last. *)
Example xloop_split : split_phases xloop =
  [CEmpty range02;
   CBind 1 RFirst range02 (CSeq (CProto rd_tid) (CProto MSkip));
   CStep 1 range02 (CSeq (CProto MSkip) (CProto wr_next)) (CSeq (CProto rd_tid) (CProto MSkip));
   CBind 1 RLast range02 (CSeq (CProto MSkip) (CProto wr_next))].
Proof. reflexivity. Qed.

Example xloop_aligned : aligned xloop = true.
Proof. reflexivity. Qed.

(** The lock-step run exists (so [theorem1_split] is not vacuous here). *)
Example xloop_run : exists X, jsegs T2 s0 xloop X.
Proof.
  eexists. eapply JSFor with (vs := [0; 1]); [reflexivity | intros; reflexivity |].
  constructor; [| constructor; [| constructor]].
  - eapply JSSeq; [reflexivity | apply JSFree; [reflexivity | intros; exact I] |].
    eapply JSSeq; [reflexivity | apply JSSync | apply JSFree; [reflexivity | intros; exact I]].
  - eapply JSSeq; [reflexivity | apply JSFree; [reflexivity | intros; exact I] |].
    eapply JSSeq; [reflexivity | apply JSSync | apply JSFree; [reflexivity | intros; exact I]].
Qed.

(** The aligned phase at iterations 0 and 1 holds the race. *)
Example xloop_step_race : exists c f a b,
  In c (split_phases xloop) /\ jph T2 s0 c f /\
  In a (flat_map f T2) /\ In b (flat_map f T2) /\ conflict a b.
Proof.
  set (f := sapp (sapp (fun t => macc t (upd s0 1 0) MSkip) (fun t => macc t (upd s0 1 0) wr_next))
                 (sapp (fun t => macc t (upd s0 1 1) rd_tid) (fun t => macc t (upd s0 1 1) MSkip))).
  exists (CStep 1 range02 (CSeq (CProto MSkip) (CProto wr_next)) (CSeq (CProto rd_tid) (CProto MSkip))), f,
    (mkacc (tid_x 0) 0 [1] Wr), (mkacc (tid_x 1) 0 [1] Rd).
  repeat split.
  - rewrite xloop_split; simpl; auto.
  - apply JPStep with 0 1.
    + intros t _; exists [], []; reflexivity.
    + constructor; constructor; intros; exact I.
    + constructor; constructor; intros; exact I.
  - simpl; auto.
  - simpl; auto.
  - unfold tid_x; simpl; intros E; inversion E.
  - left; reflexivity.
Qed.

(** Hence the MAP's phases, as [Sync.v] defines them, are not all DRF. *)
Example xloop_phases_racy : exists As, proto_phases T2 s0 xloop As /\ ~ Forall drf_accs As.
Proof.
  destruct xloop_run as [X J].
  exists (map (fun f => flat_map f T2) (seg_list X)); split.
  - apply jsegs_mrun_all; [discriminate | exact J].
  - intros F; rewrite Forall_map, Forall_forall in F.
    destruct xloop_step_race as (c & f & a & b & Ic & Jc & Ia & Ib & C).
    destruct (split_intervals xloop T2 s0 X ltac:(discriminate) xloop_aligned J) as [_ Cmp].
    exact (F f (Cmp c f Ic Jc) a b Ia Ib C).
Qed.

(** Its loop's range does not depend on the thread: the barriers are
    uniform, so [theorem1_split_uniform] applies to every execution. *)
Example xloop_uniform : uniform T2 xloop.
Proof. simpl; split; [intros; reflexivity | repeat split]. Qed.
