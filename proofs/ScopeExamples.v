(** * Examples of machine integers and scope (docs/machine-integers.md):
    what the model says about wrap-around, overflow and division by zero. *)

From Coq Require Import ZArith List Lia.
Import ListNotations.
From BabyCUDA Require Import Syntax Semantics Map Typing Theorem1 Infer MachineInt Scope.
Open Scope Z_scope.

(** Subtraction below 0: an [i32] gives -1, a [u32] wraps around to
    4294967295 (defined in C, in scope), and so does a [u32] product:
    65536 * 65537 = 2^32 + 65536 is 65536 (in scope); [INT_MIN - 1] and an
    [i32] product that leaves the type are signed overflow, out of scope. *)
Example i32_sub_in_scope : teval (tid_x 0) (fun _ => 0%nat) (TBin I32 MSub (TNum I32 0) (TNum I32 1)) = Some (-1).
Proof. reflexivity. Qed.
Example u32_sub_wraps : teval (tid_x 0) (fun _ => 0%nat) (TBin U32 MSub (TNum U32 0) (TNum U32 1)) = Some 4294967295.
Proof. reflexivity. Qed.
Example i32_overflow_out : teval (tid_x 0) (fun _ => 0%nat) (TBin I32 MSub (TNum I32 (-2147483648)) (TNum I32 1)) = None.
Proof. reflexivity. Qed.
Example u32_product_wraps : teval (tid_x 0) (fun _ => 0%nat) (TBin U32 MMul (TNum U32 65536) (TNum U32 65537)) = Some 65536.
Proof. reflexivity. Qed.
Example i32_product_overflow_out : teval (tid_x 0) (fun _ => 0%nat) (TBin I32 MMul (TNum I32 65536) (TNum I32 65536)) = None.
Proof. reflexivity. Qed.

(** A wrap that stays in scope and races: [A[threadIdx.x << 31] := 1] with
    threads 0 and 2, whose indices both wrap to 0 in [u32]. *)
Definition e_wrap : texp := TBin U32 MShl (TId IThread AX) (TNum U32 31).
Definition T02 : list thread := [tid_x 0; tid_x 2].

Lemma wrap_launch_in_scope : forall s, in_scope T02 s [e_wrap].
Proof.
  intros s th e Ht He; destruct He as [<-|[]];
    destruct Ht as [<-|[<-|[]]]; vm_compute; discriminate.
Qed.

(** Both threads' index is 0: the BabyCUDA program writing [A[0]] has, at
    every thread of the launch, the index the typed expression computes. *)
Lemma wrap_index_zero : forall s th, In th T02 -> teval th s e_wrap = Some 0.
Proof. intros s th Ht; destruct Ht as [<-|[<-|[]]]; vm_compute; reflexivity. Qed.

Definition wrap_prog : prog := PWrite 0%nat [NNum 0%nat] (NNum 1%nat).

(** Every run of the launch (in scope) races, by [map_race_is_real_scope]. *)
Example wrap_every_run_racy : forall s H',
  par T02 s wrap_prog [] H' -> ~ drf_hist H'.
Proof.
  intros s H' R.
  apply (map_race_is_real_scope (fun _ => False) T02 s wrap_prog (MWr 0%nat [NNum 0%nat] (Some (NNum 1%nat))) [e_wrap] [] H').
  - constructor.
    + repeat constructor; intros x Hx; simpl in Hx; contradiction.
    + intros e' Hs; inversion Hs; subst; split; auto; intros x Hx; simpl in Hx; contradiction.
  - apply wrap_launch_in_scope.
  - constructor.
  - exact R.
  - intros D. apply (D (mkacc (tid_x 0) 0%nat [0%nat] Wr) (mkacc (tid_x 2) 0%nat [0%nat] Wr)).
    + split; [simpl; auto|]. apply MIn_macc; simpl; auto.
    + split; [simpl; auto|]. apply MIn_macc; simpl; auto.
    + unfold conflict, racing_modes; simpl; repeat split; auto. discriminate.
Qed.

(** ... and such a run exists. *)
Example wrap_run_exists : exists H', par T02 (fun _ => 0%nat) wrap_prog [] H'.
Proof.
  eexists; exists ([mkev (mkacc (tid_x 0) 0%nat [0%nat] Wr) 1%nat] ++ [mkev (mkacc (tid_x 2) 0%nat [0%nat] Wr) 1%nat] ++ []).
  split; [|reflexivity].
  repeat constructor.
Qed.

(** A division by zero in every thread, [100 / (threadIdx.x - threadIdx.x)],
    makes every launch out of scope: the kernel is vacuous. *)
Definition e_div : texp :=
  TBin U32 MDiv (TNum U32 100) (TBin U32 MSub (TId IThread AX) (TId IThread AX)).

Lemma e_div_undefined : forall th s, teval th s e_div = None.
Proof.
  intros th s; unfold e_div; simpl teval.
  destruct (fit U32 (id_val th IThread AX)) as [x|]; [|reflexivity].
  simpl mapply. rewrite Z.sub_diag. reflexivity.
Qed.

Example div_zero_vacuous : forall req, vacuous req [e_div].
Proof. intros req; apply (undefined_everywhere_vacuous req [e_div] e_div); simpl; auto; apply e_div_undefined. Qed.

(** [INT_MIN % -1] is outside the scope, as [INT_MIN / -1] is. *)
Example i32_rem_overflow_out : teval (tid_x 0) (fun _ => 0%nat) (TBin I32 MMod (TNum I32 (-2147483648)) (TNum I32 (-1))) = None.
Proof. reflexivity. Qed.
