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
  MFor 1 (NNum 0) (NVar 0) (StepAdd (NNum 1)) (MSeq (MRd 0 [NVar 1]) (MWr 0 [NVar 1])).

Example fig3_infer : infer [0] fig3 = Some fig3_map.
Proof. reflexivity. Qed.

(** With [M = 1] and two threads, the MAP's phase has a race... *)
Definition s1 : env := fun _ => 1.

Example fig3_map_racy : ~ drf_set (proto_phase [0; 1] s1 fig3_map).
Proof.
  intros D.
  apply (D (mkacc 0 0 [0] Wr) (mkacc 1 0 [0] Wr)).
  - split; [simpl; auto|]. apply MIn_macc; simpl; auto.
  - split; [simpl; auto|]. apply MIn_macc; simpl; auto.
  - unfold conflict; simpl; repeat split; auto.
Qed.

(** ... so, by Theorem 1, every execution of Figure 3 from a DRF history is
    racy; and such an execution exists. *)
Example fig3_every_run_racy : forall H', par [0; 1] s1 fig3 [] H' -> ~ drf_hist H'.
Proof.
  intros H' R. eapply map_race_is_real; eauto.
  - apply infer_sound with (V := [0]); reflexivity.
  - constructor.
  - apply fig3_map_racy.
Qed.

Example fig3_runs : exists H', par [0; 1] s1 fig3 [] H'.
Proof.
  eexists; eexists; split; [| reflexivity].
  unfold fig3.
  repeat (econstructor; simpl).
Qed.

(** Figure 4: [if (tid = 0) { A[0] := tid } else { skip }] (DRF). *)
Definition fig4 : prog := PIf (BCmp CEq NTid (NNum 0)) (PWrite 0 [NNum 0] NTid) PSkip.
Definition fig4_map : proto := MIf (BCmp CEq NTid (NNum 0)) (MWr 0 [NNum 0]) MSkip.

Example fig4_infer : infer [] fig4 = Some fig4_map.
Proof. reflexivity. Qed.

Example fig4_map_drf : forall T s, drf_set (proto_phase T s fig4_map).
Proof.
  intros T s a b [_ Ha] [_ Hb] C.
  rewrite MIn_macc in Ha, Hb; simpl in Ha, Hb.
  destruct (Nat.eqb_spec (a_tid a) 0) as [Ea|Ea]; simpl in Ha; [|contradiction].
  destruct (Nat.eqb_spec (a_tid b) 0) as [Eb|Eb]; simpl in Hb; [|contradiction].
  destruct C as [N _]; congruence.
Qed.

Example fig4_every_run_drf : forall T s H', par T s fig4 [] H' -> drf_hist H'.
Proof.
  intros T s H' R.
  apply (theorem1 (vset_of []) T s fig4 fig4_map [] H'); auto.
  - apply infer_sound; reflexivity.
  - constructor.
  - apply fig4_map_drf.
Qed.
