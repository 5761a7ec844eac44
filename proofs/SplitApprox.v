(** * Erased loops: the split with its fallback is an over-approximation.

    When a loop's body may finish an iteration without a barrier,
    [split.ts] (and [split]) erase the loop's barriers: the loop becomes
    barrier-free code, and the phases around it take all its accesses.
    [split_cover] proves that, for every MAP (erased loops allowed), every
    barrier interval of the block's lock-step run is contained, thread by
    thread, in an instance of a phase of the split; hence if every instance
    of every phase is DRF then so is every execution
    ([theorem1_split_approx]): a "DRF" verdict stays sound with erasure. *)

From Coq Require Import List Arith Bool.
Import ListNotations.
From BabyCUDA Require Import Syntax Semantics Map Typing Sync SyncTheorem Split SplitTheorem SplitUniform.

(** [f] is contained in [g] for every thread of [T]. *)
Definition sub (T : list thread) (f g : seg) : Prop := forall t, In t T -> incl (f t) (g t).

Definition anyp (D : ssumm) (g : seg) : Prop := Sn D g \/ Sf D g \/ Sl D g \/ Sp D g.

(** [cov T D X]: the intervals of [X] are contained in instances of the
    parts of [D]; a single interval in one of [Sn]; the first of several in
    one of [Sf] or [Sn], the last in one of [Sl] or [Sn]. *)
Definition cov (T : list thread) (D : ssumm) (X : segs) : Prop :=
  match X with
  | One x => exists g, Sn D g /\ sub T x g
  | Many f m l =>
      (exists g, (Sf D g \/ Sn D g) /\ sub T f g) /\ (exists g, (Sl D g \/ Sn D g) /\ sub T l g) /\
      Forall (fun h => exists g, anyp D g /\ sub T h g) m
  end.

Lemma sub_refl : forall T f, sub T f f.
Proof. intros T f t _; apply incl_refl. Qed.
Lemma sub_trans : forall T f g h, sub T f g -> sub T g h -> sub T f h.
Proof. intros T f g h A B t I; eapply incl_tran; eauto. Qed.
Lemma sub_appl : forall T f g, sub T f (sapp f g).
Proof. intros T f g t _; unfold sapp; apply incl_appl, incl_refl. Qed.
Lemma sub_appr : forall T f g, sub T g (sapp f g).
Proof. intros T f g t _; unfold sapp; apply incl_appr, incl_refl. Qed.
Lemma sub_app : forall T f f' g g', sub T f f' -> sub T g g' -> sub T (sapp f g) (sapp f' g').
Proof. intros T f f' g g' A B t I; unfold sapp; apply incl_app; [apply incl_appl | apply incl_appr]; auto. Qed.

Lemma cov_equiv : forall T D E X, sequiv D E -> cov T D X -> cov T E X.
Proof.
  intros T D E X (Hn & Hf & Hl & Hp) C; destruct X as [x | f m l]; simpl in *.
  - destruct C as (g & G & S); exists g; split; auto; apply Hn; auto.
  - destruct C as ((g1 & G1 & S1) & (g2 & G2 & S2) & F); repeat split.
    + exists g1; split; auto; destruct G1; [left; apply Hf | right; apply Hn]; auto.
    + exists g2; split; auto; destruct G2; [left; apply Hl | right; apply Hn]; auto.
    + eapply Forall_impl; [| exact F]; intros h (g & G & S); exists g; split; auto.
      unfold anyp in *; destruct G as [G | [G | [G | G]]];
        [left; apply Hn | right; left; apply Hf | right; right; left; apply Hl | right; right; right; apply Hp]; auto.
Qed.

(** A part of the first statement, followed by the start of the second. *)
Lemma lift_left : forall T D E g1 g2, anyp D g1 -> Sf E g2 \/ Sn E g2 ->
  exists g, anyp (sseq D E) g /\ sub T g1 g.
Proof.
  intros T D E g1 g2 A B; unfold anyp, sseq in *; simpl.
  destruct A as [A | [A | [A | A]]].
  - destruct B as [B | B].
    + exists (sapp g1 g2); split; [right; left; right; eauto 7 | apply sub_appl].
    + exists (sapp g1 g2); split; [left; eauto 7 | apply sub_appl].
  - exists g1; split; [right; left; left; auto | apply sub_refl].
  - destruct B as [B | B].
    + exists (sapp g1 g2); split; [right; right; right; right; right; eauto 7 | apply sub_appl].
    + exists (sapp g1 g2); split; [right; right; left; right; eauto 7 | apply sub_appl].
  - exists g1; split; [right; right; right; left; auto | apply sub_refl].
Qed.

Lemma lift_right : forall T D E g1 g2, anyp E g2 -> Sl D g1 \/ Sn D g1 ->
  exists g, anyp (sseq D E) g /\ sub T g2 g.
Proof.
  intros T D E g1 g2 A B; unfold anyp, sseq in *; simpl.
  destruct A as [A | [A | [A | A]]].
  - destruct B as [B | B].
    + exists (sapp g1 g2); split; [right; right; left; right; eauto 7 | apply sub_appr].
    + exists (sapp g1 g2); split; [left; eauto 7 | apply sub_appr].
  - destruct B as [B | B].
    + exists (sapp g1 g2); split; [right; right; right; right; right; eauto 7 | apply sub_appr].
    + exists (sapp g1 g2); split; [right; left; right; eauto 7 | apply sub_appr].
  - exists g2; split; [right; right; left; left; auto | apply sub_refl].
  - exists g2; split; [right; right; right; right; left; auto | apply sub_refl].
