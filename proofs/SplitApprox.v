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

Lemma gluel_sub : forall T G Ss, Forall (fun X => forall f, In f (seg_list X) -> sub T f G) Ss ->
  forall f, In f (seg_list (gluel Ss)) -> sub T f G.
Proof.
  intros T G Ss F; induction F as [| X Ss A F IH]; intros f I.
  - destruct I as [<- | []]; intros t _ a [].
  - destruct Ss as [| X' Ss']; [apply A; exact I |].
    change (gluel (X :: X' :: Ss')) with (glue X (gluel (X' :: Ss'))) in I.
    apply (glue_sub T G X (gluel (X' :: Ss'))); auto.
Qed.

Lemma F2_mem : forall {A B} (P : A -> B -> Prop) l l', Forall2 P l l' ->
  Forall (fun y => exists x, In x l /\ P x y) l'.
Proof.
  intros A B P l l' F; induction F as [| x y l l' Hxy F IH]; constructor; [eauto using in_eq |].
  eapply Forall_impl; [| exact IH]; intros y' (x' & I & H'); exists x'; split; [right |]; auto.
Qed.

(** Every interval of a run holds only accesses of the statement. *)
Lemma jsegs_incl : forall u T s X, jsegs T s u X ->
  forall f, In f (seg_list X) -> sub T f (fun t => macc t s u).
Proof.
  induction u; intros T s X J f I; inversion J; subst;
    try (simpl in I; destruct I as [<- | []]; apply sub_refl; fail).
  - (* sequence *)
    eapply glue_sub; [| | exact I]; intros g Ig t It; simpl.
    + apply incl_appl; eapply IHu1; eauto.
    + apply incl_appr; eapply IHu2; eauto.
  - intros t It; simpl; rewrite (H6 t It) || idtac;
      match goal with B : forall t, In t T -> beval t s c = true |- _ => rewrite (B t It) end.
    eapply IHu1; eauto.
  - intros t It; simpl;
      match goal with B : forall t, In t T -> beval t s c = false |- _ => rewrite (B t It) end.
    eapply IHu2; eauto.
  - (* for *)
    eapply gluel_sub; [| exact I].
    match goal with F : Forall2 _ _ _ |- _ => apply F2_mem in F; eapply Forall_impl; [| exact F] end.
    intros X' (v & Iv & J') g Ig t It; simpl.
    match goal with U : forall t, In t T -> iters t s lo hi st = _ |- _ => rewrite (U t It) end.
    intros a Ia; apply in_flat_map; exists v; split; auto; eapply IHu; eauto.
  - (* loop values *)
    eapply gluel_sub; [| exact I].
    match goal with F : Forall2 _ _ _ |- _ => apply F2_mem in F; eapply Forall_impl; [| exact F] end.
    intros X' (v & Iv & J') g Ig t It; simpl.
    intros a Ia; apply in_flat_map; exists v; split; auto; eapply IHu; eauto.
  - (* let *)
    intros t It; simpl;
      match goal with E : forall t, In t T -> eval t s e = _ |- _ => rewrite (E t It) end.
    eapply IHu; eauto.
  - (* sync *)
    simpl in I; destruct I as [<- | [<- | []]]; intros t _ a [].
Qed.

