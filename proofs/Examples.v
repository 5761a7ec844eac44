(** * Sanity checks on the paper's examples (Figures 3 and 4): the
    definitions are not vacuous.  Names: [M] = 0, [x] = 1, [y] = 2;
    array [A] = 0. *)

From Coq Require Import List Arith Bool.
Import ListNotations.
From BabyCUDA Require Import Syntax Semantics Map Typing Theorem1 Infer.

(** Figure 3: [for x in 0..M { let y = A[x] in A[x] := y + 1 }] (racy). *)
Definition fig3 : prog :=
  PFor 1 (NNum 0) (NVar 0) (StepAdd (NNum 1))
       (PRead 2 0 [NVar 1] (PWrite 0 [NVar 1] (NBin OAdd (NVar 2) (NNum 1)))).

Definition fig3_map : proto :=
  MFor 1 (NNum 0) (NVar 0) (StepAdd (NNum 1)) (MSeq (MRd 0 [NVar 1]) (MWr 0 [NVar 1] None)).

Example fig3_infer : infer [0] fig3 = Some fig3_map.
Proof. reflexivity. Qed.

(** With [M = 1] and two threads, the MAP's phase has a race... *)
Definition s1 : env := fun _ => 1.

Example fig3_map_racy : ~ drf_set (proto_phase [tid_x 0; tid_x 1] s1 fig3_map).
Proof.
  intros D.
  apply (D (mkacc (tid_x 0) 0 [0] Wr) (mkacc (tid_x 1) 0 [0] Wr)).
  - split; [simpl; auto|]. apply MIn_macc; simpl; auto.
  - split; [simpl; auto|]. apply MIn_macc; simpl; auto.
  - unfold conflict, racing_modes; simpl; repeat split; auto. discriminate.
Qed.

(** ... so, by Theorem 1, every execution of Figure 3 from a DRF history is
    racy; and such an execution exists. *)
Example fig3_every_run_racy : forall H', par [tid_x 0; tid_x 1] s1 fig3 [] H' -> ~ drf_hist H'.
Proof.
  intros H' R. eapply map_race_is_real; eauto.
  - apply infer_sound with (V := [0]); reflexivity.
  - constructor.
  - apply fig3_map_racy.
Qed.

Example fig3_runs : exists H', par [tid_x 0; tid_x 1] s1 fig3 [] H'.
Proof.
  eexists; eexists; split; [| reflexivity].
  unfold fig3.
  repeat (econstructor; simpl).
Qed.

(** Figure 4: [if (tid = 0) { A[0] := tid } else { skip }] (DRF in one block along x:
    threads that differ in y or in their block all have [tid = 0]). *)
Definition fig4 : prog := PIf (BCmp CEq NTid (NNum 0)) (PWrite 0 [NNum 0] NTid) PSkip.
Definition fig4_map : proto := MIf (BCmp CEq NTid (NNum 0)) (MWr 0 [NNum 0] (Some NTid)) MSkip.

Example fig4_infer : infer [] fig4 = Some fig4_map.
Proof. reflexivity. Qed.

(** For every launch of one block along x (the paper's threads). *)
Definition one_block_x (T : list thread) : Prop := forall t, In t T -> exists n, t = tid_x n.

Example fig4_map_drf : forall T s, one_block_x T -> drf_set (proto_phase T s fig4_map).
Proof.
  intros T s OB a b [Ta Ha] [Tb Hb] C.
  destruct (OB _ Ta) as [n En], (OB _ Tb) as [m Em].
  rewrite MIn_macc, En in Ha; rewrite MIn_macc, Em in Hb; simpl in Ha, Hb.
  destruct (Nat.eqb_spec n 0); simpl in Ha; [|contradiction].
  destruct (Nat.eqb_spec m 0); simpl in Hb; [|contradiction].
  destruct C as [N _]; subst; congruence.
Qed.

Example fig4_every_run_drf : forall T s H', one_block_x T -> par T s fig4 [] H' -> drf_hist H'.
Proof.
  intros T s H' OB R.
  apply (theorem1 (vset_of []) T s fig4 fig4_map [] H'); auto.
  - apply infer_sound; reflexivity.
  - constructor.
  - apply fig4_map_drf; auto.
Qed.