Qed.

Lemma join : forall D E g1 g2, Sl D g1 \/ Sn D g1 -> Sf E g2 \/ Sn E g2 -> anyp (sseq D E) (sapp g1 g2).
Proof.
  intros D E g1 g2 [A | A] [B | B]; unfold anyp, sseq; simpl.
  - right; right; right; right; right; eauto 7.
  - right; right; left; right; eauto 7.
  - right; left; right; eauto 7.
  - left; eauto 7.
Qed.

Lemma cov_glue : forall T D E X1 X2, cov T D X1 -> cov T E X2 -> cov T (sseq D E) (glue X1 X2).
Proof.
  intros T D E [x1 | f1 m1 l1] [x2 | f2 m2 l2] C1 C2; simpl in *.
  - destruct C1 as (g1 & G1 & S1), C2 as (g2 & G2 & S2).
    exists (sapp g1 g2); split; [eauto 7 | apply sub_app; auto].
  - destruct C1 as (g1 & G1 & S1), C2 as ((gf & Gf & Sf2) & (gl & Gl & Sl2) & F2).
    repeat split.
    + exists (sapp g1 gf); split; [| apply sub_app; auto].
      destruct Gf; [left; right | right]; eauto 7.
    + destruct Gl as [Gl | Gl].
      * exists gl; split; auto.
      * exists (sapp g1 gl); split; [right; eauto 7 | eapply sub_trans; [exact Sl2 | apply sub_appr]].
    + eapply Forall_impl; [| exact F2]; intros h (g & G & S).
      destruct (lift_right T D E g1 g G (or_intror G1)) as (g' & G' & S').
      exists g'; split; auto; eapply sub_trans; eauto.
  - destruct C1 as ((gf & Gf & Sf1) & (gl & Gl & Sl1) & F1), C2 as (g2 & G2 & S2).
    repeat split.
    + destruct Gf as [Gf | Gf].
      * exists gf; split; auto.
      * exists (sapp gf g2); split; [right; eauto 7 | eapply sub_trans; [exact Sf1 | apply sub_appl]].
    + exists (sapp gl g2); split; [| apply sub_app; auto].
      destruct Gl; [left; right | right]; eauto 7.
    + eapply Forall_impl; [| exact F1]; intros h (g & G & S).
      destruct (lift_left T D E g g2 G (or_intror G2)) as (g' & G' & S').
      exists g'; split; auto; eapply sub_trans; eauto.
  - destruct C1 as ((gf1 & Gf1 & Sf1) & (gl1 & Gl1 & Sl1) & F1),
             C2 as ((gf2 & Gf2 & Sf2) & (gl2 & Gl2 & Sl2) & F2).
    repeat split.
    + destruct Gf1 as [Gf1 | Gf1].
      * exists gf1; split; auto.
      * exists (sapp gf1 gf2); split; [| eapply sub_trans; [exact Sf1 | apply sub_appl]].
        destruct Gf2; [left; right | right]; eauto 7.
    + destruct Gl2 as [Gl2 | Gl2].
      * exists gl2; split; auto.
      * exists (sapp gl1 gl2); split; [| eapply sub_trans; [exact Sl2 | apply sub_appr]].
        destruct Gl1; [left; right | right]; eauto 7.
    + apply Forall_app; split; [| constructor].
      * eapply Forall_impl; [| exact F1]; intros h (g & G & S).
        destruct (lift_left T D E g gf2 G Gf2) as (g' & G' & S').
        exists g'; split; auto; eapply sub_trans; eauto.
      * exists (sapp gl1 gf2); split; [apply join; auto | apply sub_app; auto].
      * eapply Forall_impl; [| exact F2]; intros h (g & G & S).
        destruct (lift_right T D E gl1 g G Gl1) as (g' & G' & S').
        exists g'; split; auto; eapply sub_trans; eauto.
Qed.

(** ** A run's intervals lie within the statement's accesses *)

Lemma in_glue : forall X1 X2 f, In f (seg_list (glue X1 X2)) ->
  In f (seg_list X1) \/ In f (seg_list X2) \/
  exists f1 f2, In f1 (seg_list X1) /\ In f2 (seg_list X2) /\ f = sapp f1 f2.
Proof.
  intros [x1 | f1 m1 l1] [x2 | f2 m2 l2] f I; simpl in *;
    repeat rewrite in_app_iff in *; simpl in *.
  - destruct I as [<- | []]; right; right; exists x1, x2; intuition.
  - destruct I as [<- | [I | [<- | []]]].
    + right; right; exists x1, f2; intuition.
    + intuition.
    + intuition.
  - destruct I as [<- | [I | [<- | []]]].
    + intuition.
    + intuition.
    + right; right; exists l1, x2; intuition.
  - destruct I as [<- | [[I | [<- | I]] | [<- | []]]].
    + intuition.
    + intuition.
    + right; right; exists l1, f2; intuition.
    + intuition.
    + intuition.
Qed.

Lemma glue_sub : forall T G X1 X2,
  (forall f, In f (seg_list X1) -> sub T f G) -> (forall f, In f (seg_list X2) -> sub T f G) ->
  forall f, In f (seg_list (glue X1 X2)) -> sub T f G.
Proof.
  intros T G X1 X2 A B f I.
  destruct (in_glue X1 X2 f I) as [I1 | [I2 | (f1 & f2 & I1 & I2 & ->)]]; auto.
  intros t It; unfold sapp; apply incl_app; [apply A | apply B]; auto.
Qed.
