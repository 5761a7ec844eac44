(** * The split's intervals are the phases of [mrun_all], and Theorem 1
    read over the split's phases.

    [jsegs_mrun_all]: a lock-step run with intervals [X] ([Split.jsegs]) is
    a run of the MAP's phase semantics [Sync.mrun_all], whose phases are
    the intervals flattened in thread order.  With [Split.split_intervals]
    this gives [theorem1_split]: for a well-typed kernel whose MAP has
    aligned loops, run by a block with uniform barriers, the output history
    is DRF iff every instance of every phase of the split is DRF. *)

From Coq Require Import List Arith Bool.
Import ListNotations.
From BabyCUDA Require Import Syntax Semantics Map Typing Sync SyncTheorem Split.

(** ** One thread's run as a list of phases *)

(** [mseq t k L r]: from continuation [k], thread [t] performs the phases
    [L] (separated by barriers) and then ends with [r]. *)
Inductive mseq (t : thread) : mkont -> list (list access) -> option mkont -> Prop :=
| MQOne k a r : mrun t k a r -> mseq t k [a] r
| MQCons k a k' L r : mrun t k a (Some k') -> mseq t k' L r -> mseq t k (a :: L) r.

Lemma mseq_nil : forall t k r, mseq t k [] r -> False.
Proof. intros t k r H; inversion H. Qed.

