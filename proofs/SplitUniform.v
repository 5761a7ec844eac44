(** * Uniform barriers: every run of the MAP's phase semantics is a
    lock-step run, so [theorem1_split] needs no run as a hypothesis.

    [uniform T u]: the conditions, loop ranges and [let] values around
    barriers evaluate alike for all threads of [T] (they do not depend on
    the thread, as when they mention only [blockIdx], parameters and the
    variables of loops around barriers).  Then a run of [mrun_all] is a
    lock-step run [jsegs] ([mrun_all_jsegs]), and Theorem 1 holds over the
    split's phases for every execution ([theorem1_split_uniform]). *)

From Coq Require Import List Arith Bool.
Import ListNotations.
From BabyCUDA Require Import Syntax Semantics Map Typing Sync SyncTheorem Grid Split SplitTheorem.

Fixpoint uniform (T : list thread) (w : proto) : Prop :=
  match w with
  | MSeq u v => uniform T u /\ uniform T v
  | MIf c u v =>
      (has_sync w = true -> forall t t' s, In t T -> In t' T -> beval t s c = beval t' s c) /\
      uniform T u /\ uniform T v
  | MFor x lo hi st u =>
      (has_sync u = true -> forall t t' s, In t T -> In t' T -> iters t s lo hi st = iters t' s lo hi st) /\
      uniform T u
  | MLoopVals _ _ u => uniform T u
  | MLet x e u =>
      (has_sync u = true -> forall t t' s, In t T -> In t' T -> eval t s e = eval t' s e) /\ uniform T u
  | _ => True
  end.

(** ** One thread's intervals, big-step *)
Fixpoint tgluel (As : list (list (list access))) : list (list access) :=
  match As with
  | [] => [[]]
  | A :: As' => match As' with [] => A | _ => tglue A (tgluel As') end
  end.

Inductive tseg (t : thread) : env -> proto -> list (list access) -> Prop :=
| TFree s u : has_sync u = false -> mok t s u -> tseg t s u [macc t s u]
| TSync s : tseg t s MSync [[]; []]
| TSeq s u v A B : has_sync (MSeq u v) = true -> tseg t s u A -> tseg t s v B ->
    tseg t s (MSeq u v) (tglue A B)
| TIfT s c u v A : has_sync (MIf c u v) = true -> beval t s c = true -> tseg t s u A ->
    tseg t s (MIf c u v) A
| TIfF s c u v A : has_sync (MIf c u v) = true -> beval t s c = false -> tseg t s v A ->
    tseg t s (MIf c u v) A
| TFor s x lo hi st u As : has_sync u = true ->
    Forall2 (fun v A => tseg t (upd s x v) u A) (iters t s lo hi st) As ->
    tseg t s (MFor x lo hi st u) (tgluel As)
| TLoopVals s x vs u As : has_sync u = true ->
    Forall2 (fun v A => tseg t (upd s x v) u A) vs As ->
    tseg t s (MLoopVals x vs u) (tgluel As)
| TLet s x e u A : has_sync u = true -> tseg t (upd s x (eval t s e)) u A ->
    tseg t s (MLet x e u) A.

(** A barrier-free statement's run, read backwards. *)
Lemma free_mrun_inv : forall t u s, has_sync u = false ->
  forall k a r, mrun t (MFProg s u :: k) a r ->
  mok t s u /\ exists a', a = macc t s u ++ a' /\ mrun t k a' r.
Proof.
  intros t; induction u; intros s Hs k a r R; simpl in Hs; try discriminate;
    inversion R; subst; simpl.
  - split; [exact I | eauto].
  - split; [exact I | eauto].
  - split; [exact I | eauto].
  - split; [exact I | eauto].
  - apply orb_false_iff in Hs; destruct Hs as [H1 H2].
    match goal with R' : mrun _ (MFProg s u1 :: _) _ _ |- _ =>
      destruct (IHu1 s H1 _ _ _ R') as (Ok1 & a1 & -> & R1) end.
    destruct (IHu2 s H2 _ _ _ R1) as (Ok2 & a2 & -> & R2).
    split; [split; auto | exists a2; split; [rewrite app_assoc | ]; auto].
  - apply orb_false_iff in Hs; destruct Hs as [H1 H2].
    match goal with E : beval _ _ _ = true, R' : mrun _ _ _ _ |- _ =>
      destruct (IHu1 s H1 _ _ _ R') as (Ok1 & a1 & -> & R1); rewrite E end; eauto.
  - apply orb_false_iff in Hs; destruct Hs as [H1 H2].
    match goal with E : beval _ _ _ = false, R' : mrun _ _ _ _ |- _ =>
      destruct (IHu2 s H2 _ _ _ R') as (Ok2 & a2 & -> & R2); rewrite E end; eauto.
  - match goal with R' : mrun _ (MFLoop _ _ _ _ :: _) _ _ |- _ => revert R'; clear R end.
    generalize (iters t s lo hi st) as vs; intros vs; revert a.
    induction vs as [| v vs IH]; intros a R'; inversion R'; subst; simpl.
    + split; [constructor | eauto].
    + match goal with R'' : mrun _ (MFProg _ u :: _) _ _ |- _ =>
        destruct (IHu _ Hs _ _ _ R'') as (Ok1 & a1 & -> & R1) end.
      destruct (IH _ R1) as (Ok2 & a2 & -> & R2).
      split; [constructor; auto | exists a2; split; [rewrite app_assoc |]; auto].
  - match goal with R' : mrun _ (MFLoop _ _ _ _ :: _) _ _ |- _ => revert R'; clear R end.
    revert a; induction vs as [| v vs IH]; intros a R'; inversion R'; subst; simpl.
    + split; [constructor | eauto].
    + match goal with R'' : mrun _ (MFProg _ u :: _) _ _ |- _ =>
        destruct (IHu _ Hs _ _ _ R'') as (Ok1 & a1 & -> & R1) end.
      destruct (IH _ R1) as (Ok2 & a2 & -> & R2).
      split; [constructor; auto | exists a2; split; [rewrite app_assoc |]; auto].
  - match goal with R' : mrun _ (MFProg _ u :: _) _ _ |- _ =>
      destruct (IHu _ Hs _ _ _ R') as (Ok1 & a1 & -> & R1) end; eauto.
  - split; [auto | eauto].
Qed.

Lemma tgluel_ne : forall As, Forall (fun A => A <> []) As -> tgluel As <> [].
Proof.
  intros As F; induction F as [| A As NA F IH]; [discriminate |].
  destruct As; [exact NA | apply tglue_ne; auto].
Qed.

Lemma F2_right : forall {X Y} (P : X -> Y -> Prop) (Q : Y -> Prop) l l',
  (forall x y, P x y -> Q y) -> Forall2 P l l' -> Forall Q l'.
Proof. intros X Y P Q l l' H F; induction F; constructor; eauto. Qed.

Lemma tseg_ne : forall u t s Z, tseg t s u Z -> Z <> [].
Proof.
  induction u; intros t s Z J; inversion J; subst; try discriminate;
    try (apply tglue_ne; eauto; fail); eauto.
  all: apply tgluel_ne; match goal with F : Forall2 _ _ ?As |- _ =>
         refine (F2_right _ _ _ _ _ F); intros ? ? Hy; exact (IHu _ _ _ Hy) end.
Qed.

Lemma free_mseq_inv : forall t u s k L r, has_sync u = false -> mseq t (MFProg s u :: k) L r ->
  mok t s u /\ exists y L0, L = (macc t s u ++ y) :: L0 /\ mseq t k (y :: L0) r.
Proof.
  intros t u s k L r Hs Q; inversion Q; subst;
    match goal with R : mrun _ _ _ _ |- _ => destruct (free_mrun_inv t u s Hs _ _ _ R) as (Ok & y & -> & R') end.
  - split; auto; eexists _, _; split; [reflexivity | apply MQOne; eauto].
  - split; auto; eexists _, _; split; [reflexivity | eapply MQCons; eauto].
Qed.

Ltac unlift Q :=
  eapply mseq_lift in Q; [| intros ? ? Rr; inversion Rr; subst; try congruence; eassumption].

Lemma mseq_loop : forall t s x u,
  (forall s k L, mseq t (MFProg s u :: k) L None ->
     exists A L', tseg t s u A /\ mseq t k L' None /\ L = tglue A L') ->
  forall vs k L, mseq t (MFLoop s x vs u :: k) L None ->
  exists As L', Forall2 (fun v A => tseg t (upd s x v) u A) vs As /\ mseq t k L' None /\
                L = tglue (tgluel As) L'.
Proof.
  intros t s x u IHu; induction vs as [| v vs IH]; intros k' L' Q'; unlift Q'.
  - exists [], L'; split; [constructor | split; auto].
    change (tgluel []) with [@nil access]; rewrite tglue_nil_l; eauto using mseq_ne.
  - destruct (IHu _ _ _ Q') as (A & L1 & T1 & Q1 & ->).
    destruct (IH _ _ Q1) as (As & L2 & F & Q2 & ->).
    exists (A :: As), L2; split; [constructor; auto | split; auto].
    destruct As as [| A' As'].
    + change (tgluel [A]) with A; change (tgluel []) with [@nil access].
      rewrite tglue_nil_l; eauto using mseq_ne.
    + change (tgluel (A :: A' :: As')) with (tglue A (tgluel (A' :: As'))).
      rewrite tglue_assoc; eauto using tseg_ne.
      apply tgluel_ne; refine (F2_right _ _ _ _ _ F); intros ? ? Hy; exact (tseg_ne _ _ _ _ Hy).
Qed.

(** A thread's run of [u] followed by [k], cut into [u]'s intervals. *)
Lemma mseq_tseg : forall u t s k L, mseq t (MFProg s u :: k) L None ->
  exists A L', tseg t s u A /\ mseq t k L' None /\ L = tglue A L'.
Proof.
  induction u; intros t s k L Q;
    match goal with |- context [tseg _ _ ?w _] => destruct (has_sync w) eqn:Hs end;
    try (match goal with |- context [tseg _ _ ?w _] =>
           destruct (free_mseq_inv t w s k L None Hs Q) as (Ok & y & L0 & -> & Q');
           exists [macc t s w], (y :: L0); split; [apply TFree; auto | split; [auto | reflexivity]] end; fail);
    simpl in Hs; try discriminate.
  - (* sequence *)
    unlift Q.
    destruct (IHu1 _ _ _ _ Q) as (A1 & L1 & T1 & Q1 & ->).
    destruct (IHu2 _ _ _ _ Q1) as (A2 & L2 & T2 & Q2 & ->).
    exists (tglue A1 A2), L2; split; [apply TSeq; auto | split; auto].
    rewrite tglue_assoc; eauto using tseg_ne.
  - (* if *)
    destruct (beval t s c) eqn:E.
    + unlift Q. destruct (IHu1 _ _ _ _ Q) as (A & L' & T1 & Q1 & ->).
      exists A, L'; split; [apply TIfT; auto | auto].
    + unlift Q. destruct (IHu2 _ _ _ _ Q) as (A & L' & T1 & Q1 & ->).
      exists A, L'; split; [apply TIfF; auto | auto].
  - (* for *)
    unlift Q.
    destruct (mseq_loop t s x u (IHu t) _ _ _ Q) as (As & L' & F & Q' & ->).
    exists (tgluel As), L'; split; [apply TFor; auto | auto].
  - (* loop values *)
    unlift Q.
    destruct (mseq_loop t s x u (IHu t) _ _ _ Q) as (As & L' & F & Q' & ->).
    exists (tgluel As), L'; split; [apply TLoopVals; auto | auto].
  - (* let *)
    unlift Q. destruct (IHu _ _ _ _ Q) as (A & L' & T1 & Q1 & ->).
    exists A, L'; split; [apply TLet; auto | auto].
  - (* sync *)
    inversion Q; subst;
      match goal with R : mrun _ _ _ _ |- _ => inversion R; subst end.
    exists [[]; []], L0; split; [constructor | split; auto].
    rewrite tglue_cons by discriminate; rewrite tglue_nil_l; eauto using mseq_ne.
Qed.

(** ** Uniform threads run in lock-step *)

Lemma tseg_free : forall t s u Z, has_sync u = false -> tseg t s u Z -> mok t s u.
Proof. intros t s u Z Hs J; inversion J; subst; simpl in *; try congruence; auto. Qed.

Lemma loop_jsegs : forall T s x u,
  (forall s, (forall t, In t T -> exists Z, tseg t s u Z) -> exists X, jsegs T s u X) ->
  forall vs, (forall t, In t T -> exists As, Forall2 (fun v Z => tseg t (upd s x v) u Z) vs As) ->
  exists Ss, Forall2 (fun v X => jsegs T (upd s x v) u X) vs Ss.
Proof.
  intros T s x u IHu; induction vs as [| v vs IH]; intros H; [exists []; constructor |].
  destruct (IHu (upd s x v)) as [X J].
  { intros t It; destruct (H t It) as (As & F); inversion F; subst; eauto. }
  destruct IH as [Ss F].
  { intros t It; destruct (H t It) as (As & F); inversion F; subst; eauto. }
  exists (X :: Ss); constructor; auto.
Qed.

Lemma tseg_jsegs : forall u T s, T <> [] -> uniform T u ->
  (forall t, In t T -> exists Z, tseg t s u Z) -> exists X, jsegs T s u X.
Proof.
  intros u T s NT U H.
  destruct (has_sync u) eqn:Hs.
  2: { exists (One (fun t => macc t s u)); apply JSFree; auto.
       intros t It; destruct (H t It) as (Z & J); eapply tseg_free; eauto. }
  destruct (pick T (fun _ => True) NT (fun _ _ => I)) as (t0 & I0 & _).
  revert T s NT U H Hs I0.
  induction u; intros T s NT U H Hs I0; simpl in Hs, U; try discriminate.
  - (* sequence *)
    destruct U as [U1 U2].
    assert (H1 : forall t, In t T -> exists Z, tseg t s u1 Z).
    { intros t It; destruct (H t It) as (Z & J); inversion J; subst; simpl in *; try congruence; eauto. }
    assert (H2 : forall t, In t T -> exists Z, tseg t s u2 Z).
    { intros t It; destruct (H t It) as (Z & J); inversion J; subst; simpl in *; try congruence; eauto. }
    assert (E1 : exists X, jsegs T s u1 X).
    { destruct (has_sync u1) eqn:Hs1; [apply IHu1; auto |].
      exists (One (fun t => macc t s u1)); apply JSFree; auto.
      intros t It; destruct (H1 t It) as (Z & J); eapply tseg_free; eauto. }
    assert (E2 : exists X, jsegs T s u2 X).
    { destruct (has_sync u2) eqn:Hs2; [apply IHu2; auto |].
      exists (One (fun t => macc t s u2)); apply JSFree; auto.
      intros t It; destruct (H2 t It) as (Z & J); eapply tseg_free; eauto. }
    destruct E1 as [X1 J1], E2 as [X2 J2].
    exists (glue X1 X2); apply JSSeq; simpl; auto.
  - (* if *)
    assert (Hif : has_sync (MIf c u1 u2) = true) by (simpl; exact Hs).
    destruct U as (Uc & U1 & U2).
    destruct (beval t0 s c) eqn:Ec.
    + assert (B : forall t, In t T -> beval t s c = true).
      { intros t It; rewrite (Uc Hs t t0 s It I0); auto. }
      assert (H1 : forall t, In t T -> exists Z, tseg t s u1 Z).
      { intros t It; destruct (H t It) as (Z & J); inversion J; subst; simpl in *; try congruence; eauto.
        rewrite (B t It) in *; discriminate. }
      destruct (has_sync u1) eqn:Hs1.
      * assert (E : exists X, jsegs T s u1 X) by (apply IHu1; auto).
        destruct E as [X J]; exists X; apply JSIfT; auto.
      * exists (One (fun t => macc t s u1)); apply JSIfT; auto.
        apply JSFree; auto. intros t It; destruct (H1 t It) as (Z & J); eapply tseg_free; eauto.
    + assert (B : forall t, In t T -> beval t s c = false).
      { intros t It; rewrite (Uc Hs t t0 s It I0); auto. }
      assert (H2 : forall t, In t T -> exists Z, tseg t s u2 Z).
      { intros t It; destruct (H t It) as (Z & J); inversion J; subst; simpl in *; try congruence; eauto.
        rewrite (B t It) in *; discriminate. }
      destruct (has_sync u2) eqn:Hs2.
      * assert (E : exists X, jsegs T s u2 X) by (apply IHu2; auto).
        destruct E as [X J]; exists X; apply JSIfF; auto.
      * exists (One (fun t => macc t s u2)); apply JSIfF; auto.
        apply JSFree; auto. intros t It; destruct (H2 t It) as (Z & J); eapply tseg_free; eauto.
  - (* for *)
    destruct U as (Ui & U1).
    set (vs := iters t0 s lo hi st).
    assert (Vs : forall t, In t T -> iters t s lo hi st = vs).
    { intros t It; apply (Ui Hs t t0 s It I0). }
    destruct (loop_jsegs T s x u (fun s' H' => IHu T s' NT U1 H' Hs I0) vs) as [Ss F].
    { intros t It; destruct (H t It) as (Z & J); inversion J; subst; simpl in *; try congruence.
      rewrite <- (Vs t It); eauto. }
    exists (gluel Ss); eapply JSFor; eauto.
  - (* loop values *)
    destruct (loop_jsegs T s x u (fun s' H' => IHu T s' NT U H' Hs I0) vs) as [Ss F].
    { intros t It; destruct (H t It) as (Z & J); inversion J; subst; simpl in *; try congruence; eauto. }
    exists (gluel Ss); eapply JSLoopVals; eauto.
  - (* let *)
    destruct U as (Ue & U1).
    set (n := eval t0 s e).
    assert (En : forall t, In t T -> eval t s e = n).
    { intros t It; apply (Ue Hs t t0 s It I0). }
    destruct (IHu T (upd s x n) NT U1) as [X J]; auto.
    { intros t It; destruct (H t It) as (Z & J); inversion J; subst; simpl in *; try congruence.
      rewrite <- (En t It); eauto. }
    exists X; eapply JSLet; eauto.
  - (* sync *)
    exists (Many snil [] snil); constructor.
Qed.

(** ** Every run of [mrun_all] is a lock-step run *)

Lemma mstep_f2 : forall ths A rs, mstep ths A rs ->
  Forall2 (fun tk tr => fst tk = fst tr /\ exists a, mrun (fst tk) (snd tk) a (snd tr)) ths rs.
Proof. induction 1; constructor; simpl; eauto. Qed.

Lemma mrun_all_mseq : forall ths As, mrun_all ths As ->
  Forall (fun tk => exists L, mseq (fst tk) (snd tk) L None) ths.
Proof.
  induction 1 as [ths A rs S D | ths A ths' As NE S R IH].
  - apply mstep_f2 in S; clear -S D; induction S as [| [t k] [t' r] ths rs (E & a & R) S IH];
      constructor; inversion D; subst; simpl in *; subst; eauto.
    exists [a]; apply MQOne; auto.
  - apply mstep_f2 in S; clear -S IH; revert ths' S IH.
    induction ths as [| [t k] ths IHt]; intros ths' S IH; [constructor |].
    destruct ths' as [| [t' k'] ths']; inversion S; subst.
    inversion IH; subst.
    match goal with P : fst _ = fst _ /\ _ |- _ => destruct P as (E & a & R) end.
    simpl in *; subst.
    constructor; [| eapply IHt; eauto].
    match goal with Q : exists L, mseq _ _ L None |- _ => destruct Q as (L & Q) end.
    exists (a :: L); simpl; eapply MQCons; eauto.
Qed.

(** For uniform threads, the MAP's phases are a lock-step run's intervals. *)
Theorem mrun_all_jsegs : forall T s u As, T <> [] -> uniform T u -> proto_phases T s u As ->
  exists X, jsegs T s u X /\ As = map (fun f => flat_map f T) (seg_list X).
Proof.
  intros T s u As NT U P.
  destruct (tseg_jsegs u T s NT U) as [X J].
  { intros t It.
    pose proof (mrun_all_mseq _ _ P) as F; unfold mstart in F.
    rewrite Forall_forall in F.
    destruct (F (t, [MFProg s u])) as (L & Q); [apply in_map_iff; eauto |].
    destruct (mseq_tseg u t s [] L Q) as (Z & _ & Z1 & _); eauto. }
  exists X; split; auto.
  exact (mrun_all_det _ _ P _ (jsegs_mrun_all T s u X NT J)).
Qed.

(** ** Theorem 1 over the split's phases, for every execution *)

(** For a well-typed program whose MAP has aligned loops and uniform
    barriers for the block [T], run from a DRF history: the output history
    is DRF iff every instance of every phase of the split is DRF. *)
Theorem theorem1_split_uniform : forall V T s p u H H',
  ty V p u -> aligned u = true -> uniform T u -> T <> [] ->
  drf_hist H -> kernel_run T s p H H' ->
  (drf_hist H' <-> forall c f, In c (split_phases u) -> jph T s c f -> drf_accs (flat_map f T)).
Proof.
  intros V T s p u H H' Ty Al U NT D R.
  destruct (proto_phases_exist V T s p u H H' Ty R) as [As P].
  destruct (mrun_all_jsegs T s u As NT U P) as (X & J & _).
  exact (theorem1_split V T s p u X H H' Ty Al NT J D R).
Qed.

Corollary split_race_is_real_uniform : forall V T s p u H H' c f a b,
  ty V p u -> aligned u = true -> uniform T u -> T <> [] -> kernel_run T s p H H' ->
  In c (split_phases u) -> jph T s c f -> In a (flat_map f T) -> In b (flat_map f T) ->
  conflict a b -> ~ drf_hist H'.
Proof.
  intros V T s p u H H' c f a b Ty Al U NT R Ic Jc Ia Ib C.
  destruct (proto_phases_exist V T s p u H H' Ty R) as [As P].
  destruct (mrun_all_jsegs T s u As NT U P) as (X & J & _).
  exact (split_race_is_real V T s p u X H H' c f a b Ty Al NT J R Ic Jc Ia Ib C).
Qed.

(** ** The launch: each block's phases are its split's phases *)

(** A block with uniform barriers: its MAP phases are DRF iff every
    instance of every phase of the split is. *)
Lemma block_split_drf : forall T s u As, T <> [] -> aligned u = true -> uniform T u ->
  proto_phases T s u As ->
  (Forall drf_accs As <-> forall c f, In c (split_phases u) -> jph T s c f -> drf_accs (flat_map f T)).
Proof.
  intros T s u As NT Al U P.
  destruct (mrun_all_jsegs T s u As NT U P) as (X & J & ->).
  destruct (split_intervals u T s X NT Al J) as [Snd Cmp].
  rewrite Forall_map, Forall_forall; split.
  - intros F c f Ic Jc; apply F, (Cmp c f Ic Jc).
  - intros F f If; destruct (Snd f If) as (c & Ic & Jc); apply (F c f Ic Jc).
Qed.

(** Theorem 1 for the launch, read over the split: the races within a
    block are those of the instances of the split's phases for that block
    (the races across blocks, on global arrays, are unchanged: they ignore
    barriers). *)
Theorem theorem1_grid_split : forall V sc B s p u mem Pss Ass,
  ty V p u -> aligned u = true -> Forall (fun T => T <> [] /\ uniform T u) B ->
  grid_run B s p mem Pss -> grid_phases B s u Ass ->
  (drf_launch sc (map (map accs) Pss) <->
   Forall (fun T => forall c f, In c (split_phases u) -> jph T s c f -> drf_accs (flat_map f T)) B /\
   forall a b, In a (concat (concat Ass)) -> In b (concat (concat Ass)) -> ~ cross_conflict sc a b).
Proof.
  intros V sc B s p u mem Pss Ass Ty Al UB R M.
  rewrite (theorem1_grid V sc B s p u mem Pss Ass Ty R M); unfold drf_launch.
  assert (E : Forall (Forall drf_accs) Ass <->
              Forall (fun T => forall c f, In c (split_phases u) -> jph T s c f -> drf_accs (flat_map f T)) B).
  { clear R; unfold grid_phases in M; induction M as [| T As B' Ass' P M IH]; [split; constructor |].
    inversion UB as [| T' B'' (NT & U) UB']; subst.
    pose proof (block_split_drf T s u As NT Al U P) as BS.
    split; intros F; inversion F; subst; constructor; try apply BS; try apply IH; auto. }
  rewrite E; tauto.
Qed.
