(** * Axiom audit: each main theorem must print
    "Closed under the global context" (checked by check-no-admits.sh). *)
From BabyCUDA Require Import Theorem1.

Print Assumptions Theorem1.exec_macc.
Print Assumptions Theorem1.thread_phase_iff.
Print Assumptions Theorem1.theorem1.
Print Assumptions Theorem1.map_race_is_real.
From BabyCUDA Require Import SyncTheorem.
Print Assumptions SyncTheorem.krun_sim.
Print Assumptions SyncTheorem.sync_phases.
Print Assumptions SyncTheorem.sync_phase_iff.
Print Assumptions SyncTheorem.theorem1_sync.
Print Assumptions SyncTheorem.proto_phases_exist.
From BabyCUDA Require Import OverApprox.
Print Assumptions OverApprox.exec_approx.
Print Assumptions OverApprox.approx_drf_sound.
Print Assumptions OverApprox.approx_no_missed_race.
From BabyCUDA Require Import Infer.
Print Assumptions Infer.infer_sound.
Print Assumptions Infer.theorem1_infer.
Print Assumptions Infer.theorem1_sync_infer.
Print Assumptions OverApprox.approx_exact_typed.
From BabyCUDA Require Import OverApproxSync.
Print Assumptions OverApproxSync.krun_arun.
Print Assumptions OverApproxSync.approx_sync_drf_sound.
From BabyCUDA Require Import Examples SyncExamples.
Print Assumptions Examples.fig3_every_run_racy.
Print Assumptions Examples.fig4_every_run_drf.
Print Assumptions SyncExamples.loop_sync_drf.
From BabyCUDA Require Import Benign.
Print Assumptions Benign.exec_mvacc.
Print Assumptions Benign.benign_sound.
From BabyCUDA Require Import Grid.
Print Assumptions Grid.theorem1_grid.
Print Assumptions Grid.theorem1_grid_infer.
Print Assumptions Grid.grid_map_race_is_real.
Print Assumptions Grid.grid_phases_exist.
From BabyCUDA Require Import Run.
Print Assumptions Run.xrun_sound.
Print Assumptions Run.oracle_run_sound.
Print Assumptions Run.oracle_map_sound.
Print Assumptions Run.oracle_grid_sound.
Print Assumptions Run.oracle_grid_map_sound.
Print Assumptions Run.races_nil_iff.
Print Assumptions Run.launch_races_nil_iff.
Print Assumptions Run.iters_cap_sound.
From BabyCUDA Require Import MachineInt.
Print Assumptions MachineInt.wrap_range.
Print Assumptions MachineInt.wrap_id.
Print Assumptions MachineInt.mapply_range.
Print Assumptions MachineInt.dec_enc.
Print Assumptions MachineInt.wrap_dec_enc.
From BabyCUDA Require Import Scope ScopeExamples.
Print Assumptions Scope.mapply_guard.
Print Assumptions Scope.guard_infer.
Print Assumptions Scope.decode_bits.
Print Assumptions Scope.embed_teval.
Print Assumptions Scope.in_scope_embed.
Print Assumptions Scope.teval_range.
Print Assumptions Scope.in_scope_guards.
Print Assumptions Scope.theorem1_scope.
Print Assumptions Scope.map_race_is_real_scope.
Print Assumptions Scope.theorem1_sync_scope.
Print Assumptions Scope.theorem1_grid_scope.
Print Assumptions Scope.vacuous_no_scope_run.
Print Assumptions ScopeExamples.wrap_every_run_racy.
Print Assumptions ScopeExamples.wrap_run_exists.
Print Assumptions ScopeExamples.div_zero_vacuous.
From BabyCUDA Require Import BenignSync.
Print Assumptions BenignSync.vkrun_sim.
Print Assumptions BenignSync.vkrun_all_sim.
Print Assumptions BenignSync.benign_sync_sound.
Print Assumptions BenignSync.benign_sync_sound_run.
From BabyCUDA Require Import Split SplitTheorem.
Print Assumptions Split.split_msem.
Print Assumptions Split.split_intervals.
Print Assumptions SplitTheorem.jsegs_mseq.
Print Assumptions SplitTheorem.jsegs_mrun_all.
Print Assumptions SplitTheorem.theorem1_split.
Print Assumptions SplitTheorem.split_race_is_real.
From BabyCUDA Require Import SplitExamples.
Print Assumptions SplitExamples.xloop_run.
Print Assumptions SplitExamples.xloop_phases_racy.
From BabyCUDA Require Import SplitUniform.
Print Assumptions SplitUniform.mseq_tseg.
Print Assumptions SplitUniform.tseg_jsegs.
Print Assumptions SplitUniform.mrun_all_jsegs.
Print Assumptions SplitUniform.theorem1_split_uniform.
Print Assumptions SplitUniform.split_race_is_real_uniform.
Print Assumptions SplitExamples.xloop_uniform.
Print Assumptions SplitUniform.block_split_drf.
Print Assumptions SplitUniform.theorem1_grid_split.
From BabyCUDA Require Import SplitApprox.
Print Assumptions SplitApprox.split_cov.
Print Assumptions SplitApprox.split_cover.
Print Assumptions SplitApprox.theorem1_split_approx.