Lemma mseq_lift : forall t k k2 L r, (forall a r', mrun t k a r' -> mrun t k2 a r') ->
  mseq t k L r -> mseq t k2 L r.
Proof. intros t k k2 L r H Q; inversion Q; subst; [apply MQOne | eapply MQCons]; eauto. Qed.

(** Joins the last phase of [A] with the first of [L]. *)
Fixpoint tglue (A L : list (list access)) : list (list access) :=
  match A with
  | [] => L
  | x :: A' =>
      match A' with
      | [] => match L with [] => [x] | y :: L' => (x ++ y) :: L' end
      | _ => x :: tglue A' L
      end
  end.

Lemma tglue_cons : forall x A L, A <> [] -> tglue (x :: A) L = x :: tglue A L.
Proof. intros x [|a A] L H; [congruence | reflexivity]. Qed.

Lemma tglue_snoc : forall A z L, tglue (A ++ [z]) L = A ++ tglue [z] L.
Proof.
  induction A as [|a A IH]; intros z L; [reflexivity |].
  simpl app; rewrite tglue_cons by (destruct A; discriminate); rewrite IH; reflexivity.
Qed.

Lemma tglue_ne : forall A B, A <> [] -> tglue A B <> [].
Proof. intros [|x [|y A]] B H; [congruence | destruct B; discriminate | discriminate]. Qed.

Lemma tglue_assoc : forall A B L, A <> [] -> B <> [] ->
  tglue (tglue A B) L = tglue A (tglue B L).
Proof.
  induction A as [|a A IH]; intros B L NA NB; [congruence |].
  destruct A as [|a' A'].
  - destruct B as [|b B']; [congruence |].
    destruct B' as [|b' B''].
    + simpl; destruct L; simpl; rewrite ?app_assoc; reflexivity.
    + change (tglue [a] (b :: b' :: B'')) with ((a ++ b) :: b' :: B'').
      rewrite (tglue_cons (a ++ b)) by discriminate; rewrite (tglue_cons b) by discriminate.
      reflexivity.
  - rewrite (tglue_cons a (a' :: A') B) by discriminate.
    rewrite (tglue_cons a (tglue (a' :: A') B) L) by (apply tglue_ne; discriminate).
    rewrite (tglue_cons a (a' :: A')) by discriminate.
    f_equal; apply IH; auto; discriminate.
Qed.

Lemma tglue_nil_r : forall A, A <> [] -> tglue A [[]] = A.
Proof.
  induction A as [|a A IH]; intros NE; [congruence |].
  destruct A as [|a' A'].
  - simpl; rewrite app_nil_r; reflexivity.
  - rewrite tglue_cons by discriminate; rewrite IH by discriminate; reflexivity.
Qed.

Lemma tglue_nil_l : forall L, L <> [] -> tglue [[]] L = L.
Proof. intros [|y L] H; [congruence | reflexivity]. Qed.

Lemma mseq_ne : forall t k L r, mseq t k L r -> L <> [].
Proof. intros t k L r Q; inversion Q; discriminate. Qed.

Definition tsegs (X : segs) (t : thread) : list (list access) := map (fun f => f t) (seg_list X).

Lemma tsegs_ne : forall X t, tsegs X t <> [].
Proof. intros [x | f m l] t; discriminate. Qed.

Lemma tsegs_glue : forall X1 X2 t, tsegs (glue X1 X2) t = tglue (tsegs X1 t) (tsegs X2 t).
Proof.
  intros [x1 | f1 m1 l1] [x2 | f2 m2 l2] t; unfold tsegs; cbn [glue seg_list map]; try reflexivity.
  - rewrite tglue_cons by (rewrite map_app; destruct (map _ m1); discriminate).
    rewrite !map_app; cbn [map]; rewrite tglue_snoc; reflexivity.
  - rewrite tglue_cons by (rewrite map_app; destruct (map _ m1); discriminate).
    rewrite !map_app; cbn [map]; rewrite tglue_snoc.
    rewrite <- app_assoc; reflexivity.
Qed.

(** ** Barrier-free code runs to its end *)
Lemma free_mrun : forall t u s, has_sync u = false -> mok t s u ->
  forall k a r, mrun t k a r -> mrun t (MFProg s u :: k) (macc t s u ++ a) r.
Proof.
  intros t; induction u; intros s Hs Ok k a r R; simpl in *; try discriminate.
  - constructor; auto.
  - constructor; auto.
  - constructor; auto.
  - constructor; auto.
  - apply orb_false_iff in Hs; destruct Hs; destruct Ok.
    constructor; rewrite <- app_assoc; apply IHu1; auto.
  - apply orb_false_iff in Hs; destruct Hs.
    destruct (beval t s c) eqn:E; [apply MRIfT | apply MRIfF]; auto.
  - constructor.
    induction Ok as [| v vs Okv Ok IH]; simpl; [constructor; auto |].
    constructor; rewrite <- app_assoc; apply IHu; auto.
  - constructor.
    induction Ok as [| v vs' Okv Ok IH]; simpl; [constructor; auto |].
    constructor; rewrite <- app_assoc; apply IHu; auto.
  - constructor; apply IHu; auto.
  - constructor; auto.
Qed.

Lemma free_mseq : forall t u s k y L r, has_sync u = false -> mok t s u ->
  mseq t k (y :: L) r -> mseq t (MFProg s u :: k) ((macc t s u ++ y) :: L) r.
Proof.
  intros t u s k y L r Hs Ok Q; inversion Q; subst;
    [apply MQOne | eapply MQCons]; eauto; apply free_mrun; auto.
Qed.

Ltac free_case :=
  match goal with
  | J : jsegs ?T ?s ?u ?X, Hs : has_sync ?u = false, Q : mseq ?t ?k ?L ?r, It : In ?t ?T |- _ =>
      destruct (jsegs_free T s u X Hs J) as [-> Ok];
      destruct L as [|y L]; [destruct (mseq_nil _ _ _ Q) |];
      apply (free_mseq t u s k y L r Hs (Ok t It) Q)
  end.

(** ** A lock-step interval run is each thread's run *)
Lemma jsegs_mseq : forall u T s X, jsegs T s u X -> forall t, In t T ->
  forall k L r, mseq t k L r -> mseq t (MFProg s u :: k) (tglue (tsegs X t) L) r.
Proof.
  induction u; intros T s X J t It k L r Q;
    match goal with J : jsegs _ _ ?u _ |- _ => destruct (has_sync u) eqn:Hs end;
    try free_case; inversion J; subst; try (simpl in *; congruence).
  - (* sequence *)
    rewrite tsegs_glue, tglue_assoc by apply tsegs_ne.
    eapply mseq_lift; [intros; apply MRSeq; eassumption |].
    eapply IHu1; eauto; eapply IHu2; eauto.
  - eapply mseq_lift; [intros; apply MRIfT; auto; eassumption |]. eapply IHu1; eauto.
  - eapply mseq_lift; [intros; apply MRIfF; auto; eassumption |]. eapply IHu2; eauto.
  - (* for *)
    eapply mseq_lift; [intros; apply MRFor; eassumption |].
    try match goal with U : forall t, In t T -> iters t s lo hi st = _ |- _ => rewrite (U t It) end.
    try match goal with U : forall t, In t T -> iters _ _ _ _ _ = _ |- _ => clear U end.
    match goal with F : Forall2 _ ?vs ?Ss |- _ => clear J; induction F as [| v X' vs' Ss' J' Ft IH] end.
    + change (tsegs (gluel []) t) with [@nil access].
      rewrite tglue_nil_l by (eapply mseq_ne; eauto); eapply mseq_lift; [intros; apply MRLoopNil; eassumption | auto].
    + eapply mseq_lift; [intros; apply MRLoopCons; eassumption |].
      destruct Ss' as [|X'' Ss''].
      * inversion Ft; subst; simpl.
        eapply IHu; eauto. change (tsegs (gluel []) t) with [@nil access] in IH.
        rewrite tglue_nil_l in IH by (eapply mseq_ne; eauto); exact IH.
      * change (gluel (X' :: X'' :: Ss'')) with (glue X' (gluel (X'' :: Ss''))).
        rewrite tsegs_glue, tglue_assoc by apply tsegs_ne.
        eapply IHu; eauto.
  - (* loop values *)
    eapply mseq_lift; [intros; apply MRLoopVals; eassumption |].
    clear Hs.
    match goal with F : Forall2 _ ?vs ?Ss |- _ => clear J; induction F as [| v X' vs' Ss' J' Ft IH] end.
    + change (tsegs (gluel []) t) with [@nil access].
      rewrite tglue_nil_l by (eapply mseq_ne; eauto); eapply mseq_lift; [intros; apply MRLoopNil; eassumption | auto].
    + eapply mseq_lift; [intros; apply MRLoopCons; eassumption |].
      destruct Ss' as [|X'' Ss''].
      * inversion Ft; subst; simpl.
        eapply IHu; eauto. change (tsegs (gluel []) t) with [@nil access] in IH.
        rewrite tglue_nil_l in IH by (eapply mseq_ne; eauto); exact IH.
      * change (gluel (X' :: X'' :: Ss'')) with (glue X' (gluel (X'' :: Ss''))).
        rewrite tsegs_glue, tglue_assoc by apply tsegs_ne.
        eapply IHu; eauto.
  - (* let *)
    eapply mseq_lift; [intros; apply MRLet; eassumption |].
    match goal with E : forall t, In t T -> eval t s e = _ |- _ => rewrite (E t It) end.
    eapply IHu; eauto.
  - (* sync *)
    destruct L as [|y L]; [destruct (mseq_nil _ _ _ Q) |].
    unfold tsegs; simpl. eapply MQCons; [apply MRSync | exact Q].
Qed.

(** ** All threads: the phases of [mrun_all] *)

Lemma flat_map_fst : forall {K} (g : thread -> list access) (l l' : list (thread * K)),
  map fst l = map fst l' -> flat_map (fun tk => g (fst tk)) l = flat_map (fun tk => g (fst tk)) l'.
Proof.
  intros K g; induction l as [| [t k] l IH]; intros [| [t' k'] l'] E; simpl in *; try discriminate; auto.
  inversion E; subst; f_equal; auto.
Qed.

Lemma step_done : forall (f : seg) ths,
  Forall (fun tk => mrun (fst tk) (snd tk) (f (fst tk)) None) ths ->
  mstep ths (flat_map (fun tk => f (fst tk)) ths) (map (fun tk => (fst tk, @None mkont)) ths) /\
  all_done (map (fun tk => (fst tk, @None mkont)) ths).
Proof.
  intros f ths F; induction F as [| [t k] ths R F [IH1 IH2]]; simpl.
  - split; [constructor | constructor].
  - split; [constructor; auto | constructor; auto].
Qed.

Lemma step_some : forall (f : seg) (P : thread -> mkont -> Prop) ths,
  Forall (fun tk => exists k', mrun (fst tk) (snd tk) (f (fst tk)) (Some k') /\ P (fst tk) k') ths ->
  exists ths', mstep ths (flat_map (fun tk => f (fst tk)) ths) (resume ths') /\
    map fst ths' = map fst ths /\ Forall (fun tk => P (fst tk) (snd tk)) ths'.
Proof.
  intros f P ths F; induction F as [| [t k] ths (k' & R & Pk) F (ths' & S & E & G)]; simpl.
  - exists []; repeat split; constructor.
  - exists ((t, k') :: ths'); simpl; repeat split.
    + apply (MSCons t k ths (f t) (Some k') _ (resume ths')); auto.
    + rewrite E; reflexivity.
    + constructor; auto.
Qed.

Lemma mseq_all : forall Fs ths, Fs <> [] -> ths <> [] ->
  Forall (fun tk => mseq (fst tk) (snd tk) (map (fun f => f (fst tk)) Fs) None) ths ->
  mrun_all ths (map (fun f => flat_map (fun tk => f (fst tk)) ths) Fs).
Proof.
  induction Fs as [| f Fs IH]; intros ths NF NT F; [congruence |].
  destruct Fs as [| f' Fs'].
  - destruct (step_done f ths) as [S D].
    { eapply Forall_impl; [| exact F]; intros [t k] Q; simpl in *.
      inversion Q; subst; auto. exfalso; eapply mseq_nil; eauto. }
    simpl; eapply MAEnd; eauto.
  - destruct (step_some f (fun t k' => mseq t k' (map (fun g => g t) (f' :: Fs')) None) ths)
      as (ths' & S & E & G).
    { eapply Forall_impl; [| exact F]; intros [t k] Q; simpl in *.
      inversion Q; subst; eauto. }
    assert (NT' : ths' <> []) by (destruct ths', ths; simpl in E; congruence).
    assert (Eq : map (fun g => flat_map (fun tk => g (fst tk)) ths) (f' :: Fs') =
                 map (fun g => flat_map (fun tk => g (fst tk)) ths') (f' :: Fs'))
      by (apply map_ext; intros g; symmetry; apply flat_map_fst; auto).
    change (map ?F (f :: f' :: Fs')) with (F f :: map F (f' :: Fs')).
    rewrite Eq; apply MABarrier with ths'; auto.
    apply IH; auto; discriminate.
Qed.

(** The intervals of a lock-step run, flattened in thread order, are the
    MAP's phases as [Sync.v] defines them. *)
Theorem jsegs_mrun_all : forall T s u X, T <> [] -> jsegs T s u X ->
  proto_phases T s u (map (fun f => flat_map f T) (seg_list X)).
Proof.
  intros T s u X NT J; unfold proto_phases, mstart.
  replace (map (fun f => flat_map f T) (seg_list X))
    with (map (fun f => flat_map (fun tk => f (fst tk)) (map (fun t => (t, [MFProg s u])) T)) (seg_list X)).
  - apply mseq_all.
    + destruct X; discriminate.
    + destruct T; simpl; congruence.
    + apply Forall_forall; intros [t k] I; apply in_map_iff in I; destruct I as (t' & E & It).
      inversion E; subst; simpl.
      pose proof (jsegs_mseq u T s X J t It [] [[]] None (MQOne t [] [] None (MDone t))) as Q.
      rewrite tglue_nil_r in Q by apply tsegs_ne; exact Q.
  - apply map_ext; intros f; clear J NT.
    induction T as [| t T IH]; simpl; [reflexivity | rewrite IH; reflexivity].
Qed.

(** ** Theorem 1 over the split's phases *)

(** For a well-typed program whose MAP has aligned loops, run by a
    non-empty block with uniform barriers (the lock-step run [X]) from a
    DRF history: the output history is DRF iff every instance of every
    phase of the split is DRF. *)
Theorem theorem1_split : forall V T s p u X H H',
  ty V p u -> aligned u = true -> T <> [] -> jsegs T s u X ->
  drf_hist H -> kernel_run T s p H H' ->
  (drf_hist H' <-> forall c f, In c (split_phases u) -> jph T s c f -> drf_accs (flat_map f T)).
Proof.
  intros V T s p u X H H' Ty Al NT J D R.
  rewrite (theorem1_sync V T s p u H H' _ Ty D R (jsegs_mrun_all T s u X NT J)).
  destruct (split_intervals u T s X NT Al J) as [Snd Cmp].
  rewrite Forall_map, Forall_forall; split.
  - intros F c f Ic Jc; apply F, (Cmp c f Ic Jc).
  - intros F f If; destruct (Snd f If) as (c & Ic & Jc); apply (F c f Ic Jc).
Qed.

(** A race within an instance of a phase of the split is a race of the
    kernel. *)
Corollary split_race_is_real : forall V T s p u X H H' c f a b,
  ty V p u -> aligned u = true -> T <> [] -> jsegs T s u X -> kernel_run T s p H H' ->
  In c (split_phases u) -> jph T s c f -> In a (flat_map f T) -> In b (flat_map f T) ->
  conflict a b -> ~ drf_hist H'.
Proof.
  intros V T s p u X H H' c f a b Ty Al NT J R Ic Jc Ia Ib C D.
  assert (DH : drf_hist H).
  { destruct R as (Ps & _ & ->); apply drf_hist_app in D; tauto. }
  apply (theorem1_split V T s p u X H H' Ty Al NT J DH R) with (c := c) (f := f) in D; auto.
  exact (D a b Ia Ib C).
Qed.
