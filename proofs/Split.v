(** * The phase split of a MAP (as [src/phases/split.ts] computes it) and
    the theorem that its phases are the barrier intervals.

    [split] summarises every statement as the TypeScript [summarise] does:
    - [sn], what it runs on paths that meet no barrier ([noSync]),
    - [sf], what it runs up to its first barrier ([first]),
    - [sl], what it runs after its last barrier ([last]),
    - [sp], the phases that lie wholly inside it ([phases]).
    A phase is a piece of barrier-free code ([pcode]) that all threads of a
    block run together: conditions around barriers are block-uniform (both
    alternatives of [if] are taken by all threads or none), and a loop
    whose body always meets a barrier is aligned, its variable shared by
    the threads ([CBind]); the end of iteration [n] and the start of the
    next iteration [m] form one phase ([CStep]).  A loop whose body may
    finish an iteration without a barrier has its barriers erased (the
    split's over-approximation), as in TypeScript; [aligned] says that no
    loop is erased, and the theorem is about such MAPs.

    The barrier intervals of a run are given by [jsegs]: the threads of the
    block run the MAP in lock-step, taking the same alternative of every
    condition around a barrier and the same values of every loop around
    one; an interval is a function from threads to the accesses the thread
    performs in it.  [jsegs_mrun_all] proves that these intervals, flattened
    in thread order, are the phases of the lock-step semantics [mrun_all]
    of [Sync.v] (when the threads are uniform, [mrun_all] is the same run).

    The main theorem [split_intervals]: for a MAP without erased loops and
    a non-empty list of threads, every interval of the run is an instance
    of a phase of the split, and every instance of a phase of the split is
    an interval of the run. *)

From Coq Require Import List Arith Bool.
Import ListNotations.
From BabyCUDA Require Import Syntax Semantics Map Sync.

(** ** Barrier-free code and the phases' code *)

Fixpoint has_sync (u : proto) : bool :=
  match u with
  | MSync => true
  | MSeq u v | MIf _ u v => has_sync u || has_sync v
  | MFor _ _ _ _ u | MLoopVals _ _ u | MLet _ _ u => has_sync u
  | _ => false
  end.

(** The assumptions a thread meets in a barrier-free run of [u] hold. *)
Fixpoint mok (t : thread) (s : env) (u : proto) : Prop :=
  match u with
  | MAssume c => beval t s c = true
  | MSeq u v => mok t s u /\ mok t s v
  | MIf c u v => if beval t s c then mok t s u else mok t s v
  | MFor x lo hi st u => Forall (fun n => mok t (upd s x n) u) (iters t s lo hi st)
  | MLoopVals x vs u => Forall (fun n => mok t (upd s x n) u) vs
  | MLet x e u => mok t (upd s x (eval t s e)) u
  | _ => True
  end.

(** A loop's range: its bounds and step, or the run-time list of values. *)
Inductive range := RFor (lo hi : nexp) (st : step) | RVals (vs : list nat).

Definition rvals (t : thread) (s : env) (r : range) : list nat :=
  match r with RFor lo hi st => iters t s lo hi st | RVals vs => vs end.

(** The relations of a shared loop variable to its range ([Relation] in
    [src/phases/code.ts]: [member], [first], [last]; [next] is [CStep]). *)
Inductive rel := RMember | RFirst | RLast.

Definition rel_holds (k : rel) (vs : list nat) (n : nat) : Prop :=
  match k with
  | RMember => In n vs
  | RFirst => exists l, vs = n :: l
  | RLast => exists l, vs = l ++ [n]
  end.

(** The code of a phase ([Code] in [src/phases/code.ts]). *)
Inductive pcode :=
| CProto (u : proto)              (** barrier-free code: each thread runs it ([codeOf]) *)
| CSeq (a b : pcode)
| CChoice (a b : pcode)           (** one of two ([choice]) *)
| CIf (c : bexp) (a b : pcode)    (** a uniform condition ([if]; [assume c] is [CIf c a CUnreach]) *)
| CUnreach                        (** no run ([UNREACHABLE]) *)
| CEmpty (r : range)              (** the range is empty ([empty]) *)
| CLet (x : var) (e : nexp) (a : pcode)
| CBind (x : var) (k : rel) (r : range) (a : pcode)
    (** a loop variable shared by the threads, related to its range ([bind]) *)
| CStep (x : var) (r : range) (a b : pcode).
    (** [a] at a value [n] of the range and [b] at the next one
        ([bind x member (bind x' (next x) (a; b[x'/x]))]) *)

(** An interval (or a phase's instance): each thread's accesses. *)
Definition seg := thread -> list access.
Definition snil : seg := fun _ => [].
Definition sapp (f g : seg) : seg := fun t => f t ++ g t.

(** [jph T s c f]: [f] is an instance of phase [c] for the threads [T]:
    the threads agree on every condition, let and shared loop value. *)
Inductive jph (T : list thread) : env -> pcode -> seg -> Prop :=
| JPProto s u : (forall t, In t T -> mok t s u) -> jph T s (CProto u) (fun t => macc t s u)
| JPSeq s a b f g : jph T s a f -> jph T s b g -> jph T s (CSeq a b) (sapp f g)
| JPChoiceL s a b f : jph T s a f -> jph T s (CChoice a b) f
| JPChoiceR s a b f : jph T s b f -> jph T s (CChoice a b) f
| JPIfT s c a b f : (forall t, In t T -> beval t s c = true) -> jph T s a f -> jph T s (CIf c a b) f
| JPIfF s c a b f : (forall t, In t T -> beval t s c = false) -> jph T s b f -> jph T s (CIf c a b) f
| JPEmpty s r : (forall t, In t T -> rvals t s r = []) -> jph T s (CEmpty r) snil
| JPLet s x e a n f :
    (forall t, In t T -> eval t s e = n) -> jph T (upd s x n) a f -> jph T s (CLet x e a) f
| JPBind s x k r a n f :
    (forall t, In t T -> rel_holds k (rvals t s r) n) -> jph T (upd s x n) a f ->
    jph T s (CBind x k r a) f
| JPStep s x r a b n m f g :
    (forall t, In t T -> exists l1 l2, rvals t s r = l1 ++ n :: m :: l2) ->
    jph T (upd s x n) a f -> jph T (upd s x m) b g -> jph T s (CStep x r a b) (sapp f g).

(** ** The split *)
Record summ := mksumm { sn : option pcode; sf : option pcode; sl : option pcode; sp : list pcode }.

Definition alt (x y : option pcode) : option pcode :=
  match x, y with
  | None, _ => y
  | _, None => x
  | Some a, Some b => Some (CChoice a b)
  end.
Definition oseq (x y : option pcode) : option pcode :=
  match x, y with Some a, Some b => Some (CSeq a b) | _, _ => None end.
Definition olist (x : option pcode) : list pcode :=
  match x with Some a => [a] | None => [] end.

(** [sequence] of [split.ts]. *)
Definition sequence (a b : summ) : summ :=
  mksumm (oseq (sn a) (sn b))
         (alt (sf a) (oseq (sn a) (sf b)))
         (alt (sl b) (oseq (sl a) (sn b)))
         (sp a ++ sp b ++ olist (oseq (sl a) (sf b))).

Definition odflt (x : option pcode) : pcode := match x with Some a => a | None => CUnreach end.
Definition branch (c : bexp) (x y : option pcode) : option pcode :=
  match x, y with None, None => None | _, _ => Some (CIf c (odflt x) (odflt y)) end.

Definition if_summ (c : bexp) (a b : summ) : summ :=
  mksumm (branch c (sn a) (sn b)) (branch c (sf a) (sf b)) (branch c (sl a) (sl b))
         (map (fun ph => CIf c ph CUnreach) (sp a) ++ map (fun ph => CIf c CUnreach ph) (sp b)).

Definition let_summ (x : var) (e : nexp) (a : summ) : summ :=
  mksumm (option_map (CLet x e) (sn a)) (option_map (CLet x e) (sf a))
         (option_map (CLet x e) (sl a)) (map (CLet x e) (sp a)).

(** A statement without barriers (or an erased loop) is its own code. *)
Definition free_summ (u : proto) : summ := mksumm (Some (CProto u)) None None [].

(** A loop: aligned when its body always meets a barrier, else erased. *)
Definition loop_summ (w : proto) (x : var) (r : range) (b : summ) : summ :=
  match sn b, sf b, sl b with
  | None, Some bf, Some bl =>
      mksumm (Some (CEmpty r)) (Some (CBind x RFirst r bf)) (Some (CBind x RLast r bl))
             (map (CBind x RMember r) (sp b) ++ [CStep x r bl bf])
  | _, _, _ => free_summ w
  end.

Fixpoint split (w : proto) : summ :=
  if has_sync w then
    match w with
    | MSync => mksumm None (Some (CProto MSkip)) (Some (CProto MSkip)) []
    | MSeq u v => sequence (split u) (split v)
    | MIf c u v => if_summ c (split u) (split v)
    | MFor x lo hi st u => loop_summ w x (RFor lo hi st) (split u)
    | MLoopVals x vs u => loop_summ w x (RVals vs) (split u)
    | MLet x e u => let_summ x e (split u)
    | _ => free_summ w
    end
  else free_summ w.

Definition loop_aligned (b : summ) : bool :=
  match sn b, sf b, sl b with None, Some _, Some _ => true | _, _, _ => false end.

(** No loop around a barrier is erased. *)
Fixpoint aligned (w : proto) : bool :=
  match w with
  | MSeq u v | MIf _ u v => aligned u && aligned v
  | MFor _ _ _ _ u | MLoopVals _ _ u => aligned u && (negb (has_sync u) || loop_aligned (split u))
  | MLet _ _ u => aligned u
  | _ => true
  end.

(** The phases of the kernel ([splitPhases]): the code without barriers,
    up to the first barrier, the phases inside, after the last barrier. *)
Definition split_phases (u : proto) : list pcode :=
  olist (sn (split u)) ++ olist (sf (split u)) ++ sp (split u) ++ olist (sl (split u)).

(** ** Barrier intervals of a lock-step run *)
Inductive segs := One (x : seg) | Many (f : seg) (m : list seg) (l : seg).

Definition glue (S1 S2 : segs) : segs :=
  match S1, S2 with
  | One x, One y => One (sapp x y)
  | One x, Many f m l => Many (sapp x f) m l
  | Many f m l, One y => Many f m (sapp l y)
  | Many f1 m1 l1, Many f2 m2 l2 => Many f1 (m1 ++ sapp l1 f2 :: m2) l2
  end.

Fixpoint gluel (Ss : list segs) : segs :=
  match Ss with
  | [] => One snil
  | X :: Ss' => match Ss' with [] => X | _ => glue X (gluel Ss') end
  end.

Definition seg_list (S : segs) : list seg :=
  match S with One x => [x] | Many f m l => f :: m ++ [l] end.

(** [jsegs T s u S]: the threads [T] run [u] from [s] in lock-step with the
    intervals [S].  Barrier-free code runs thread by thread. *)
Inductive jsegs (T : list thread) : env -> proto -> segs -> Prop :=
| JSFree s u : has_sync u = false -> (forall t, In t T -> mok t s u) ->
    jsegs T s u (One (fun t => macc t s u))
| JSSync s : jsegs T s MSync (Many snil [] snil)
| JSSeq s u v S1 S2 : has_sync (MSeq u v) = true -> jsegs T s u S1 -> jsegs T s v S2 ->
    jsegs T s (MSeq u v) (glue S1 S2)
| JSIfT s c u v S : has_sync (MIf c u v) = true -> (forall t, In t T -> beval t s c = true) ->
    jsegs T s u S -> jsegs T s (MIf c u v) S
| JSIfF s c u v S : has_sync (MIf c u v) = true -> (forall t, In t T -> beval t s c = false) ->
    jsegs T s v S -> jsegs T s (MIf c u v) S
| JSFor s x lo hi st u vs Ss : has_sync u = true ->
    (forall t, In t T -> iters t s lo hi st = vs) ->
    Forall2 (fun v X => jsegs T (upd s x v) u X) vs Ss ->
    jsegs T s (MFor x lo hi st u) (gluel Ss)
| JSLoopVals s x vs u Ss : has_sync u = true ->
    Forall2 (fun v X => jsegs T (upd s x v) u X) vs Ss ->
    jsegs T s (MLoopVals x vs u) (gluel Ss)
| JSLet s x e u n S : has_sync u = true -> (forall t, In t T -> eval t s e = n) ->
    jsegs T (upd s x n) u S -> jsegs T s (MLet x e u) S.

(** ** Summaries as sets of instances *)

(** The instances of a summary's parts. *)
Record ssumm := mkss { Sn : seg -> Prop; Sf : seg -> Prop; Sl : seg -> Prop; Sp : seg -> Prop }.

Definition den (T : list thread) (s : env) (a : summ) : ssumm :=
  mkss (fun f => exists c, sn a = Some c /\ jph T s c f)
       (fun f => exists c, sf a = Some c /\ jph T s c f)
       (fun f => exists c, sl a = Some c /\ jph T s c f)
       (fun f => exists c, In c (sp a) /\ jph T s c f).

(** [msem D X]: the intervals [X] of a run are instances of the parts of
    [D] (a single interval: of [Sn]; else the first of [Sf], the last of
    [Sl], the others of [Sp]), and every instance of a part is the
    corresponding interval of [X]. *)
Definition msem (D : ssumm) (X : segs) : Prop :=
  match X with
  | One x => Sn D x
  | Many f m l => Sf D f /\ Sl D l /\ Forall (Sp D) m
  end /\
  (forall f, Sn D f -> X = One f) /\
  (forall f, Sf D f -> exists m l, X = Many f m l) /\
  (forall l, Sl D l -> exists f m, X = Many f m l) /\
  (forall g, Sp D g -> exists f m l, X = Many f m l /\ In g m).

Definition sequiv (D E : ssumm) : Prop :=
  (forall f, Sn D f <-> Sn E f) /\ (forall f, Sf D f <-> Sf E f) /\
  (forall f, Sl D f <-> Sl E f) /\ (forall f, Sp D f <-> Sp E f).

Lemma msem_equiv : forall D E X, sequiv D E -> msem D X -> msem E X.
Proof.
  intros D E X (Hn & Hf & Hl & Hp) (S0 & Cn & Cf & Cl & Cp).
  split; [| repeat split].
  - destruct X as [x | f m l]; simpl in *.
    + apply Hn; auto.
    + destruct S0 as (A & B & C); repeat split; [apply Hf | apply Hl |]; auto.
      eapply Forall_impl; [| exact C]; intros; apply Hp; auto.
  - intros f H; apply Cn, Hn; auto.
  - intros f H; apply Cf, Hf; auto.
  - intros f H; apply Cl, Hl; auto.
  - intros f H; apply Cp, Hp; auto.
Qed.

(** Two statements in sequence ([sequence], semantically). *)
Definition sseq (D E : ssumm) : ssumm :=
  mkss (fun h => exists f g, Sn D f /\ Sn E g /\ h = sapp f g)
       (fun h => Sf D h \/ exists f g, Sn D f /\ Sf E g /\ h = sapp f g)
       (fun h => Sl E h \/ exists f g, Sl D f /\ Sn E g /\ h = sapp f g)
       (fun h => Sp D h \/ Sp E h \/ exists f g, Sl D f /\ Sf E g /\ h = sapp f g).

Lemma msem_glue : forall D E X1 X2, msem D X1 -> msem E X2 -> msem (sseq D E) (glue X1 X2).
Proof.
  intros D E X1 X2 (S1 & Cn1 & Cf1 & Cl1 & Cp1) (S2 & Cn2 & Cf2 & Cl2 & Cp2).
  split; [| repeat split].
  - destruct X1 as [x1 | f1 m1 l1], X2 as [x2 | f2 m2 l2]; simpl in *.
    + eauto 6.
    + destruct S2 as (A & B & C); repeat split; eauto 7.
      eapply Forall_impl; [| exact C]; simpl; auto.
    + destruct S1 as (A & B & C); repeat split; eauto 7.
      eapply Forall_impl; [| exact C]; simpl; auto.
    + destruct S1 as (A1 & B1 & C1), S2 as (A2 & B2 & C2); repeat split; auto.
      apply Forall_app; split; [| constructor].
      * eapply Forall_impl; [| exact C1]; simpl; auto.
      * simpl; eauto 8.
      * eapply Forall_impl; [| exact C2]; simpl; auto.
  - intros h (f & g & Hf & Hg & ->).
    rewrite (Cn1 f Hf), (Cn2 g Hg); reflexivity.
  - intros h [Hh | (f & g & Hf & Hg & ->)].
    + destruct (Cf1 h Hh) as (m & l & ->); destruct X2; simpl; eauto.
    + rewrite (Cn1 f Hf); destruct (Cf2 g Hg) as (m & l & ->); simpl; eauto.
  - intros h [Hh | (f & g & Hf & Hg & ->)].
    + destruct (Cl2 h Hh) as (f & m & ->); destruct X1; simpl; eauto.
    + rewrite (Cn2 g Hg); destruct (Cl1 f Hf) as (f' & m & ->); simpl; eauto.
  - intros h [Hh | [Hh | (f & g & Hf & Hg & ->)]].
    + destruct (Cp1 h Hh) as (f & m & l & -> & I); destruct X2; simpl.
      * eauto.
      * do 3 eexists; split; [reflexivity | apply in_or_app; auto].
    + destruct (Cp2 h Hh) as (f & m & l & -> & I); destruct X1; simpl.
      * eauto.
      * do 3 eexists; split; [reflexivity | apply in_or_app; right; right; auto].
    + destruct (Cl1 f Hf) as (f1 & m1 & ->); destruct (Cf2 g Hg) as (m2 & l2 & ->); simpl.
      do 3 eexists; split; [reflexivity | apply in_or_app; right; left; auto].
Qed.

(** ** The syntactic summaries denote the semantic ones *)

Lemma jph_unreach : forall T s f, jph T s CUnreach f -> False.
Proof. intros T s f H; inversion H. Qed.

Ltac fin :=
  first
  [ solve [eexists; split; [reflexivity | eassumption]]
  | solve [left; eexists; split; [reflexivity | eassumption]]
  | solve [right; eexists; split; [reflexivity | eassumption]]
  | solve [eauto 10] ].

Lemma alt_iff : forall T s x y f,
  (exists c, alt x y = Some c /\ jph T s c f) <->
  (exists c, x = Some c /\ jph T s c f) \/ (exists c, y = Some c /\ jph T s c f).
Proof.
  intros T s [a|] [b|] f; simpl; split.
  - intros (c & E & J); inversion E; subst; inversion J; subst; fin.
  - intros [(c & E & J) | (c & E & J)]; inversion E; subst; eexists; split;
      first [reflexivity | apply JPChoiceL; assumption | apply JPChoiceR; assumption].
  - intros (c & E & J); inversion E; subst; fin.
  - intros [(c & E & J) | (c & E & J)]; inversion E; subst; fin.
  - intros (c & E & J); inversion E; subst; fin.
  - intros [(c & E & J) | (c & E & J)]; inversion E; subst; fin.
  - intros (c & E & J); discriminate.
  - intros [(c & E & J) | (c & E & J)]; discriminate.
Qed.

Lemma oseq_iff : forall T s x y h,
  (exists c, oseq x y = Some c /\ jph T s c h) <->
  exists f g, (exists c, x = Some c /\ jph T s c f) /\ (exists c, y = Some c /\ jph T s c g) /\ h = sapp f g.
Proof.
  intros T s [a|] [b|] h; simpl; split.
  - intros (c & E & J); inversion E; subst; inversion J; subst; fin.
  - intros (f & g & (c & E & J) & (c' & E' & J') & ->); inversion E; inversion E'; subst.
    eexists; split; [reflexivity | constructor; auto].
  - intros (c & E & J); discriminate.
  - intros (f & g & (c & E & J) & (c' & E' & J') & ->); discriminate.
  - intros (c & E & J); discriminate.
  - intros (f & g & (c & E & J) & (c' & E' & J') & ->); discriminate.
  - intros (c & E & J); discriminate.
  - intros (f & g & (c & E & J) & (c' & E' & J') & ->); discriminate.
Qed.

Lemma olist_iff : forall T s x h,
  (exists c, In c (olist x) /\ jph T s c h) <-> (exists c, x = Some c /\ jph T s c h).
Proof.
  intros T s [a|] h; simpl; split.
  - intros (c & [<- | []] & J); fin.
  - intros (c & E & J); inversion E; subst; fin.
  - intros (c & [] & _).
  - intros (c & E & _); discriminate.
Qed.

Lemma den_sequence : forall T s a b,
  sequiv (den T s (sequence a b)) (sseq (den T s a) (den T s b)).
Proof.
  intros T s a b; unfold den, sequence, sseq; repeat split; simpl.
  - intros H; apply oseq_iff in H; exact H.
  - intros H; apply oseq_iff; exact H.
  - intros H; apply alt_iff in H; destruct H as [H | H]; auto; right; apply oseq_iff; auto.
  - intros [H | H]; apply alt_iff; auto; right; apply oseq_iff; auto.
  - intros H; apply alt_iff in H; destruct H as [H | H]; auto; right; apply oseq_iff in H;
      destruct H as (g & f' & A & B & C); eauto.
  - intros [H | H]; apply alt_iff; auto; right; apply oseq_iff; auto.
  - intros (c & I & J); apply in_app_or in I; destruct I as [I | I]; [left; eauto |].
    apply in_app_or in I; destruct I as [I | I]; [right; left; eauto |].
    right; right. apply oseq_iff, olist_iff; eauto.
  - intros [(c & I & J) | [(c & I & J) | H]].
    + exists c; split; auto; apply in_or_app; auto.
    + exists c; split; auto; apply in_or_app; right; apply in_or_app; auto.
    + apply oseq_iff, olist_iff in H; destruct H as (c & I & J).
      exists c; split; auto; apply in_or_app; right; apply in_or_app; auto.
Qed.

Lemma sequiv_sym : forall D E, sequiv D E -> sequiv E D.
Proof. intros D E (A & B & C & F); repeat split; intros; firstorder. Qed.

(** Threads that agree: a non-empty list of threads pins down a value. *)
Lemma pick : forall (T : list thread) (P : thread -> Prop), T <> [] -> (forall t, In t T -> P t) ->
  exists t, In t T /\ P t.
Proof.
  intros T P NE H; destruct T as [|t0 T']; [congruence |].
  exists t0; split; [left; reflexivity | apply H; left; reflexivity].
Qed.

Lemma uniform_eq : forall {A} (T : list thread) (F : thread -> A) n n', T <> [] ->
  (forall t, In t T -> F t = n) -> (forall t, In t T -> F t = n') -> n = n'.
Proof.
  intros A T F n n' NE H H'; destruct (pick T (fun _ => True) NE (fun _ _ => I)) as (t & I & _).
  rewrite <- (H t I), <- (H' t I); reflexivity.
Qed.

Lemma msem_free : forall T s u, (forall t, In t T -> mok t s u) ->
  msem (den T s (free_summ u)) (One (fun t => macc t s u)).
Proof.
  intros T s u Ok; unfold msem, den, free_summ; simpl; repeat split.
  - eexists; split; [reflexivity | constructor; auto].
  - intros f (c & E & J); inversion E; subst; inversion J; subst; reflexivity.
  - intros f (c & E & _); discriminate.
  - intros f (c & E & _); discriminate.
  - intros f (c & [] & _).
Qed.

Lemma msem_sync : forall T s, msem (den T s (split MSync)) (Many snil [] snil).
Proof.
  intros T s; unfold msem, den; simpl.
  assert (J : jph T s (CProto MSkip) snil) by exact (JPProto T s MSkip (fun _ _ => I)).
  split; [split; [fin | split; [fin | constructor]] |].
  split; [intros f (c & E & _); discriminate |].
  split; [intros f (c & E & J'); inversion E; subst; inversion J'; subst; exists [], snil; reflexivity |].
  split; [intros f (c & E & J'); inversion E; subst; inversion J'; subst; exists snil, []; reflexivity |].
  intros f (c & [] & _).
Qed.

(** A uniform condition: the threads take the same alternative. *)
Lemma branch_true : forall T s c x y f, T <> [] -> (forall t, In t T -> beval t s c = true) ->
  ((exists c', branch c x y = Some c' /\ jph T s c' f) <-> (exists c', x = Some c' /\ jph T s c' f)).
Proof.
  intros T s c x y f NE B.
  assert (NF : ~ (forall t, In t T -> beval t s c = false)).
  { intros F; destruct (pick T (fun _ => True) NE (fun _ _ => I)) as (t & I & _).
    specialize (F t I); rewrite (B t I) in F; discriminate. }
  destruct x as [a|], y as [b|]; simpl; split; intros (c' & E & J); try discriminate;
    inversion E; subst; try (inversion J; subst; [simpl in *; fin | tauto]);
    try (eexists; split; [reflexivity | apply JPIfT; auto]).
  all: inversion J; subst; [exfalso; eapply jph_unreach; eauto | tauto].
Qed.

Lemma branch_false : forall T s c x y f, T <> [] -> (forall t, In t T -> beval t s c = false) ->
  ((exists c', branch c x y = Some c' /\ jph T s c' f) <-> (exists c', y = Some c' /\ jph T s c' f)).
Proof.
  intros T s c x y f NE B.
  assert (NF : ~ (forall t, In t T -> beval t s c = true)).
  { intros F; destruct (pick T (fun _ => True) NE (fun _ _ => I)) as (t & I & _).
    specialize (F t I); rewrite (B t I) in F; discriminate. }
  destruct x as [a|], y as [b|]; simpl; split; intros (c' & E & J); try discriminate;
    inversion E; subst; try (inversion J; subst; [tauto | simpl in *; fin]);
    try (eexists; split; [reflexivity | apply JPIfF; auto]).
  all: inversion J; subst; [tauto | exfalso; eapply jph_unreach; eauto].
Qed.

Lemma den_if_true : forall T s c a b, T <> [] -> (forall t, In t T -> beval t s c = true) ->
  sequiv (den T s (if_summ c a b)) (den T s a).
Proof.
  intros T s c a b NE B.
  assert (NF : ~ (forall t, In t T -> beval t s c = false)).
  { intros F; destruct (pick T (fun _ => True) NE (fun _ _ => I)) as (t & I & _).
    specialize (F t I); rewrite (B t I) in F; discriminate. }
  unfold den, if_summ; repeat split; simpl; intros H;
    try (rewrite (branch_true T s c) in H by assumption; exact H);
    try (rewrite (branch_true T s c) by assumption; exact H).
  - destruct H as (c' & I & J); apply in_app_or in I; destruct I as [I | I];
      apply in_map_iff in I; destruct I as (ph & <- & I); inversion J; subst; eauto; try tauto.
    exfalso; eapply jph_unreach; eauto.
  - destruct H as (c' & I & J); exists (CIf c c' CUnreach); split.
    + apply in_or_app; left; apply in_map_iff; eauto.
    + apply JPIfT; auto.
Qed.

Lemma den_if_false : forall T s c a b, T <> [] -> (forall t, In t T -> beval t s c = false) ->
  sequiv (den T s (if_summ c a b)) (den T s b).
Proof.
  intros T s c a b NE B.
  assert (NF : ~ (forall t, In t T -> beval t s c = true)).
  { intros F; destruct (pick T (fun _ => True) NE (fun _ _ => I)) as (t & I & _).
    specialize (F t I); rewrite (B t I) in F; discriminate. }
  unfold den, if_summ; repeat split; simpl; intros H;
    try (rewrite (branch_false T s c) in H by assumption; exact H);
    try (rewrite (branch_false T s c) by assumption; exact H).
  - destruct H as (c' & I & J); apply in_app_or in I; destruct I as [I | I];
      apply in_map_iff in I; destruct I as (ph & <- & I); inversion J; subst; eauto; try tauto.
    exfalso; eapply jph_unreach; eauto.
  - destruct H as (c' & I & J); exists (CIf c CUnreach c'); split.
    + apply in_or_app; right; apply in_map_iff; eauto.
    + apply JPIfF; auto.
Qed.

Ltac unif_let :=
  match goal with
  | Ev : forall t, In t ?T -> eval t ?s ?e = ?n, Hn : forall t, In t ?T -> eval t ?s ?e = ?m,
    NE : ?T <> [] |- _ =>
      rewrite (uniform_eq T (fun t => eval t s e) n m NE Ev Hn)
  end.

Lemma let_iff : forall T s x e n o f, T <> [] -> (forall t, In t T -> eval t s e = n) ->
  ((exists c, option_map (CLet x e) o = Some c /\ jph T s c f) <->
   (exists c, o = Some c /\ jph T (upd s x n) c f)).
Proof.
  intros T s x e n [a|] f NE Ev; simpl; split; intros (c & E & J); try discriminate;
    inversion E; subst.
  - inversion J; subst. unif_let; fin.
  - eexists; split; [reflexivity | econstructor; eauto].
Qed.

Lemma den_let : forall T s x e n a, T <> [] -> (forall t, In t T -> eval t s e = n) ->
  sequiv (den T s (let_summ x e a)) (den T (upd s x n) a).
Proof.
  intros T s x e n a NE Ev; unfold den, let_summ; repeat split; simpl; intros H;
    try (rewrite (let_iff T s x e n) in H by assumption; exact H);
    try (rewrite (let_iff T s x e n) by assumption; exact H).
  - destruct H as (c & I & J); apply in_map_iff in I; destruct I as (ph & <- & I).
    inversion J; subst; unif_let; eauto.
  - destruct H as (c & I & J); exists (CLet x e c); split; [apply in_map_iff; eauto | econstructor; eauto].
Qed.

(** ** Loops: the aligned loop is its iterations in sequence *)

(** The parts of a loop over [vs] whose body's parts at value [n] are
    [D n], and whose body always meets a barrier. *)
Definition LD (D : nat -> ssumm) (vs : list nat) : ssumm :=
  mkss (fun _ => False)
       (fun h => exists n l, vs = n :: l /\ Sf (D n) h)
       (fun h => exists n l, vs = l ++ [n] /\ Sl (D n) h)
       (fun h => (exists n, In n vs /\ Sp (D n) h) \/
                 exists l1 l2 n m f g, vs = l1 ++ n :: m :: l2 /\ Sl (D n) f /\ Sf (D m) g /\ h = sapp f g).

Lemma snoc_single : forall (l : list nat) n v, [v] = l ++ [n] -> l = [] /\ n = v.
Proof.
  intros [|a l] n v E; simpl in E; inversion E; subst; auto.
  destruct l; discriminate.
Qed.

Lemma LD_one : forall D v, (forall n f, ~ Sn (D n) f) -> sequiv (LD D [v]) (D v).
Proof.
  intros D v NS; unfold LD; repeat split; simpl; intros H.
  - destruct H.
  - destruct (NS v f H).
  - destruct H as (n & l & E & H); inversion E; subst; auto.
  - exists v, []; auto.
  - destruct H as (n & l & E & H); apply snoc_single in E; destruct E; subst; auto.
  - exists v, []; auto.
  - destruct H as [(n & [<- | []] & H) | (l1 & l2 & n & m & f' & g & E & _)]; auto.
    destruct l1 as [|a [|b l1]]; discriminate.
  - left; exists v; simpl; auto.
Qed.

Lemma LD_cons : forall D v w vs, (forall n f, ~ Sn (D n) f) ->
  sequiv (sseq (D v) (LD D (w :: vs))) (LD D (v :: w :: vs)).
Proof.
  intros D v w vs NS; unfold LD, sseq; repeat split; simpl; intros H.
  - destruct H as (f1 & g & H & _); destruct (NS v f1 H).
  - destruct H.
  - destruct H as [H | (f1 & g & H & _)]; [exists v, (w :: vs); auto | destruct (NS v f1 H)].
  - destruct H as (n & l & E & H); inversion E; subst; auto.
  - destruct H as [(n & l & E & H) | (f1 & g & _ & [] & _)].
    exists n, (v :: l); rewrite E; auto.
  - destruct H as (n & l & E & H); left.
    destruct l as [|a l]; simpl in E; inversion E; subst; try (destruct vs; discriminate).
    exists n, l; auto.
  - destruct H as [H | [[(n & I & H) | (l1 & l2 & n & m & f1 & g & E & A & B & ->)] | (f1 & g & A & (m & l & E & B) & ->)]].
    + left; exists v; simpl; auto.
    + left; exists n; simpl; auto.
    + right; exists (v :: l1), l2, n, m, f1, g; rewrite E; auto.
    + inversion E; subst; right; exists [], l, v, m, f1, g; auto.
  - destruct H as [(n & [<- | I] & H) | (l1 & l2 & n & m & f1 & g & E & A & B & ->)].
    + left; auto.
    + right; left; left; eauto.
    + destruct l1 as [|a l1]; simpl in E; inversion E; subst.
      * right; right; exists f1, g; repeat split; auto; exists m, l2; auto.
      * right; left; right; exists l1, l2, n, m, f1, g; auto.
Qed.

Lemma msem_LD : forall D vs Xs, (forall n f, ~ Sn (D n) f) ->
  Forall2 (fun v X => msem (D v) X) vs Xs -> vs <> [] -> msem (LD D vs) (gluel Xs).
Proof.
  intros D vs Xs NS F; induction F as [| v X vs Xs M F IH]; intros NE; [congruence |].
  destruct F as [| w X' vs' Xs' M' F'].
  - simpl; eapply msem_equiv; [apply sequiv_sym, LD_one; auto | auto].
  - change (gluel (X :: X' :: Xs')) with (glue X (gluel (X' :: Xs'))).
    eapply msem_equiv; [apply LD_cons; auto |].
    apply msem_glue; auto. apply IH; discriminate.
Qed.

Lemma msem_loop_nil : forall T s w x r b, T <> [] -> (forall t, In t T -> rvals t s r = []) ->
  sn b = None -> sf b <> None -> sl b <> None ->
  msem (den T s (loop_summ w x r b)) (One snil).
Proof.
  intros T s w x r b NE U Hn Hf Hl; unfold loop_summ; rewrite Hn.
  destruct (sf b) as [bf|]; [| congruence]; destruct (sl b) as [bl|]; [| congruence].
  destruct (pick T (fun _ => True) NE (fun _ _ => I)) as (t & It & _).
  unfold msem, den; simpl; repeat split.
  - exists (CEmpty r); split; [reflexivity | constructor; auto].
  - intros f (c & E & J); inversion E; subst; inversion J; subst; reflexivity.
  - intros f (c & E & J); inversion E; subst; inversion J; subst.
    match goal with H : forall t, In t T -> rel_holds _ _ _ |- _ => destruct (H t It) as (l & E') end.
    rewrite U in E' by auto; discriminate.
  - intros f (c & E & J); inversion E; subst; inversion J; subst.
    match goal with H : forall t, In t T -> rel_holds _ _ _ |- _ => destruct (H t It) as (l & E') end.
    rewrite U in E' by auto; destruct l; discriminate.
  - intros f (c & I & J); apply in_app_or in I; destruct I as [I | [<- | []]].
    + apply in_map_iff in I; destruct I as (ph & <- & I); inversion J; subst.
      match goal with H : forall t, In t T -> rel_holds _ _ _ |- _ => specialize (H t It) end.
      simpl in *; rewrite U in * by auto; contradiction.
    + inversion J; subst.
      match goal with H : forall t, In t T -> exists l1 l2, _ |- _ => destruct (H t It) as (l1 & l2 & E') end.
      rewrite U in E' by auto; destruct l1; discriminate.
Qed.

Lemma den_loop : forall T s w x r b bf bl vs, T <> [] -> (forall t, In t T -> rvals t s r = vs) ->
  sn b = None -> sf b = Some bf -> sl b = Some bl -> vs <> [] ->
  sequiv (den T s (loop_summ w x r b)) (LD (fun n => den T (upd s x n) b) vs).
Proof.
  intros T s w x r b bf bl vs NE U Hn Hf Hl NV; unfold loop_summ; rewrite Hn, Hf, Hl.
  destruct (pick T (fun _ => True) NE (fun _ _ => I)) as (t & It & _).
  unfold den, LD; repeat split; simpl; intros H.
  - destruct H as (c & E & J); inversion E; subst; inversion J; subst.
    match goal with H : forall t, In t T -> rvals _ _ _ = [] |- _ => specialize (H t It) end.
    rewrite U in * by auto; contradiction.
  - destruct H.
  - destruct H as (c & E & J); inversion E; subst; inversion J; subst.
    match goal with H : forall t, In t T -> rel_holds _ _ _ |- _ => destruct (H t It) as (l & E') end.
    rewrite U in E' by auto; exists n, l; split; auto; rewrite Hf; fin.
  - destruct H as (n & l & E & c & E' & J); rewrite Hf in E'; inversion E'; subst.
    eexists; split; [reflexivity |]; apply JPBind with n; auto.
    intros t' I; rewrite U by auto; simpl; eauto.
  - destruct H as (c & E & J); inversion E; subst; inversion J; subst.
    match goal with H : forall t, In t T -> rel_holds _ _ _ |- _ => destruct (H t It) as (l & E') end.
    rewrite U in E' by auto; exists n, l; split; auto; rewrite Hl; fin.
  - destruct H as (n & l & E & c & E' & J); rewrite Hl in E'; inversion E'; subst.
    eexists; split; [reflexivity |]; apply JPBind with n; auto.
    intros t' I; rewrite U by auto; simpl; eauto.
  - destruct H as (c & I & J); apply in_app_or in I; destruct I as [I | [<- | []]].
    + apply in_map_iff in I; destruct I as (ph & <- & I); inversion J; subst.
      match goal with H : forall t, In t T -> rel_holds _ _ _ |- _ => specialize (H t It) end.
      simpl in *; rewrite U in * by auto; left; exists n; split; auto; fin.
    + inversion J; subst.
      match goal with H : forall t, In t T -> exists l1 l2, _ |- _ => destruct (H t It) as (l1 & l2 & E') end.
      rewrite U in E' by auto; right; do 6 eexists; split; [exact E' |].
      split; [eexists; split; [exact Hl | eassumption] |].
      split; [eexists; split; [exact Hf | eassumption] | reflexivity].
  - destruct H as [(n & I & c & Ic & J) | (l1 & l2 & n & m & f1 & g1 & E & (c & E1 & J1) & (c' & E2 & J2) & ->)].
    + exists (CBind x RMember r c); split.
      * apply in_or_app; left; apply in_map_iff; eauto.
      * apply JPBind with n; auto; intros t' I'; rewrite U by auto; exact I.
    + rewrite Hl in E1; rewrite Hf in E2; injection E1 as E1; injection E2 as E2; subst c c'.
      exists (CStep x r bl bf); split; [apply in_or_app; right; left; auto |].
      apply JPStep with n m; auto; intros t' I'; rewrite U by auto; eauto.
Qed.

(** ** The split's phases are the barrier intervals *)

Lemma F2_impl : forall {A B} (P Q : A -> B -> Prop) l l',
  (forall a b, P a b -> Q a b) -> Forall2 P l l' -> Forall2 Q l l'.
Proof. intros A B P Q l l' H F; induction F; constructor; auto. Qed.

Lemma split_free : forall u, has_sync u = false -> split u = free_summ u.
Proof. intros u H; destruct u; simpl in *; try discriminate; try rewrite H; reflexivity. Qed.

Lemma jsegs_free : forall T s u X, has_sync u = false -> jsegs T s u X ->
  X = One (fun t => macc t s u) /\ (forall t, In t T -> mok t s u).
Proof. intros T s u X H J; inversion J; subst; simpl in *; try congruence; auto. Qed.

Theorem split_msem : forall u T s X, T <> [] -> aligned u = true -> jsegs T s u X ->
  msem (den T s (split u)) X.
Proof.
  intros u T s X NE Al J.
  destruct (has_sync u) eqn:Hs.
  2: { rewrite split_free by auto; destruct (jsegs_free T s u X Hs J) as [-> Ok]; apply msem_free; auto. }
  revert T s X NE Al J Hs.
  induction u; intros T s X NE Al J Hs; simpl in Hs; try discriminate;
    simpl split; rewrite ?Hs; simpl in Al.
  - (* sequence *)
    inversion J; subst; simpl in *; [congruence |].
    apply andb_true_iff in Al; destruct Al as [A1 A2].
    eapply msem_equiv; [apply sequiv_sym, den_sequence |].
    apply msem_glue.
    + destruct (has_sync u1) eqn:Hs1; [apply IHu1; auto |].
      rewrite split_free by auto.
      match goal with H : jsegs _ _ u1 _ |- _ => destruct (jsegs_free T s u1 _ Hs1 H) as [-> Ok] end.
      apply msem_free; auto.
    + destruct (has_sync u2) eqn:Hs2; [apply IHu2; auto |].
      rewrite split_free by auto.
      match goal with H : jsegs _ _ u2 _ |- _ => destruct (jsegs_free T s u2 _ Hs2 H) as [-> Ok] end.
      apply msem_free; auto.
  - (* if *)
    apply andb_true_iff in Al; destruct Al as [A1 A2].
    inversion J; subst; simpl in *; [congruence | |].
    + eapply msem_equiv; [apply sequiv_sym, den_if_true; auto |].
      destruct (has_sync u1) eqn:Hs1; [apply IHu1; auto |].
      rewrite split_free by auto.
      match goal with H : jsegs _ _ u1 _ |- _ => destruct (jsegs_free T s u1 _ Hs1 H) as [-> Ok] end.
      apply msem_free; auto.
    + eapply msem_equiv; [apply sequiv_sym, den_if_false; auto |].
      destruct (has_sync u2) eqn:Hs2; [apply IHu2; auto |].
      rewrite split_free by auto.
      match goal with H : jsegs _ _ u2 _ |- _ => destruct (jsegs_free T s u2 _ Hs2 H) as [-> Ok] end.
      apply msem_free; auto.
  - (* for *)
    rewrite Hs in Al; simpl in Al; apply andb_true_iff in Al; destruct Al as [A1 A2].
    unfold loop_aligned in A2.
    destruct (sn (split u)) eqn:Hn; [discriminate |].
    destruct (sf (split u)) as [bf|] eqn:Hf; [| discriminate].
    destruct (sl (split u)) as [bl|] eqn:Hl; [| discriminate].
    inversion J; subst; simpl in *; [congruence |].
    rename vs into vs0.
    match goal with F : Forall2 _ ?vs ?Ss |- _ => rename vs into vs0; rename Ss into Ss0; rename F into F0 end.
    assert (M : Forall2 (fun v X => msem (den T (upd s x v) (split u)) X) vs0 Ss0).
    { eapply F2_impl; [| exact F0]; intros v X' J'; apply IHu; auto. }
    destruct vs0 as [|v vs'].
    + inversion F0; subst; simpl.
      apply msem_loop_nil; auto; congruence.
    + eapply msem_equiv; [apply sequiv_sym; eapply den_loop; eauto; simpl; congruence |].
      apply msem_LD; auto; [| discriminate].
      intros n f (c & E & _); simpl in E; congruence.
  - (* loop values *)
    rewrite Hs in Al; simpl in Al; apply andb_true_iff in Al; destruct Al as [A1 A2].
    unfold loop_aligned in A2.
    destruct (sn (split u)) eqn:Hn; [discriminate |].
    destruct (sf (split u)) as [bf|] eqn:Hf; [| discriminate].
    destruct (sl (split u)) as [bl|] eqn:Hl; [| discriminate].
    inversion J; subst; simpl in *; [congruence |].
    match goal with F : Forall2 _ vs ?Ss |- _ => rename Ss into Ss0; rename F into F0 end.
    assert (M : Forall2 (fun v X => msem (den T (upd s x v) (split u)) X) vs Ss0).
    { eapply F2_impl; [| exact F0]; intros v X' J'; apply IHu; auto. }
    destruct vs as [|v vs'].
    + inversion F0; subst; simpl.
      apply msem_loop_nil; auto; congruence.
    + eapply msem_equiv;
        [apply sequiv_sym; apply (den_loop T s _ x (RVals (v :: vs')) (split u) bf bl (v :: vs')); auto; discriminate |].
      apply msem_LD; auto; [| discriminate].
      intros n f (c & E & _); simpl in E; congruence.
  - (* let *)
    inversion J; subst; simpl in *; [congruence |].
    eapply msem_equiv; [apply sequiv_sym, den_let; eauto |].
    apply IHu; auto.
  - (* sync *)
    inversion J; subst; [discriminate | apply msem_sync].
Qed.

(** The main theorem: for a MAP whose loops around barriers are aligned
    and a non-empty block, the intervals of the lock-step run are exactly
    the instances of the split's phases (each interval is an instance of a
    phase; each instance of a phase is an interval). *)
Theorem split_intervals : forall u T s X, T <> [] -> aligned u = true -> jsegs T s u X ->
  (forall f, In f (seg_list X) -> exists c, In c (split_phases u) /\ jph T s c f) /\
  (forall c f, In c (split_phases u) -> jph T s c f -> In f (seg_list X)).
Proof.
  intros u T s X NE Al J.
  destruct (split_msem u T s X NE Al J) as (S0 & Cn & Cf & Cl & Cp).
  unfold split_phases; simpl in *; split.
  - intros f I; destruct X as [x | f0 m l]; simpl in *.
    + destruct I as [<- | []]; destruct S0 as (c & E & Jc); exists c; split; auto.
      rewrite E; simpl; auto.
    + destruct S0 as ((c0 & E0 & J0) & (c1 & E1 & J1) & Fm).
      destruct I as [<- | I].
      * exists c0; split; auto; rewrite E0; apply in_or_app; right; left; auto.
      * apply in_app_or in I; destruct I as [I | [<- | []]].
        -- rewrite Forall_forall in Fm; destruct (Fm f I) as (c & Ic & Jc); exists c; split; auto.
           apply in_or_app; right; apply in_or_app; right; apply in_or_app; left; auto.
        -- exists c1; split; auto; rewrite E1.
           apply in_or_app; right; apply in_or_app; right; apply in_or_app; right; left; auto.
  - intros c f I Jc.
    apply in_app_or in I; destruct I as [I | I].
    { destruct (sn (split u)) eqn:E; simpl in I; [| contradiction].
      destruct I as [<- | []]; rewrite (Cn f) by eauto; simpl; auto. }
    apply in_app_or in I; destruct I as [I | I].
    { destruct (sf (split u)) eqn:E; simpl in I; [| contradiction].
      destruct I as [<- | []]; destruct (Cf f) as (m & l & ->); eauto; simpl; auto. }
    apply in_app_or in I; destruct I as [I | I].
    { destruct (Cp f) as (f0 & m & l & -> & Im); eauto; simpl; right; apply in_or_app; auto. }
    { destruct (sl (split u)) eqn:E; simpl in I; [| contradiction].
      destruct I as [<- | []]; destruct (Cl f) as (f0 & m & ->); eauto; simpl.
      right; apply in_or_app; right; left; auto. }
Qed.
