(** * The launch: a grid of blocks, shared memory per block, global memory
    per grid (spec, sections 5 and 6).

    Threads are identified by their block's index and their index in the
    block, three coordinates each ([thread], [Syntax.v]).  A launch is the
    list of its blocks, each the list of its threads.  Each block runs on its
    own, phase by phase ([krun_all]): its barriers order its threads only,
    and it sees its own writes and the initial contents, never another
    block's (as the TypeScript interpreter: no theorem depends on the values
    read).  A shared array is one copy per block, a global array one memory
    for the grid.  A race is between two distinct threads of one block in one
    phase (any array: a block's threads share its copy of a shared array),
    or between two threads of different blocks on a global array, whatever
    their phases. *)

From Coq Require Import List Arith Bool.
Import ListNotations.
From BabyCUDA Require Import Syntax Semantics Map Typing Sync SyncTheorem Infer.

Inductive scope := Shared | Global.

(** The blocks of a launch, each the list of its threads. *)
Definition grid := list (list thread).

(** A run of the launch from the initial contents [mem]: each block's phases. *)
Definition grid_run (B : grid) (s : env) (p : prog) (mem : list event) (Pss : list (list phase)) : Prop :=
  Forall2 (fun T Ps => krun_all mem (start T s p) Ps) B Pss.

(** The MAP's phases, block by block. *)
Definition grid_phases (B : grid) (s : env) (u : proto) (Ass : list (list (list access))) : Prop :=
  Forall2 (fun T As => proto_phases T s u As) B Ass.

(** Two threads of different blocks, on one element of a global array, one writing (not two atomics). *)
Definition cross_conflict (sc : arr -> scope) (a b : access) : Prop :=
  t_block (a_tid a) <> t_block (a_tid b) /\ sc (a_arr a) = Global /\
  a_arr a = a_arr b /\ a_idx a = a_idx b /\ racing_modes (a_mode a) (a_mode b).

(** A launch's accesses (block by block, phase by phase) are DRF: no two
    distinct threads of one phase of a block conflict, and no two threads of
    different blocks conflict on a global array. *)
Definition drf_launch (sc : arr -> scope) (Ass : list (list (list access))) : Prop :=
  Forall (Forall drf_accs) Ass /\
  forall a b, In a (concat (concat Ass)) -> In b (concat (concat Ass)) -> ~ cross_conflict sc a b.

(** ** Theorem 1 for the launch *)

(** A well-typed block's phases have exactly the MAP's accesses. *)
Lemma block_phases_accs : forall V T s p u mem Ps As,
  ty V p u -> krun_all mem (start T s p) Ps -> proto_phases T s u As -> map accs Ps = As.
Proof.
  intros V T s p u mem Ps As Ty R M.
  destruct (krun_all_sim _ _ _ R _ (start_rel V T s p u Ty)) as [As' [M' F]].
  rewrite (mrun_all_det _ _ M _ M') in *. clear -F.
  induction F as [| P A Ps As E F IH]; simpl; auto. unfold same_accs in E; rewrite E, IH; auto.
Qed.

Lemma grid_accs : forall V B s p u mem Pss Ass,
  ty V p u -> grid_run B s p mem Pss -> grid_phases B s u Ass -> map (map accs) Pss = Ass.
Proof.
  intros V B s p u mem Pss Ass Ty R. revert Ass.
  induction R as [| T Ps B' Pss' Hr R' IH]; intros Ass M; inversion M as [| T' As B'' Ass' Hm M']; subst; simpl; auto.
  f_equal; eauto using block_phases_accs.
Qed.

(** Theorem 1, the launch: let [p] be well-typed with MAP [u]; whenever its
    blocks run, the launch's accesses are DRF iff the MAP's are (block by
    block, phase by phase, and across blocks on global arrays).  In
    particular every race of the MAP, of two threads of a block or of two
    blocks, is a race of every run. *)
Theorem theorem1_grid : forall V sc B s p u mem Pss Ass,
  ty V p u -> grid_run B s p mem Pss -> grid_phases B s u Ass ->
  (drf_launch sc (map (map accs) Pss) <-> drf_launch sc Ass).
Proof.
  intros V sc B s p u mem Pss Ass Ty R M. rewrite (grid_accs V B s p u mem Pss Ass Ty R M). tauto.
Qed.

(** The MAP's phases exist whenever the launch runs: the theorem is never vacuous. *)
Lemma grid_phases_exist : forall V B s p u mem Pss,
  ty V p u -> grid_run B s p mem Pss -> exists Ass, grid_phases B s u Ass.
Proof.
  intros V B s p u mem Pss Ty R.
  induction R as [| T Ps B' Pss' Hr R' IH]; [exists []; constructor|].
  destruct IH as [Ass M].
  destruct (krun_all_sim _ _ _ Hr _ (start_rel V T s p u Ty)) as [As [MA _]].
  exists (As :: Ass); constructor; auto.
Qed.

(** For the MAP that inference computes (the statement the tool relies on). *)
Corollary theorem1_grid_infer : forall V sc B s p u mem Pss Ass,
  infer V p = Some u -> grid_run B s p mem Pss -> grid_phases B s u Ass ->
  (drf_launch sc (map (map accs) Pss) <-> drf_launch sc Ass).
Proof. intros. eapply theorem1_grid; eauto. apply infer_sound; eauto. Qed.

(** A race of the MAP's launch is a race of the program's. *)
Corollary grid_map_race_is_real : forall V sc B s p u mem Pss Ass,
  ty V p u -> grid_run B s p mem Pss -> grid_phases B s u Ass ->
  ~ drf_launch sc Ass -> ~ drf_launch sc (map (map accs) Pss).
Proof. intros V sc B s p u mem Pss Ass Ty R M N D; apply N; apply (theorem1_grid V sc B s p u mem Pss Ass Ty R M); auto. Qed.
