(** * Benign races: "benign" is sound (unsynchronised fragment).

    faial-ts reports a write-write race as benign when both threads surely
    write the same value (spec, section 6).  The MAP keeps a write's value
    expression when it depends on no data ([MWr A ix (Some e)], typing rule
    [TWrite]); the MAP's valued accesses ([mvacc]) pair each access with the
    value written, when known.  We prove that the values are right: a
    well-typed thread's events are the MAP's valued accesses, in order, each
    known value being the value the event writes ([exec_mvacc]).  Hence if
    every conflicting pair of the MAP's phase is two writes of one known
    value ([benign_map]), every conflicting pair of events of the program's
    phase writes one value twice ([benign_sound]): a benign label never hides
    a race of two different values, or with a read or an atomic.  That a
    race labelled benign is real is Theorem 1, unchanged. *)

From Coq Require Import List Arith Bool.
Import ListNotations.
From BabyCUDA Require Import Syntax Semantics Map Typing Theorem1.

(** The MAP's accesses for one thread, each with the value it writes when
    the MAP knows it (a write whose value depends on no data). *)
Fixpoint mvacc (t : thread) (s : env) (u : proto) : list (access * option nat) :=
  match u with
  | MSkip | MSync | MAssume _ => []
  | MRd A ix => [(mkacc t A (evals t s ix) Rd, None)]
  | MWr A ix ov => [(mkacc t A (evals t s ix) Wr, option_map (eval t s) ov)]
  | MAt A ix => [(mkacc t A (evals t s ix) At, None)]
  | MSeq u v => mvacc t s u ++ mvacc t s v
  | MIf c u v => if beval t s c then mvacc t s u else mvacc t s v
  | MFor x lo hi st u => flat_map (fun n => mvacc t (upd s x n) u) (iters t s lo hi st)
  | MLoopVals x vs u => flat_map (fun n => mvacc t (upd s x n) u) vs
  | MLet x e u => mvacc t (upd s x (eval t s e)) u
  end.

Lemma mvacc_accs : forall u t s, map fst (mvacc t s u) = macc t s u.
Proof.
  induction u; intros t s; simpl; auto; rewrite ?map_app, ?IHu1, ?IHu2; auto.
  - destruct (beval t s c); auto.
  - rewrite flat_map_concat_map, concat_map, map_map, flat_map_concat_map.
    f_equal; apply map_ext; auto.
  - rewrite flat_map_concat_map, concat_map, map_map, flat_map_concat_map.
    f_equal; apply map_ext; auto.
Qed.

(** An event and a valued access of the MAP agree: the same access, and the
    value written when the MAP knows it. *)
Definition val_ok (e : event) (av : access * option nat) : Prop :=
  ev_acc e = fst av /\ forall v, snd av = Some v -> ev_val e = v.

