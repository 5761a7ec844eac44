(** * "Benign" is sound across barriers.  [Benign.v] proves it for one
    phase of the unsynchronised fragment; here the MAP is run phase by phase
    with the written values it knows ([vmrun], [mrun] with values), a
    well-typed program's run is simulated by it phase by phase, values
    included ([vkrun_sim]), and so, if every conflicting pair of every valued
    phase of the MAP is two writes of one known value, every conflicting
    pair of events of every phase of the run is two writes of one value
    ([benign_sync_sound]). *)

From Coq Require Import List Arith Bool.
Import ListNotations.
From BabyCUDA Require Import Syntax Semantics Map Typing Sync SyncTheorem Benign.

(** The MAP's run to the next barrier, each access with its known value. *)
Inductive vmrun (t : thread) : mkont -> list (access * option nat) -> option mkont -> Prop :=
| VMDone : vmrun t [] [] None
| VMSkip s k a r : vmrun t k a r -> vmrun t (MFProg s MSkip :: k) a r
| VMRd s A ix k a r :
    vmrun t k a r -> vmrun t (MFProg s (MRd A ix) :: k) ((mkacc t A (evals t s ix) Rd, None) :: a) r
| VMWr s A ix ov k a r :
    vmrun t k a r ->
    vmrun t (MFProg s (MWr A ix ov) :: k) ((mkacc t A (evals t s ix) Wr, option_map (eval t s) ov) :: a) r
| VMAt s A ix k a r :
    vmrun t k a r -> vmrun t (MFProg s (MAt A ix) :: k) ((mkacc t A (evals t s ix) At, None) :: a) r
| VMSeq s u v k a r :
    vmrun t (MFProg s u :: MFProg s v :: k) a r -> vmrun t (MFProg s (MSeq u v) :: k) a r
| VMIfT s c u v k a r :
    beval t s c = true -> vmrun t (MFProg s u :: k) a r -> vmrun t (MFProg s (MIf c u v) :: k) a r
| VMIfF s c u v k a r :
    beval t s c = false -> vmrun t (MFProg s v :: k) a r -> vmrun t (MFProg s (MIf c u v) :: k) a r
| VMFor s x lo hi st u k a r :
    vmrun t (MFLoop s x (iters t s lo hi st) u :: k) a r ->
    vmrun t (MFProg s (MFor x lo hi st u) :: k) a r
| VMLoopVals s x vs u k a r :
    vmrun t (MFLoop s x vs u :: k) a r -> vmrun t (MFProg s (MLoopVals x vs u) :: k) a r
| VMLoopNil s x u k a r : vmrun t k a r -> vmrun t (MFLoop s x [] u :: k) a r
| VMLoopCons s x v vs u k a r :
    vmrun t (MFProg (upd s x v) u :: MFLoop s x vs u :: k) a r ->
    vmrun t (MFLoop s x (v :: vs) u :: k) a r
| VMLet s x e u k a r :
    vmrun t (MFProg (upd s x (eval t s e)) u :: k) a r -> vmrun t (MFProg s (MLet x e u) :: k) a r
| VMSync s k : vmrun t (MFProg s MSync :: k) [] (Some k)
| VMAssume s c k a r :
    beval t s c = true -> vmrun t k a r -> vmrun t (MFProg s (MAssume c) :: k) a r.

Inductive vmstep : list (thread * mkont) -> list (access * option nat) -> list (thread * option mkont) -> Prop :=
| VMSNil : vmstep [] [] []
| VMSCons t k ths a1 r A rs :
    vmrun t k a1 r -> vmstep ths A rs -> vmstep ((t, k) :: ths) (a1 ++ A) ((t, r) :: rs).

Inductive vmrun_all : list (thread * mkont) -> list (list (access * option nat)) -> Prop :=
| VMAEnd ths A rs : vmstep ths A rs -> all_done rs -> vmrun_all ths [A]
| VMABarrier ths A ths' As :
    ths <> [] -> vmstep ths A (resume ths') -> vmrun_all ths' As -> vmrun_all ths (A :: As).

(** The MAP's valued phases for the threads [T]. *)
Definition vproto_phases (T : list thread) (s : env) (u : proto) (Ls : list (list (access * option nat))) : Prop :=
  vmrun_all (mstart T s u) Ls.

(** A well-typed thread's run to its next barrier is its MAP's valued run,
    event by event, each known value the value written. *)
Lemma vkrun_sim : forall t mem k evs r, krun t mem k evs r ->
  forall m, krel k m -> exists r' L, vmrun t m L r' /\ Forall2 val_ok evs L /\ orel r r'.
Proof.
  unfold krel; induction 1; intros m Km; repeat invrel; simpl.
  - exists None, []; repeat constructor.
  - edestruct IHkrun as [r' [L [M [F O]]]]; [eauto|]. exists r', L; repeat split; auto; constructor; auto.
  - (* write *)
    edestruct IHkrun as [r' [L [M [F O]]]]; [eauto|].
    match goal with W : wt_ix ?V ix, Ag : agree ?V s ?s' |- _ =>
      exists r', ((mkacc t A (evals t s' ix) Wr, option_map (eval t s') ov) :: L);
      repeat split; auto; [constructor; auto | constructor; auto; split; simpl];
      [rewrite (evals_wt V t s s' ix W Ag); auto |]
    end.
    intros v Hv. destruct ov as [e'|]; simpl in Hv; inversion Hv; subst.
    match goal with H : forall e'', Some e' = Some e'' -> _ |- _ => destruct (H e' eq_refl) as [-> Wn] end.
    eapply eval_wt; eauto.
  - (* read *)
    edestruct IHkrun as [r' [L [M [F O]]]].
    { constructor; [econstructor; [eauto | apply agree_vdel; eauto] | eauto]. }
    match goal with W : wt_ix ?V ix, Ag : agree ?V s ?s' |- _ =>
      exists r', ((mkacc t A (evals t s' ix) Rd, None) :: L);
      repeat split; auto; [constructor; constructor; auto | constructor; auto; split; simpl; [|intros ? Hn; discriminate]];
      rewrite (evals_wt V t s s' ix W Ag); auto
    end.
  - (* atomic *)
    edestruct IHkrun as [r' [L [M [F O]]]].
    { constructor; [econstructor; [eauto | apply agree_vdel; eauto] | eauto]. }
    match goal with W : wt_ix ?V ix, Ag : agree ?V s ?s' |- _ =>
      exists r', ((mkacc t A (evals t s' ix) At, None) :: L);
      repeat split; auto; [constructor; constructor; auto | constructor; auto; split; simpl; [|intros ? Hn; discriminate]];
      rewrite (evals_wt V t s s' ix W Ag); auto
    end.
  - edestruct IHkrun as [r' [L [M [F O]]]].
    { constructor; [econstructor; [eauto | apply agree_vadd_eval; eauto] | eauto]. }
    exists r', L; repeat split; auto. constructor; auto.
  - edestruct IHkrun as [r' [L [M [F O]]]].
    { constructor; [econstructor; [eauto | apply agree_vdel; eauto] | eauto]. }
    exists r', L; repeat split; auto.
  - edestruct IHkrun as [r' [L [M [F O]]]].
    { constructor; [econstructor; eauto | constructor; [econstructor; eauto | eauto]]. }
    exists r', L; repeat split; auto. constructor; auto.
  - edestruct IHkrun as [r' [L [M [F O]]]].
    { constructor; [econstructor; eauto | eauto]. }
    exists r', L; repeat split; auto. apply VMIfT; auto.
    match goal with W : wt_b ?V c, A : agree ?V s ?s' |- _ =>
      rewrite <- (beval_wt V t s s' c W A) end; auto.
  - edestruct IHkrun as [r' [L [M [F O]]]].
    { constructor; [econstructor; eauto | eauto]. }
    exists r', L; repeat split; auto. apply VMIfF; auto.
    match goal with W : wt_b ?V c, A : agree ?V s ?s' |- _ =>
      rewrite <- (beval_wt V t s s' c W A) end; auto.
  - edestruct IHkrun as [r' [L [M [F O]]]].
    { constructor; [eapply FRLoop; eauto | eauto]. }
    exists r', L; repeat split; auto. constructor.
    match goal with A : agree ?V s ?s', W1 : wt_n ?V lo, W2 : wt_n ?V hi, W3 : wt_step ?V st |- _ =>
      rewrite <- (iters_wt V t s s' lo hi st W1 W2 W3 A) end; auto.
  - edestruct IHkrun as [r' [L [M [F O]]]].
    { constructor; [eapply FRLoop; eauto | eauto]. }
    exists r', L; repeat split; auto. constructor; auto.
  - edestruct IHkrun as [r' [L [M [F O]]]]; [eauto|].
    exists r', L; repeat split; auto. constructor; auto.
  - edestruct IHkrun as [r' [L [M [F O]]]].
    { constructor; [econstructor; [eauto | apply agree_vadd; eauto] |].
      constructor; [eapply FRLoop; eauto | eauto]. }
    exists r', L; repeat split; auto. constructor; auto.
  - eexists; exists []; repeat split; constructor; eauto.
  - edestruct IHkrun as [r' [L [M [F O]]]]; [eauto|].
    exists r', L; repeat split; auto. constructor; auto.
    match goal with W : wt_b ?V c, A : agree ?V s ?s' |- _ =>
      rewrite <- (beval_wt V t s s' c W A) end; auto.
Qed.

(** Lifted to all threads and all phases. *)
Lemma vkstep_sim : forall mem ths P rs, kstep mem ths P rs ->
  forall mths, Forall2 trel ths mths ->
  exists rs' L, vmstep mths L rs' /\ Forall2 val_ok P L /\ Forall2 torel rs rs'.
Proof.
  induction 1; intros mths R; inversion R as [| tk tm ths0 mths0 Htk Hths]; subst.
  - exists [], []; repeat constructor.
  - destruct tm as [t' m]; destruct Htk as [Ht Hk]; simpl in *; subst.
    destruct (vkrun_sim _ _ _ _ _ H m Hk) as [r' [L1 [M [F O]]]].
    destruct (IHkstep mths0 Hths) as [rs' [L2 [M' [F' O']]]].
    exists ((t', r') :: rs'), (L1 ++ L2); repeat split.
    + constructor; auto.
    + apply Forall2_app; auto.
    + constructor; auto; split; auto.
Qed.

Lemma vkrun_all_sim : forall mem ths Ps, krun_all mem ths Ps ->
  forall mths, Forall2 trel ths mths ->
  exists Ls, vmrun_all mths Ls /\ Forall2 (Forall2 val_ok) Ps Ls.
Proof.
  induction 1 as [mem ths P rs Hs Hd | mem ths P ths' Ps Hne Hs Hr IH]; intros mths R.
  - destruct (vkstep_sim _ _ _ _ Hs _ R) as [rs' [L [M [F O]]]].
    exists [L]; split.
    + econstructor; eauto. eapply torel_done; eauto.
    + constructor; auto.
  - destruct (vkstep_sim _ _ _ _ Hs _ R) as [rs' [L [M [F O]]]].
    destruct (torel_resume _ _ O) as [mths' [-> R']].
    destruct (IH _ R') as [Ls [MA F']].
    exists (L :: Ls); split.
    + econstructor; eauto. intro E; subst; inversion R; subst; congruence.
    + constructor; auto.
Qed.

(** Only writes have known values. *)
Definition known_writes (L : list (access * option nat)) : Prop :=
  forall av v, In av L -> snd av = Some v -> a_mode (fst av) = Wr.

Lemma vmrun_known : forall t m L r, vmrun t m L r -> known_writes L.
Proof.
  unfold known_writes; induction 1; simpl; intros av w Hin Hv; try contradiction; eauto;
    destruct Hin as [<-|Hin]; simpl in *; eauto; discriminate.
Qed.

Lemma vmstep_known : forall ths L rs, vmstep ths L rs -> known_writes L.
Proof.
  unfold known_writes; induction 1; simpl; intros av w Hin Hv; [contradiction|].
  apply in_app_or in Hin; destruct Hin; eauto. eapply vmrun_known; eauto.
Qed.

Lemma vmrun_all_known : forall ths Ls, vmrun_all ths Ls -> Forall known_writes Ls.
Proof.
  induction 1; constructor; auto; eapply vmstep_known; eauto.
Qed.

(** A phase whose races are two writes of one value. *)
Definition benign_phase (P : phase) : Prop :=
  forall e1 e2, In e1 P -> In e2 P -> conflict (ev_acc e1) (ev_acc e2) ->
  a_mode (ev_acc e1) = Wr /\ a_mode (ev_acc e2) = Wr /\ ev_val e1 = ev_val e2.

Lemma benign_phase_of : forall P L,
  Forall2 val_ok P L -> benign_map L -> known_writes L -> benign_phase P.
Proof.
  intros P L F B K e1 e2 H1 H2 C.
  destruct (Forall2_in_l _ _ _ _ F H1) as [x [Hx [A1 V1]]].
  destruct (Forall2_in_l _ _ _ _ F H2) as [y [Hy [A2 V2]]].
  rewrite A1, A2 in C. destruct (B x y Hx Hy C) as [v [Ex Ey]].
  rewrite (V1 v Ex), (V2 v Ey), A1, A2. repeat split; eauto.
Qed.

(** ** "Benign" is sound across barriers: for a well-typed program, if
    every conflicting pair of every valued phase of its MAP is two writes of
    one known value, every conflicting pair of events of every phase of
    every run (from any history) is two writes of one value. *)
Theorem benign_sync_sound : forall V T s p u mem Ps,
  ty V p u -> krun_all mem (start T s p) Ps ->
  (forall Ls, vproto_phases T s u Ls -> Forall benign_map Ls) ->
  Forall benign_phase Ps.
Proof.
  intros V T s p u mem Ps Ty R B.
  destruct (vkrun_all_sim _ _ _ R _ (start_rel V T s p u Ty)) as [Ls [MA F]].
  pose proof (B Ls MA) as BL. pose proof (vmrun_all_known _ _ MA) as K.
  clear R B MA. induction F; constructor; inversion BL; inversion K; subst; auto.
  eapply benign_phase_of; eauto.
Qed.

(** The same for a kernel launch: the phases appended to the history. *)
Corollary benign_sync_sound_run : forall V T s p u H H',
  ty V p u -> kernel_run T s p H H' ->
  (forall Ls, vproto_phases T s u Ls -> Forall benign_map Ls) ->
  exists Ps, H' = H ++ Ps /\ Forall benign_phase Ps.
Proof.
  intros V T s p u H H' Ty [Ps [R ->]] B. exists Ps; split; auto.
  eapply benign_sync_sound; eauto.
Qed.