(** A run's assumptions hold. *)
Lemma jsegs_mok : forall u T s X, jsegs T s u X -> forall t, In t T -> mok t s u.
Proof.
  induction u; intros T s X J t It; inversion J; subst;
    try (match goal with H : forall t, In t T -> mok t s _ |- _ => exact (H t It) end); simpl; auto.
  - split; eauto.
  - match goal with B : forall t, In t T -> beval t s c = true |- _ => rewrite (B t It) end; eauto.
  - match goal with B : forall t, In t T -> beval t s c = false |- _ => rewrite (B t It) end; eauto.
  - match goal with U : forall t, In t T -> iters t s lo hi st = _ |- _ => rewrite (U t It) end.
    match goal with F : Forall2 _ _ _ |- _ => clear -F IHu It; induction F; constructor; eauto end.
  - match goal with F : Forall2 _ _ _ |- _ => clear -F IHu It; induction F; constructor; eauto end.
  - match goal with E : forall t, In t T -> eval t s e = _ |- _ => rewrite (E t It) end; eauto.
Qed.

(** ** Every interval lies within an instance of a phase *)

Lemma msem_cov : forall T D X, msem D X -> cov T D X.
Proof.
  intros T D [x | f m l] (S0 & _); simpl in *.
  - exists x; split; auto; apply sub_refl.
  - destruct S0 as (A & B & C); repeat split.
    + exists f; split; auto; apply sub_refl.
    + exists l; split; auto; apply sub_refl.
    + eapply Forall_impl; [| exact C]; intros h H; exists h; split; [unfold anyp; auto | apply sub_refl].
Qed.

Lemma cov_erased : forall T s w X, jsegs T s w X -> cov T (den T s (free_summ w)) X.
Proof.
  intros T s w X J.
  assert (G : Sn (den T s (free_summ w)) (fun t => macc t s w)).
  { exists (CProto w); split; [reflexivity | constructor; eapply jsegs_mok; eauto]. }
  pose proof (jsegs_incl w T s X J) as Inc.
  destruct X as [x | f m l]; simpl in *.
  - exists (fun t => macc t s w); split; auto.
  - repeat split.
    + exists (fun t => macc t s w); split; auto.
    + exists (fun t => macc t s w); split; auto; apply Inc; right; apply in_or_app; right; left; auto.
    + apply Forall_forall; intros h Ih; exists (fun t => macc t s w); split; [left; auto |].
      apply Inc; right; apply in_or_app; auto.
Qed.

Lemma cov_LD : forall T D vs Xs, (forall n f, ~ Sn (D n) f) ->
  Forall2 (fun v X => cov T (D v) X) vs Xs -> vs <> [] -> cov T (LD D vs) (gluel Xs).
Proof.
  intros T D vs Xs NS F; induction F as [| v X vs Xs M F IH]; intros NE; [congruence |].
  destruct F as [| w X' vs' Xs' M' F'].
  - simpl; eapply cov_equiv; [apply sequiv_sym, LD_one; auto | auto].
  - change (gluel (X :: X' :: Xs')) with (glue X (gluel (X' :: Xs'))).
    eapply cov_equiv; [apply LD_cons; auto |].
    apply cov_glue; auto. apply IH; discriminate.
Qed.

Lemma cov_sub : forall T s u X, T <> [] -> has_sync u = false -> jsegs T s u X ->
  cov T (den T s (split u)) X.
Proof.
  intros T s u X NE Hs J; rewrite split_free by auto.
  destruct (jsegs_free T s u X Hs J) as [-> Ok]; apply msem_cov, msem_free; auto.
Qed.

Theorem split_cov : forall u T s X, T <> [] -> jsegs T s u X -> cov T (den T s (split u)) X.
Proof.
  intros u T s X NE J.
  destruct (has_sync u) eqn:Hs; [| apply cov_sub; auto].
  revert T s X NE J Hs.
  induction u; intros T s X NE J Hs; simpl in Hs; try discriminate;
    simpl split; rewrite ?Hs.
  - (* sequence *)
    inversion J; subst; simpl in *; [congruence |].
    eapply cov_equiv; [apply sequiv_sym, den_sequence |].
    apply cov_glue.
    + destruct (has_sync u1) eqn:Hs1; [apply IHu1; auto | apply cov_sub; auto].
    + destruct (has_sync u2) eqn:Hs2; [apply IHu2; auto | apply cov_sub; auto].
  - (* if *)
    inversion J; subst; simpl in *; [congruence | |].
    + eapply cov_equiv; [apply sequiv_sym, den_if_true; auto |].
      destruct (has_sync u1) eqn:Hs1; [apply IHu1; auto | apply cov_sub; auto].
    + eapply cov_equiv; [apply sequiv_sym, den_if_false; auto |].
      destruct (has_sync u2) eqn:Hs2; [apply IHu2; auto | apply cov_sub; auto].
  - (* for *)
    unfold loop_summ.
    destruct (sn (split u)) eqn:Hn; [apply cov_erased; auto |].
    destruct (sf (split u)) as [bf|] eqn:Hf; [| apply cov_erased; auto].
    destruct (sl (split u)) as [bl|] eqn:Hl; [| apply cov_erased; auto].
    inversion J; subst; [simpl in *; congruence |].
    match goal with F : Forall2 _ ?vs ?Ss |- _ => rename vs into vs0; rename Ss into Ss0; rename F into F0 end.
    assert (M : Forall2 (fun v X => cov T (den T (upd s x v) (split u)) X) vs0 Ss0).
    { eapply F2_impl; [| exact F0]; intros v X' J'; apply IHu; auto. }
    destruct vs0 as [|v vs'].
    + inversion F0; subst; change (gluel []) with (One snil).
      apply msem_cov.
      assert (E : loop_summ (MFor x lo hi st u) x (RFor lo hi st) (split u) =
                  mksumm (Some (CEmpty (RFor lo hi st))) (Some (CBind x RFirst (RFor lo hi st) bf))
                         (Some (CBind x RLast (RFor lo hi st) bl))
                         (map (CBind x RMember (RFor lo hi st)) (sp (split u)) ++ [CStep x (RFor lo hi st) bl bf]))
        by (unfold loop_summ; rewrite Hn, Hf, Hl; reflexivity).
      rewrite <- E; apply msem_loop_nil; auto; congruence.
    + assert (E : loop_summ (MFor x lo hi st u) x (RFor lo hi st) (split u) =
                  mksumm (Some (CEmpty (RFor lo hi st))) (Some (CBind x RFirst (RFor lo hi st) bf))
                         (Some (CBind x RLast (RFor lo hi st) bl))
                         (map (CBind x RMember (RFor lo hi st)) (sp (split u)) ++ [CStep x (RFor lo hi st) bl bf]))
        by (unfold loop_summ; rewrite Hn, Hf, Hl; reflexivity).
      rewrite <- E.
      eapply cov_equiv; [apply sequiv_sym; eapply den_loop; eauto; simpl; congruence |].
      apply cov_LD; auto; [| discriminate].
      intros n f (c & E' & _); simpl in E'; congruence.
  - (* loop values *)
    unfold loop_summ.
    destruct (sn (split u)) eqn:Hn; [apply cov_erased; auto |].
    destruct (sf (split u)) as [bf|] eqn:Hf; [| apply cov_erased; auto].
    destruct (sl (split u)) as [bl|] eqn:Hl; [| apply cov_erased; auto].
    inversion J; subst; [simpl in *; congruence |].
    match goal with F : Forall2 _ vs ?Ss |- _ => rename Ss into Ss0; rename F into F0 end.
    assert (M : Forall2 (fun v X => cov T (den T (upd s x v) (split u)) X) vs Ss0).
    { eapply F2_impl; [| exact F0]; intros v X' J'; apply IHu; auto. }
    assert (E : loop_summ (MLoopVals x vs u) x (RVals vs) (split u) =
                mksumm (Some (CEmpty (RVals vs))) (Some (CBind x RFirst (RVals vs) bf))
                       (Some (CBind x RLast (RVals vs) bl))
                       (map (CBind x RMember (RVals vs)) (sp (split u)) ++ [CStep x (RVals vs) bl bf]))
      by (unfold loop_summ; rewrite Hn, Hf, Hl; reflexivity).
    rewrite <- E.
    destruct vs as [|v vs'].
    + inversion F0; subst; change (gluel []) with (One snil).
      apply msem_cov; apply msem_loop_nil; auto; congruence.
    + eapply cov_equiv;
        [apply sequiv_sym; apply (den_loop T s _ x (RVals (v :: vs')) (split u) bf bl (v :: vs')); auto; discriminate |].
      apply cov_LD; auto; [| discriminate].
      intros n f (c & E' & _); simpl in E'; congruence.
  - (* let *)
    inversion J; subst; simpl in *; [congruence |].
    eapply cov_equiv; [apply sequiv_sym, den_let; eauto |].
    apply IHu; auto.
  - (* sync *)
    inversion J; subst; [discriminate | apply msem_cov, msem_sync].
Qed.

(** Every interval of the block's lock-step run lies, thread by thread,
    within an instance of a phase of the split, erased loops or not. *)
Theorem split_cover : forall u T s X, T <> [] -> jsegs T s u X ->
  forall f, In f (seg_list X) -> exists c g, In c (split_phases u) /\ jph T s c g /\ sub T f g.
Proof.
  intros u T s X NE J f I.
  pose proof (split_cov u T s X NE J) as C; unfold split_phases.
  assert (Pn : forall g, Sn (den T s (split u)) g -> exists c, In c (split_phases u) /\ jph T s c g).
  { intros g (c & E & Jc); exists c; split; auto; unfold split_phases; rewrite E; simpl; auto. }
  assert (Pf : forall g, Sf (den T s (split u)) g -> exists c, In c (split_phases u) /\ jph T s c g).
  { intros g (c & E & Jc); exists c; split; auto; unfold split_phases; rewrite E.
    apply in_or_app; right; left; auto. }
  assert (Pl : forall g, Sl (den T s (split u)) g -> exists c, In c (split_phases u) /\ jph T s c g).
  { intros g (c & E & Jc); exists c; split; auto; unfold split_phases; rewrite E.
    apply in_or_app; right; apply in_or_app; right; apply in_or_app; right; left; auto. }
  assert (Pp : forall g, Sp (den T s (split u)) g -> exists c, In c (split_phases u) /\ jph T s c g).
  { intros g (c & Ic & Jc); exists c; split; auto; unfold split_phases.
    apply in_or_app; right; apply in_or_app; right; apply in_or_app; left; auto. }
  assert (Pa : forall g, anyp (den T s (split u)) g -> exists c, In c (split_phases u) /\ jph T s c g).
  { intros g [G | [G | [G | G]]]; auto. }
  clear Pn Pf Pl Pp.
  destruct X as [x | f0 m l]; simpl in *.
  - destruct I as [<- | []]; destruct C as (g & G & S).
    destruct (Pa g) as (c & Ic & Jc); [left; auto | eauto].
  - destruct C as ((g1 & G1 & S1) & (g2 & G2 & S2) & F).
    destruct I as [<- | I].
    + destruct (Pa g1) as (c & Ic & Jc); [destruct G1; unfold anyp; tauto | eauto].
    + apply in_app_or in I; destruct I as [I | [<- | []]].
      * rewrite Forall_forall in F; destruct (F f I) as (g & G & S).
        destruct (Pa g G) as (c & Ic & Jc); eauto.
      * destruct (Pa g2) as (c & Ic & Jc); [destruct G2; unfold anyp; tauto | eauto].
Qed.

Lemma sub_flat_map : forall T f g, sub T f g -> incl (flat_map f T) (flat_map g T).
Proof.
  intros T f g S a Ia; apply in_flat_map in Ia; destruct Ia as (t & It & Ia).
  apply in_flat_map; exists t; split; auto; apply S; auto.
Qed.

(** Theorem 1 with the split's fallback: for a well-typed program whose
    MAP has uniform barriers for the block [T] (erased loops allowed),
    run from a DRF history, if every instance of every phase of the split
    is DRF then the output history is DRF: "DRF" is sound. *)
Theorem theorem1_split_approx : forall V T s p u H H',
  ty V p u -> uniform T u -> T <> [] -> drf_hist H -> kernel_run T s p H H' ->
  (forall c g, In c (split_phases u) -> jph T s c g -> drf_accs (flat_map g T)) ->
  drf_hist H'.
Proof.
  intros V T s p u H H' Ty U NT D R All.
  destruct (proto_phases_exist V T s p u H H' Ty R) as [As P].
  destruct (mrun_all_jsegs T s u As NT U P) as (X & J & ->).
  apply (theorem1_sync V T s p u H H' _ Ty D R P).
  rewrite Forall_map, Forall_forall; intros f If.
  destruct (split_cover u T s X NT J f If) as (c & g & Ic & Jc & S).
  intros a b Ia Ib; apply (All c g Ic Jc); apply sub_flat_map with (f := f); auto.
Qed.
