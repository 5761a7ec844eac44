(** * Sanity check for the synchronised fragment: a barrier inside a loop. *)

From Coq Require Import List Arith Bool.
Import ListNotations.
From BabyCUDA Require Import Syntax Semantics Map Typing Sync SyncTheorem Infer.

(** [for i in 0..1 { A[tid] := 1; sync }], [i] = 1, [A] = 0. *)
Definition loop_sync : prog :=
  PFor 1 (NNum 0) (NNum 1) (StepAdd (NNum 1)) (PSeq (PWrite 0 [NTid] (NNum 1)) PSync).
Definition loop_sync_map : proto :=
  MFor 1 (NNum 0) (NNum 1) (StepAdd (NNum 1)) (MSeq (MWr 0 [NTid] (Some (NNum 1))) MSync).

Example loop_sync_infer : infer [] loop_sync = Some loop_sync_map.
Proof. reflexivity. Qed.

Definition s0 : env := fun _ => 0.

Example loop_sync_phases :
  proto_phases [tid_x 0; tid_x 1] s0 loop_sync_map
    [[mkacc (tid_x 0) 0 [0] Wr; mkacc (tid_x 1) 0 [1] Wr]; []].
Proof.
  unfold proto_phases, mstart; simpl.
  set (K := [MFLoop s0 1 [] (MSeq (MWr 0 [NTid] (Some (NNum 1))) MSync)]).
  apply (MABarrier _ _ [(tid_x 0, K); (tid_x 1, K)]); [discriminate | |].
  - simpl. change [mkacc (tid_x 0) 0 [0] Wr; mkacc (tid_x 1) 0 [1] Wr] with ([mkacc (tid_x 0) 0 [0] Wr] ++ [mkacc (tid_x 1) 0 [1] Wr] ++ []).
    repeat econstructor.
  - apply (MAEnd _ _ [(tid_x 0, None); (tid_x 1, None)]); [| repeat constructor].
    change (@nil access) with (@nil access ++ @nil access ++ []).
    repeat econstructor.
Qed.

Example loop_sync_runs : exists H', kernel_run [tid_x 0; tid_x 1] s0 loop_sync [] H'.
Proof.
  eexists; exists [[mkev (mkacc (tid_x 0) 0 [0] Wr) 1; mkev (mkacc (tid_x 1) 0 [1] Wr) 1]; []]; split; [|reflexivity].
  unfold start; simpl.
  set (K := [FLoop s0 1 [] (PSeq (PWrite 0 [NTid] (NNum 1)) PSync)]).
  apply (KABarrier _ _ _ [(tid_x 0, K); (tid_x 1, K)]); [discriminate | |].
  - simpl. change [mkev (mkacc (tid_x 0) 0 [0] Wr) 1; mkev (mkacc (tid_x 1) 0 [1] Wr) 1]
      with ([mkev (mkacc (tid_x 0) 0 [0] Wr) 1] ++ [mkev (mkacc (tid_x 1) 0 [1] Wr) 1] ++ []).
    repeat econstructor.
  - apply (KAEnd _ _ _ [(tid_x 0, None); (tid_x 1, None)]); [| repeat constructor].
    change (@nil event) with (@nil event ++ @nil event ++ []).
    repeat econstructor.
Qed.

(** Its output history is DRF, by Theorem 1 for the synchronised fragment. *)
Example loop_sync_drf : forall H', kernel_run [tid_x 0; tid_x 1] s0 loop_sync [] H' -> drf_hist H'.
Proof.
  intros H' R.
  apply (theorem1_sync_infer [] [tid_x 0; tid_x 1] s0 loop_sync loop_sync_map [] H' _
           loop_sync_infer (Forall_nil _) R loop_sync_phases).
  repeat constructor; intros a b Ha Hb [N [_ [I _]]]; simpl in *;
    repeat (destruct Ha as [<-|Ha]); repeat (destruct Hb as [<-|Hb]); simpl in *; try tauto; try congruence.
Qed.
