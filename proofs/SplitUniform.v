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
From BabyCUDA Require Import Syntax Semantics Map Typing Sync SyncTheorem Split SplitTheorem.

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
