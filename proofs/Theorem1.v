(** * Theorem 1 of the paper for the unsynchronised fragment. *)

From Coq Require Import List Arith Bool.
Import ListNotations.
From BabyCUDA Require Import Syntax Semantics Map Typing.

(** ** The general lemma of the proof sketch, in its strongest form: a
    well-typed thread performs exactly the accesses of its MAP, in the same
    order, whatever values its reads return.  The MAP is evaluated in any
    environment [s'] that agrees with the thread's on [V]. *)
Lemma exec_macc : forall t mem s p evs, exec t mem s p evs ->
  forall V u s', ty V p u -> agree V s s' -> accs evs = macc t s' u.
Proof.
  unfold accs.
  induction 1; intros V u s' Ty Ag; inversion Ty; subst; simpl.
  - auto.
  - rewrite (evals_wt V t s s' ix); auto.
  - rewrite (evals_wt V t s s' ix); auto. f_equal.
    eapply IHexec; eauto. apply agree_vdel; auto.
  - rewrite (evals_wt V t s s' ix); auto. f_equal.
    eapply IHexec; eauto. apply agree_vdel; auto.
  - eapply IHexec; eauto. rewrite <- (eval_wt V t s s' e); auto. apply agree_vadd; auto.
  - eapply IHexec; eauto. apply agree_vdel; auto.
  - rewrite map_app; f_equal; eauto.
  - rewrite <- (beval_wt V t s s' c), H; eauto.
  - rewrite <- (beval_wt V t s s' c), H; eauto.
  - rewrite <- (iters_wt V t s s' lo hi st); auto.
    specialize (IHexec V (MLoopVals x (iters t s lo hi st) u0) s').
    simpl in IHexec; apply IHexec; auto; constructor; auto.
  - auto.
  - simpl; rewrite map_app; f_equal.
    + eapply IHexec1; eauto. apply agree_vadd; auto.
    + specialize (IHexec2 V (MLoopVals x vs u0) s'); simpl in IHexec2; apply IHexec2; auto.
      constructor; auto.
  - auto.
Qed.

(** The lemma as stated in the paper's proof sketch: for a well-typed
    program, an access value is in the program's phase if and only if it
    is in the MAP's phase (here for one thread). *)
Lemma thread_phase_iff : forall V t mem s p u evs a,
  ty V p u -> exec t mem s p evs ->
  (In a (accs evs) <-> MIn t s u a).
Proof.
  intros V t mem s p u evs a Ty E. rewrite MIn_macc.
  rewrite (exec_macc t mem s p evs E V u s Ty (agree_refl V s)); tauto.
Qed.

(** Lifted to all threads: the phase produced by the parallel semantics and
    the MAP's phase contain the same access values. *)
Lemma par_threads_phase_iff : forall V mem s p u T P,
  ty V p u -> par_threads mem s p T P ->
  forall a, In a (accs P) <-> proto_phase T s u a.
Proof.
  intros V mem s p u T P Ty PT; induction PT; intros a; unfold proto_phase in *.
  - simpl; tauto.
  - unfold accs in *; rewrite map_app, in_app_iff, (IHPT Ty); simpl; split.
    + intros [Ha | [HT Hm]]; [|split; auto].
      assert (In a (accs e1)) as Ha' by exact Ha.
      rewrite (thread_phase_iff V t mem s p u e1 a Ty H) in Ha'.
      pose proof Ha' as Hm'; rewrite MIn_macc in Hm'; apply macc_tid in Hm'; subst; auto.
    + intros [[Ht | HT] Hm].
      * subst; left; apply (thread_phase_iff V (a_tid a) mem s p u e1 a Ty H); auto.
      * right; auto.
Qed.

Lemma par_phase_iff : forall V T s p u H H',
  ty V p u -> par T s p H H' ->
  exists P, H' = H ++ [P] /\ forall a, In a (accs P) <-> proto_phase T s u a.
Proof.
  intros V T s p u H H' Ty [P [PT ->]]; exists P; split; auto.
  eapply par_threads_phase_iff; eauto.
Qed.

(** ** Theorem 1 (paper): let [p] be well-typed with MAP [u] (V ⊢ p ▶ u),
    and let the threads [T] run [p] from the DRF history [H], producing
    [H'].  Then [H'] is DRF if and only if the MAP's phase is DRF.  In
    particular, every data race that the MAP exhibits is a real data race
    of every execution of the program. *)
Theorem theorem1 : forall V T s p u H H',
  ty V p u -> drf_hist H -> par T s p H H' ->
  (drf_hist H' <-> drf_set (proto_phase T s u)).
Proof.
  intros V T s p u H H' Ty D R.
  destruct (par_phase_iff V T s p u H H' Ty R) as [P [-> Iff]].
  rewrite drf_hist_snoc; auto.
  unfold drf_phase; apply drf_set_ext; auto.
Qed.

(** The direction used by faial-ts to label an alarm "confirmed": a race
    in the MAP's phase is a race in the output history. *)
Corollary map_race_is_real : forall V T s p u H H',
  ty V p u -> drf_hist H -> par T s p H H' ->
  ~ drf_set (proto_phase T s u) -> ~ drf_hist H'.
Proof. intros V T s p u H H' Ty D R N Hd; apply N; apply (theorem1 V T s p u H H' Ty D R); auto. Qed.