(** The general lemma with values: a well-typed thread's events are its
    MAP's valued accesses, in order, every known value right. *)
Lemma exec_mvacc : forall t mem s p evs, exec t mem s p evs ->
  forall V u s', ty V p u -> agree V s s' -> Forall2 val_ok evs (mvacc t s' u).
Proof.
  induction 1; intros V u s' Ty Ag; inversion Ty; subst; simpl.
  - constructor.
  - constructor; [|constructor]. split; simpl.
    + rewrite (evals_wt V t s s' ix); auto.
    + intros v Hv. destruct ov as [e'|]; simpl in Hv; inversion Hv; subst.
      match goal with H : forall e'', Some e' = Some e'' -> _ |- _ => destruct (H e' eq_refl) as [-> W] end.
      apply eval_wt with V; auto.
  - constructor; [split; simpl; [rewrite (evals_wt V t s s' ix); auto | discriminate]|].
    eapply IHexec; eauto. apply agree_vdel; auto.
  - constructor; [split; simpl; [rewrite (evals_wt V t s s' ix); auto | discriminate]|].
    eapply IHexec; eauto. apply agree_vdel; auto.
  - eapply IHexec; eauto. rewrite <- (eval_wt V t s s' e); auto. apply agree_vadd; auto.
  - eapply IHexec; eauto. apply agree_vdel; auto.
  - apply Forall2_app; eauto.
  - rewrite <- (beval_wt V t s s' c), H; eauto.
  - rewrite <- (beval_wt V t s s' c), H; eauto.
  - rewrite <- (iters_wt V t s s' lo hi st); auto.
    specialize (IHexec V (MLoopVals x (iters t s lo hi st) u0) s').
    simpl in IHexec; apply IHexec; auto; constructor; auto.
  - constructor.
  - apply Forall2_app.
    + eapply IHexec1; eauto. apply agree_vadd; auto.
    + specialize (IHexec2 V (MLoopVals x vs u0) s'); simpl in IHexec2; apply IHexec2; auto.
      constructor; auto.
  - constructor.
Qed.

(** The MAP's valued phase for the threads [T]. *)
Definition mvphase (T : list thread) (s : env) (u : proto) : list (access * option nat) :=
  flat_map (fun t => mvacc t s u) T.

Lemma par_threads_mvphase : forall V mem s p u T P,
  ty V p u -> par_threads mem s p T P -> Forall2 val_ok P (mvphase T s u).
Proof.
  intros V mem s p u T P Ty PT; induction PT; simpl; [constructor|].
  apply Forall2_app; auto. eapply exec_mvacc; eauto. apply agree_refl.
Qed.

(** What faial-ts checks before saying "benign": every conflicting pair of
    the MAP's phase is two accesses whose written values are known and equal
    (so two writes: reads and atomics have no known value). *)
Definition benign_map (L : list (access * option nat)) : Prop :=
  forall x y, In x L -> In y L -> conflict (fst x) (fst y) ->
  exists v, snd x = Some v /\ snd y = Some v.

(** Only writes have known values. *)
Lemma mvacc_known : forall t s u av, In av (mvacc t s u) -> forall v, snd av = Some v -> a_mode (fst av) = Wr.
Proof.
  intros t s u; revert s; induction u; intros s av Hx v Hv; simpl in Hx;
    repeat match goal with
    | H : In _ (_ ++ _) |- _ => apply in_app_or in H; destruct H
    | H : In _ (flat_map _ _) |- _ => apply in_flat_map in H; destruct H as [? [_ H]]
    | H : _ \/ _ |- _ => destruct H
    | H : False |- _ => contradiction
    end; subst; simpl in *; try discriminate; eauto.
  destruct (beval t s c); eauto.
Qed.

Lemma Forall2_in_l : forall {A B} (R : A -> B -> Prop) l1 l2 a,
  Forall2 R l1 l2 -> In a l1 -> exists b, In b l2 /\ R a b.
Proof.
  induction 1; simpl; intros Hin; [contradiction|].
  destruct Hin as [<-|H1]; [exists y; auto | destruct (IHForall2 H1) as [b [? ?]]; exists b; auto].
Qed.

(** "Benign" is sound: for a well-typed program whose MAP's phase has only
    benign races, every race of the program's phase is two writes of one
    value. *)
Theorem benign_sound : forall V mem s p u T P,
  ty V p u -> par_threads mem s p T P -> benign_map (mvphase T s u) ->
  forall e1 e2, In e1 P -> In e2 P -> conflict (ev_acc e1) (ev_acc e2) ->
  a_mode (ev_acc e1) = Wr /\ a_mode (ev_acc e2) = Wr /\ ev_val e1 = ev_val e2.
Proof.
  intros V mem s p u T P Ty PT B e1 e2 H1 H2 C.
  pose proof (par_threads_mvphase V mem s p u T P Ty PT) as F.
  destruct (Forall2_in_l _ _ _ _ F H1) as [x [Hx [A1 V1]]].
  destruct (Forall2_in_l _ _ _ _ F H2) as [y [Hy [A2 V2]]].
  rewrite A1, A2 in C. destruct (B x y Hx Hy C) as [v [Ex Ey]].
  rewrite (V1 v Ex), (V2 v Ey). repeat split; auto.
  - (* a known value is a write's *)
    clear -Hx Ex A1. unfold mvphase in Hx. apply in_flat_map in Hx; destruct Hx as [t [_ Hx]].
    rewrite A1. exact (mvacc_known t s u x Hx v Ex).
  - clear -Hy Ey A2. unfold mvphase in Hy. apply in_flat_map in Hy; destruct Hy as [t [_ Hy]].
    rewrite A2. exact (mvacc_known t s u y Hy v Ey).
Qed.
