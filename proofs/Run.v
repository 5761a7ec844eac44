(** * The executable semantics: what the extracted oracle runs.

    The semantics of [Sync.v] is relational ([krun], [krun_all], [mrun],
    [mrun_all]).  This file gives functions that compute runs — of a
    program and of a MAP, thread by thread and phase by phase — and proves
    that whatever they return is a run of the relational semantics (so the
    theorems of [SyncTheorem.v] apply to it), and a race finder proved to
    decide [drf_accs].  [Extract.v] extracts them, with [infer], to OCaml;
    [oracle/runner.ml] reads kernels and launches and prints the results.

    Two bounds make the functions total: [fuel] (steps of one thread to its
    next barrier) and [cap] (values of one loop).  Running out of either is
    the result [XLimit]: no claim is made then.

    Barriers are matched as faial-ts matches them: the threads of a block
    must wait at the same [sync] in the same iteration numbers of the loops
    around it.  Each frame carries its place (the path from the root of the
    program: child numbers, and for a loop's body the iteration number), so
    two threads are at the same barrier in the same iterations iff they wait
    at the same place.  A phase that ends with the threads at different
    places, or with some waiting and some finished, is barrier divergence
    ([RDivergent]).  This is stricter than [krun_all], which lets the block
    go on whenever every thread waits at some barrier: every finished run
    here is a run of [krun_all] ([xrun_all_sound]). *)

From Coq Require Import List Arith Bool Lia ZArith.
Import ListNotations.
From BabyCUDA Require Import Syntax Semantics Map Typing Sync SyncTheorem Grid.
From BabyCUDA Require MachineInt.

(** ** Loop values, computed with a bound *)

Definition step_fuel (st : step) (n m : nat) : nat :=
  match st with StepAdd _ => m - n | StepMul _ => m | StepSub _ | StepDiv _ => S n | StepT ty _ _ => tfuel ty n m end.

Definition step_values_fuel (f : nat) (st : step) (t : thread) (s : env) (n m : nat) : list nat :=
  match st with
  | StepAdd k => up_add f n m (eval t s k)
  | StepMul k => up_mul f n m (eval t s k)
  | StepSub k => down_sub f n m (eval t s k)
  | StepDiv k => down_div f n m (eval t s k)
  | StepT ty o k => fst (tvals f ty o (zval t s k) (MachineInt.dec ty (Z.of_nat n)) (MachineInt.dec ty (Z.of_nat m)))
  end.

Lemma step_values_fuel_full : forall st t s n m,
  step_values_fuel (step_fuel st n m) st t s n m = step_values st t s n m.
Proof. destruct st; reflexivity. Qed.

(** A list computed with less fuel than it could use is the whole list. *)
Ltac enough_tac IHf :=
  intros f' n m k Le Len; destruct f' as [|f']; [lia|]; simpl in *;
  repeat match goal with |- context [if ?b then _ else _] => destruct b end; auto;
  simpl in Len; f_equal; apply IHf; lia.

Lemma up_add_enough : forall f f' n m k, f <= f' -> length (up_add f n m k) < f -> up_add f' n m k = up_add f n m k.
Proof. induction f as [|f IHf]; [intros; simpl in *; lia | enough_tac IHf]. Qed.
Lemma up_mul_enough : forall f f' n m k, f <= f' -> length (up_mul f n m k) < f -> up_mul f' n m k = up_mul f n m k.
Proof. induction f as [|f IHf]; [intros; simpl in *; lia | enough_tac IHf]. Qed.
Lemma down_sub_enough : forall f f' n m k, f <= f' -> length (down_sub f n m k) < f -> down_sub f' n m k = down_sub f n m k.
Proof. induction f as [|f IHf]; [intros; simpl in *; lia | enough_tac IHf]. Qed.
Lemma down_div_enough : forall f f' n m k, f <= f' -> length (down_div f n m k) < f -> down_div f' n m k = down_div f n m k.
Proof. induction f as [|f IHf]; [intros; simpl in *; lia | enough_tac IHf]. Qed.
Lemma tvals_enough : forall f f' ty o k x m, f <= f' -> length (fst (tvals f ty o k x m)) < f ->
  fst (tvals f' ty o k x m) = fst (tvals f ty o k x m).
Proof.
  induction f as [|f IHf]; intros f' ty o k x m Le Len; [simpl in *; lia|].
  destruct f' as [|f']; [lia|]; simpl in *.
  destruct (if tup o then (x <? m)%Z else (m <=? x)%Z); auto.
  destruct (tnext ty o x k); simpl in *; auto.
  f_equal; apply IHf; lia.
Qed.

(** The values of a loop, when there are fewer than [cap]. *)
Definition iters_cap (cap : nat) (t : thread) (s : env) (lo hi : nexp) (st : step) : option (list nat) :=
  let n := eval t s lo in
  let m := eval t s hi in
  let vs := step_values_fuel (Nat.min cap (step_fuel st n m)) st t s n m in
  if Nat.ltb (length vs) cap then Some vs else None.

Lemma iters_cap_sound : forall cap t s lo hi st vs,
  iters_cap cap t s lo hi st = Some vs -> vs = iters t s lo hi st.
Proof.
  unfold iters_cap, iters; intros cap t s lo hi st vs H.
  set (n := eval t s lo) in *; set (m := eval t s hi) in *.
  destruct (Nat.ltb_spec (length (step_values_fuel (Nat.min cap (step_fuel st n m)) st t s n m)) cap) as [Len|];
    [|discriminate]. inversion H; subst; clear H.
  rewrite <- step_values_fuel_full.
  destruct (Nat.le_ge_cases cap (step_fuel st n m)) as [Le|Ge].
  - rewrite Nat.min_l in * by auto. symmetry.
    destruct st; unfold step_values_fuel, step_fuel in *; [apply up_add_enough | apply up_mul_enough | apply down_sub_enough | apply down_div_enough | apply tvals_enough]; auto.
  - rewrite Nat.min_r by auto; reflexivity.
Qed.

(** Whether a typed loop's steps, up to [cap] values, stay in the scope
    (always, for a loop on naturals). *)
Definition loop_ok (cap : nat) (t : thread) (s : env) (lo hi : nexp) (st : step) : bool :=
  match st with
  | StepT ty o k =>
      let n := eval t s lo in
      let m := eval t s hi in
      snd (tvals (Nat.min cap (tfuel ty n m)) ty o (zval t s k) (MachineInt.dec ty (Z.of_nat n)) (MachineInt.dec ty (Z.of_nat m)))
  | _ => true
  end.

(** ** Results *)

(** Why a run left the model: an operation outside the scope of machine
    integers (signed overflow, division by zero, a shift count out of
    range, a typed loop counter leaving its type), or an index whose value
    is negative (a signed index: the model's memory is indexed by naturals). *)
Inductive outside := OUndefined | ONegIndex.

Inductive xres (A : Type) := XOk (a : A) | XStuck | XLimit | XOut (o : outside).
Arguments XOk {A}. Arguments XStuck {A}. Arguments XLimit {A}. Arguments XOut {A}.

(** What a statement evaluates first: the expressions [es] and conditions
    [cs] must be in the scope, the indices [ix] (also in [es]) non-negative. *)
Definition check (t : thread) (s : env) (es : list nexp) (cs : list bexp) (ix : list nexp) : option outside :=
  if forallb (ndef t s) es && forallb (bdef t s) cs then
    if forallb (fun e => Z.leb 0 (zval t s e)) ix then None else Some ONegIndex
  else Some OUndefined.

(** A place: the path to a statement from the root of the program. *)
Definition place := list nat.

(** ** One thread of a program, to its next barrier *)
Inductive xframe :=
| XProg (pl : place) (s : env) (p : prog)
| XLoop (pl : place) (i : nat) (s : env) (x : var) (vs : list nat) (p : prog) (stop : option outside).
    (** [i]: iterations done; [stop]: the step after the last value leaves
        the model (a typed counter's, computed after the body, as C and
        the interpreter compute it) *)
Definition xkont := list xframe.

Definition erase (f : xframe) : frame :=
  match f with XProg _ s p => FProg s p | XLoop _ _ s x vs p _ => FLoop s x vs p end.

Definition xcons {A B} (e : A) (r : xres (list A * B)) : xres (list A * B) :=
  match r with XOk (es, b) => XOk (e :: es, b) | XStuck => XStuck | XLimit => XLimit | XOut o => XOut o end.

Fixpoint xrun (fuel cap : nat) (t : thread) (mem : list event) (k : xkont) : xres (list event * option (place * xkont)) :=
  match fuel with
  | 0 => XLimit
  | S f =>
    match k with
    | [] => XOk ([], None)
    | XProg pl s p :: k =>
      match p with
      | PSkip => xrun f cap t mem k
      | PWrite A ix e =>
          match check t s (ix ++ [e]) [] ix with Some o => XOut o | None =>
          let ev := mkev (mkacc t A (evals t s ix) Wr) (eval t s e) in
          xcons ev (xrun f cap t (mem ++ [ev]) k) end
      | PRead x A ix p =>
          match check t s ix [] ix with Some o => XOut o | None =>
          let v := lastwrite mem A (evals t s ix) in
          let ev := mkev (mkacc t A (evals t s ix) Rd) v in
          xcons ev (xrun f cap t (mem ++ [ev]) (XProg (pl ++ [0]) (upd s x v) p :: k)) end
      | PAtomic x A ix op vs p =>
          match check t s (ix ++ vs) [] ix with Some o => XOut o | None =>
          let v := lastwrite mem A (evals t s ix) in
          let ev := mkev (mkacc t A (evals t s ix) At) (atomic_result op v (evals t s vs)) in
          xcons ev (xrun f cap t (mem ++ [ev]) (XProg (pl ++ [0]) (upd s x v) p :: k)) end
      | PLet x e p =>
          match check t s [e] [] [] with Some o => XOut o | None =>
          xrun f cap t mem (XProg (pl ++ [0]) (upd s x (eval t s e)) p :: k) end
      | PSeq p q => xrun f cap t mem (XProg (pl ++ [0]) s p :: XProg (pl ++ [1]) s q :: k)
      | PIf c p q =>
          match check t s [] [c] [] with Some o => XOut o | None =>
          if beval t s c then xrun f cap t mem (XProg (pl ++ [0]) s p :: k)
          else xrun f cap t mem (XProg (pl ++ [1]) s q :: k) end
      | PFor x lo hi st p =>
          match check t s [lo; hi; step_exp st] [] [] with Some o => XOut o | None =>
          match iters_cap cap t s lo hi st with
          | Some vs =>
              xrun f cap t mem (XLoop pl 0 s x vs p (if loop_ok cap t s lo hi st then None else Some OUndefined) :: k)
          | None => XLimit
          end end
      | PLoopVals x vs p => xrun f cap t mem (XLoop pl 0 s x vs p None :: k)
      | PSync => XOk ([], Some (pl, k))
      | PAssume c =>
          match check t s [] [c] [] with Some o => XOut o | None =>
          if beval t s c then xrun f cap t mem k else XStuck end
      end
    | XLoop pl i s x [] p None :: k => xrun f cap t mem k
    | XLoop pl i s x [] p (Some o) :: k => XOut o
    | XLoop pl i s x (v :: vs) p stop :: k =>
        xrun f cap t mem (XProg (pl ++ [i]) (upd s x v) p :: XLoop pl (S i) s x vs p stop :: k)
    end
  end.

Definition erase_r (r : option (place * xkont)) : option kont :=
  option_map (fun pk => map erase (snd pk)) r.

Ltac xres_cases :=
  repeat match goal with
  | H : xcons _ ?r = XOk _ |- _ =>
      destruct r as [[? ?]| | |] eqn:?; simpl in H; try discriminate; inversion H; subst; clear H
  | H : (if ?b then _ else _) = _ |- _ => destruct b eqn:?
  | H : match ?o with Some _ => _ | None => _ end = _ |- _ => destruct o eqn:?; try discriminate
  end.

Theorem xrun_sound : forall fuel cap t mem k evs r,
  xrun fuel cap t mem k = XOk (evs, r) -> krun t mem (map erase k) evs (erase_r r).
Proof.
  induction fuel; intros cap t mem k evs r H; simpl in H; [discriminate|].
  destruct k as [|[pl s p | pl i s x vs p stop] k].
  - inversion H; subst; constructor.
  - destruct p; xres_cases;
      repeat match goal with E : xrun fuel _ _ _ _ = XOk _ |- _ => apply IHfuel in E; simpl in E end;
      repeat match goal with E : iters_cap _ _ _ _ _ _ = Some _ |- _ => apply iters_cap_sound in E; subst end;
      simpl; try discriminate;
      try (inversion H; subst; constructor; fail);
      first [econstructor; eauto; fail | eapply KIfF; eauto].
  - destruct vs; [destruct stop; [discriminate|]|]; apply IHfuel in H; simpl in *; econstructor; eauto.
Qed.

(** ** All threads of a block, phase by phase *)
Fixpoint xstep (fuel cap : nat) (mem : list event) (ths : list (thread * xkont))
  : xres (phase * list (thread * option (place * xkont))) :=
  match ths with
  | [] => XOk ([], [])
  | (t, k) :: ths =>
      match xrun fuel cap t mem k with
      | XOk (e1, r) =>
          match xstep fuel cap mem ths with
          | XOk (P, rs) => XOk (e1 ++ P, (t, r) :: rs)
          | XStuck => XStuck
          | XLimit => XLimit
          | XOut o => XOut o
          end
      | XStuck => XStuck
      | XLimit => XLimit
      | XOut o => XOut o
      end
  end.

Definition erase_th (tk : thread * xkont) : thread * kont := (fst tk, map erase (snd tk)).

Lemma xstep_sound : forall fuel cap mem ths P rs,
  xstep fuel cap mem ths = XOk (P, rs) ->
  kstep mem (map erase_th ths) P (map (fun tr => (fst tr, erase_r (snd tr))) rs).
Proof.
  induction ths as [|[t k] ths IH]; simpl; intros P rs H.
  - inversion H; subst; constructor.
  - destruct (xrun fuel cap t mem k) as [[e1 r]| | |] eqn:E; try discriminate.
    destruct (xstep fuel cap mem ths) as [[P' rs']| | |] eqn:E'; try discriminate.
    inversion H; subst; simpl. constructor; auto. apply xrun_sound with fuel cap; auto.
Qed.

(** Every thread finished. *)
Fixpoint all_finished {A} (rs : list (thread * option A)) : bool :=
  match rs with [] => true | (_, None) :: rs => all_finished rs | (_, Some _) :: _ => false end.

(** Every thread waits at the barrier at place [pl]: their continuations
    (of a program's threads, or of a MAP's). *)
Fixpoint all_at {K} (pl : place) (rs : list (thread * option (place * K))) : option (list (thread * K)) :=
  match rs with
  | [] => Some []
  | (t, Some (pl', k)) :: rs =>
      if list_eq_dec Nat.eq_dec pl pl' then option_map (cons (t, k)) (all_at pl rs) else None
  | (_, None) :: _ => None
  end.

(** Every thread waits at one barrier, in the same iterations. *)
Definition aligned {K} (rs : list (thread * option (place * K))) : option (list (thread * K)) :=
  match rs with
  | (_, Some (pl, _)) :: _ => all_at pl rs
  | _ => None
  end.

(** Aligned threads resume from their continuations, whatever the frames ([er]) erase to. *)
Lemma aligned_resume_gen : forall {K F} (er : K -> F) rs ths', aligned rs = Some ths' ->
  map (fun tr => (fst tr, option_map (fun pk => er (snd pk)) (snd tr))) rs =
  resume (map (fun tk => (fst tk, er (snd tk))) ths').
Proof.
  unfold aligned; intros K F er rs ths' H.
  destruct rs as [|[t [[pl k]|]] rs]; try discriminate.
  revert ths' H; generalize ((t, Some (pl, k)) :: rs) as l; clear.
  induction l as [|[t [[pl' k]|]] rs IH]; simpl; intros ths' H; try discriminate.
  - inversion H; subst; reflexivity.
  - destruct (list_eq_dec Nat.eq_dec pl pl'); [|discriminate].
    destruct (all_at pl rs) eqn:E; simpl in H; inversion H; subst; simpl.
    f_equal. apply IH; auto.
Qed.

Lemma all_finished_done : forall A (rs : list (thread * option A)), all_finished rs = true -> all_done rs.
Proof.
  unfold all_done; induction rs as [|[t [a|]] rs IH]; simpl; intros H; [constructor | discriminate | constructor; simpl; auto].
Qed.

Lemma all_done_map : forall A B (g : option A -> option B) (rs : list (thread * option A)),
  g None = None -> all_done rs -> all_done (map (fun tr => (fst tr, g (snd tr))) rs).
Proof.
  unfold all_done; induction rs as [|[t r] rs IH]; simpl; intros G D; constructor;
    inversion D; subst; simpl in *; subst; auto.
Qed.

Lemma aligned_resume : forall rs ths', aligned rs = Some ths' ->
  map (fun tr => (fst tr, erase_r (snd tr))) rs = resume (map erase_th ths').
Proof. intros; apply (aligned_resume_gen (map erase)); auto. Qed.

Lemma aligned_nonempty : forall {K} (rs : list (thread * option (place * K))) ths', aligned rs = Some ths' -> rs <> [].
Proof. unfold aligned; destruct rs; congruence. Qed.

(** The result of running a block. *)
Inductive outcome (P : Type) :=
| RFinished (Ps : list P)   (** every thread ran to its end: the phases *)
| RDivergent (Ps : list P)  (** barrier divergence at the end of the last phase *)
| RInfeasible               (** a thread failed an [assume]: no execution *)
| RLimit                    (** a bound was reached: no claim *)
| ROut (o : outside).       (** a thread left the model ([outside]) *)
Arguments RFinished {P}. Arguments RDivergent {P}. Arguments RInfeasible {P}. Arguments RLimit {P}. Arguments ROut {P}.

Definition ocons {P} (p : P) (o : outcome P) : outcome P :=
  match o with
  | RFinished Ps => RFinished (p :: Ps)
  | RDivergent Ps => RDivergent (p :: Ps)
  | o => o
  end.

Fixpoint xrun_all (rounds fuel cap : nat) (mem : list event) (ths : list (thread * xkont)) : outcome phase :=
  match rounds with
  | 0 => RLimit
  | S n =>
      match xstep fuel cap mem ths with
      | XStuck => RInfeasible
      | XLimit => RLimit
      | XOut o => ROut o
      | XOk (P, rs) =>
          if all_finished rs then RFinished [P]
          else match aligned rs with
               | Some ths' => ocons P (xrun_all n fuel cap (mem ++ P) ths')
               | None => RDivergent [P]
               end
      end
  end.

Theorem xrun_all_sound : forall rounds fuel cap mem ths Ps,
  xrun_all rounds fuel cap mem ths = RFinished Ps -> krun_all mem (map erase_th ths) Ps.
Proof.
  induction rounds; simpl; intros fuel cap mem ths Ps H; [discriminate|].
  destruct (xstep fuel cap mem ths) as [[P rs]| | |] eqn:E; try discriminate.
  pose proof (xstep_sound _ _ _ _ _ _ E) as S.
  destruct (all_finished rs) eqn:F.
  - inversion H; subst. econstructor; eauto.
    apply all_done_map; auto. apply all_finished_done; auto.
  - destruct (aligned rs) as [ths'|] eqn:A; [|discriminate].
    destruct (xrun_all rounds fuel cap (mem ++ P) ths') eqn:R; simpl in H; inversion H; subst.
    apply KABarrier with (map erase_th ths').
    + apply aligned_nonempty in A. destruct ths; simpl in *; [inversion E; subst; congruence | discriminate].
    + rewrite <- (aligned_resume _ _ A); auto.
    + eapply IHrounds; eauto.
Qed.

Definition xstart (T : list thread) (s : env) (p : prog) : list (thread * xkont) :=
  map (fun t => (t, [XProg [] s p])) T.

Lemma xstart_erase : forall T s p, map erase_th (xstart T s p) = start T s p.
Proof. induction T; simpl; intros; f_equal; auto. Qed.

(** A finished run of the oracle is a kernel run from the empty history. *)
Corollary oracle_run_sound : forall rounds fuel cap T s p Ps,
  xrun_all rounds fuel cap [] (xstart T s p) = RFinished Ps -> kernel_run T s p [] Ps.
Proof.
  intros. exists Ps; split; auto. rewrite <- xstart_erase. change (concat (@nil phase)) with (@nil event).
  eapply xrun_all_sound; eauto.
Qed.

(** ** One thread of a MAP, to its next barrier *)
Inductive xmframe :=
| XMProg (pl : place) (s : env) (u : proto)
| XMLoop (pl : place) (i : nat) (s : env) (x : var) (vs : list nat) (u : proto).
Definition xmkont := list xmframe.

Definition merase (f : xmframe) : mframe :=
  match f with XMProg _ s u => MFProg s u | XMLoop _ _ s x vs u => MFLoop s x vs u end.

Fixpoint xmrun (fuel cap : nat) (t : thread) (k : xmkont) : xres (list access * option (place * xmkont)) :=
  match fuel with
  | 0 => XLimit
  | S f =>
    match k with
    | [] => XOk ([], None)
    | XMProg pl s u :: k =>
      match u with
      | MSkip => xmrun f cap t k
      | MRd A ix => xcons (mkacc t A (evals t s ix) Rd) (xmrun f cap t k)
      | MWr A ix _ => xcons (mkacc t A (evals t s ix) Wr) (xmrun f cap t k)
      | MAt A ix => xcons (mkacc t A (evals t s ix) At) (xmrun f cap t k)
      | MSeq u v => xmrun f cap t (XMProg (pl ++ [0]) s u :: XMProg (pl ++ [1]) s v :: k)
      | MIf c u v =>
          if beval t s c then xmrun f cap t (XMProg (pl ++ [0]) s u :: k)
          else xmrun f cap t (XMProg (pl ++ [1]) s v :: k)
      | MFor x lo hi st u =>
          match iters_cap cap t s lo hi st with
          | Some vs => xmrun f cap t (XMLoop pl 0 s x vs u :: k)
          | None => XLimit
          end
      | MLoopVals x vs u => xmrun f cap t (XMLoop pl 0 s x vs u :: k)
      | MLet x e u => xmrun f cap t (XMProg (pl ++ [0]) (upd s x (eval t s e)) u :: k)
      | MSync => XOk ([], Some (pl, k))
      | MAssume c => if beval t s c then xmrun f cap t k else XStuck
      end
    | XMLoop pl i s x [] u :: k => xmrun f cap t k
    | XMLoop pl i s x (v :: vs) u :: k =>
        xmrun f cap t (XMProg (pl ++ [i]) (upd s x v) u :: XMLoop pl (S i) s x vs u :: k)
    end
  end.

Definition merase_r (r : option (place * xmkont)) : option mkont :=
  option_map (fun pk => map merase (snd pk)) r.

Theorem xmrun_sound : forall fuel cap t k a r,
  xmrun fuel cap t k = XOk (a, r) -> mrun t (map merase k) a (merase_r r).
Proof.
  induction fuel; intros cap t k a r H; simpl in H; [discriminate|].
  destruct k as [|[pl s u | pl i s x vs u] k].
  - inversion H; subst; constructor.
  - destruct u; xres_cases;
      repeat match goal with E : xmrun fuel _ _ _ = XOk _ |- _ => apply IHfuel in E; simpl in E end;
      repeat match goal with E : iters_cap _ _ _ _ _ _ = Some _ |- _ => apply iters_cap_sound in E; subst end;
      simpl; try discriminate;
      try (inversion H; subst; constructor; fail);
      first [econstructor; eauto; fail | eapply MRIfF; eauto].
  - destruct vs; apply IHfuel in H; simpl in *; econstructor; eauto.
Qed.

Fixpoint xmstep (fuel cap : nat) (ths : list (thread * xmkont))
  : xres (list access * list (thread * option (place * xmkont))) :=
  match ths with
  | [] => XOk ([], [])
  | (t, k) :: ths =>
      match xmrun fuel cap t k with
      | XOk (a1, r) =>
          match xmstep fuel cap ths with
          | XOk (A, rs) => XOk (a1 ++ A, (t, r) :: rs)
          | XStuck => XStuck
          | XLimit => XLimit
          | XOut o => XOut o
          end
      | XStuck => XStuck
      | XLimit => XLimit
      | XOut o => XOut o
      end
  end.

Definition merase_th (tk : thread * xmkont) : thread * mkont := (fst tk, map merase (snd tk)).

Lemma xmstep_sound : forall fuel cap ths A rs,
  xmstep fuel cap ths = XOk (A, rs) ->
  mstep (map merase_th ths) A (map (fun tr => (fst tr, merase_r (snd tr))) rs).
Proof.
  induction ths as [|[t k] ths IH]; simpl; intros A rs H.
  - inversion H; subst; constructor.
  - destruct (xmrun fuel cap t k) as [[a1 r]| | |] eqn:E; try discriminate.
    destruct (xmstep fuel cap ths) as [[A' rs']| | |] eqn:E'; try discriminate.
    inversion H; subst; simpl. constructor; auto. apply xmrun_sound with fuel cap; auto.
Qed.

Lemma maligned_resume : forall rs ths', aligned rs = Some ths' ->
  map (fun tr => (fst tr, merase_r (snd tr))) rs = resume (map merase_th ths').
Proof. intros; apply (aligned_resume_gen (map merase)); auto. Qed.

Fixpoint xmrun_all (rounds fuel cap : nat) (ths : list (thread * xmkont)) : outcome (list access) :=
  match rounds with
  | 0 => RLimit
  | S n =>
      match xmstep fuel cap ths with
      | XStuck => RInfeasible
      | XLimit => RLimit
      | XOut o => ROut o
      | XOk (A, rs) =>
          if all_finished rs then RFinished [A]
          else match aligned rs with
               | Some ths' => ocons A (xmrun_all n fuel cap ths')
               | None => RDivergent [A]
               end
      end
  end.

Theorem xmrun_all_sound : forall rounds fuel cap ths As,
  xmrun_all rounds fuel cap ths = RFinished As -> mrun_all (map merase_th ths) As.
Proof.
  induction rounds; simpl; intros fuel cap ths As H; [discriminate|].
  destruct (xmstep fuel cap ths) as [[A rs]| | |] eqn:E; try discriminate.
  pose proof (xmstep_sound _ _ _ _ _ E) as S.
  destruct (all_finished rs) eqn:F.
  - inversion H; subst. econstructor; eauto.
    apply all_done_map; auto. apply all_finished_done; auto.
  - destruct (aligned rs) as [ths'|] eqn:Al; [|discriminate].
    destruct (xmrun_all rounds fuel cap ths') eqn:R; simpl in H; inversion H; subst.
    apply MABarrier with (map merase_th ths').
    + destruct ths; simpl in *; [inversion E; subst; simpl in Al; discriminate | discriminate].
    + rewrite <- (maligned_resume _ _ Al); auto.
    + eapply IHrounds; eauto.
Qed.

Definition xmstart (T : list thread) (s : env) (u : proto) : list (thread * xmkont) :=
  map (fun t => (t, [XMProg [] s u])) T.

(** A finished run of the oracle's MAP evaluation gives the MAP's phases. *)
Corollary oracle_map_sound : forall rounds fuel cap T s u As,
  xmrun_all rounds fuel cap (xmstart T s u) = RFinished As -> proto_phases T s u As.
Proof.
  intros. unfold proto_phases.
  replace (mstart T s u) with (map merase_th (xmstart T s u)).
  - eapply xmrun_all_sound; eauto.
  - clear; induction T; simpl; f_equal; auto.
Qed.

(** ** Races: every conflicting pair of a phase *)
Definition racing_modesb (m n : mode) : bool :=
  match m, n with
  | Wr, _ | _, Wr | At, Rd | Rd, At => true
  | _, _ => false
  end.

Lemma racing_modesb_spec : forall m n, racing_modesb m n = true <-> racing_modes m n.
Proof. unfold racing_modes; destruct m, n; simpl; intuition congruence. Qed.

Definition conflictb (a b : access) : bool :=
  (if thread_eq_dec (a_tid a) (a_tid b) then false else true) && Nat.eqb (a_arr a) (a_arr b) &&
  (if list_eq_dec Nat.eq_dec (a_idx a) (a_idx b) then true else false) && racing_modesb (a_mode a) (a_mode b).

Lemma conflictb_spec : forall a b, conflictb a b = true <-> conflict a b.
Proof.
  unfold conflictb, conflict; intros a b. rewrite <- racing_modesb_spec.
  destruct (thread_eq_dec (a_tid a) (a_tid b)); destruct (Nat.eqb_spec (a_arr a) (a_arr b));
    destruct (list_eq_dec Nat.eq_dec (a_idx a) (a_idx b));
    destruct (racing_modesb (a_mode a) (a_mode b)); simpl; split; intuition congruence.
Qed.

(** The pairs [(a, b)] of a list for which [c] holds, [a] before [b] in the list. *)
Fixpoint races_by (c : access -> access -> bool) (l : list access) : list (access * access) :=
  match l with
  | [] => []
  | a :: A => map (pair a) (filter (c a) A) ++ races_by c A
  end.

Lemma races_by_sound : forall c l a b, In (a, b) (races_by c l) -> In a l /\ In b l /\ c a b = true.
Proof.
  induction l as [|x A IH]; simpl; intros a b H; [contradiction|].
  apply in_app_or in H; destruct H as [H|H].
  - apply in_map_iff in H; destruct H as [y [E Hy]]; inversion E; subst.
    apply filter_In in Hy; destruct Hy as [Hy C]; auto.
  - destruct (IH a b H) as [? [? ?]]; auto.
Qed.

(** For a symmetric relation that no access has with itself, no pair is
    found iff no two accesses of the list are related. *)
Theorem races_by_nil_iff : forall c l,
  (forall a b, c a b = c b a) -> (forall a, c a a = false) ->
  (races_by c l = [] <-> forall a b, In a l -> In b l -> c a b = false).
Proof.
  intros c l Sym Irr; induction l as [|x A IH]; simpl; split.
  - intros _ a b [].
  - auto.
  - intros E a b Ha Hb.
    apply app_eq_nil in E; destruct E as [E1 E2].
    assert (F : forall y, In y A -> c x y = false).
    { intros y Hy. destruct (c x y) eqn:Cy; auto.
      assert (In (x, y) (map (pair x) (filter (c x) A))) as Hin by (apply in_map, filter_In; auto).
      rewrite E1 in Hin; contradiction. }
    destruct Ha as [<-|Ha]; destruct Hb as [<-|Hb]; auto.
    + rewrite Sym; auto.
    + apply (proj1 IH E2); auto.
  - intros D. rewrite (proj2 IH (fun a b Ha Hb => D a b (or_intror Ha) (or_intror Hb))).
    rewrite app_nil_r.
    destruct (filter (c x) A) as [|y l] eqn:E; auto.
    exfalso. assert (In y (filter (c x) A)) as Hy by (rewrite E; left; auto).
    apply filter_In in Hy; destruct Hy as [Hy C].
    rewrite (D x y (or_introl eq_refl) (or_intror Hy)) in C; discriminate.
Qed.

(** The conflicting pairs of a phase. *)
Definition races : list access -> list (access * access) := races_by conflictb.

Lemma races_sound : forall l a b, In (a, b) (races l) -> In a l /\ In b l /\ conflict a b.
Proof.
  intros l a b H; destruct (races_by_sound _ _ _ _ H) as [? [? C]]; apply conflictb_spec in C; auto.
Qed.

Lemma racing_modes_sym : forall m n, racing_modes m n -> racing_modes n m.
Proof. unfold racing_modes; intuition. Qed.

Lemma conflict_sym : forall a b, conflict a b -> conflict b a.
Proof.
  unfold conflict; intros a b [N [E1 [E2 R]]]; repeat split; auto. apply racing_modes_sym; auto.
Qed.

Lemma conflictb_sym : forall a b, conflictb a b = conflictb b a.
Proof.
  intros a b; destruct (conflictb a b) eqn:E; symmetry.
  - apply conflictb_spec in E; apply conflictb_spec, conflict_sym; auto.
  - destruct (conflictb b a) eqn:E'; auto. apply conflictb_spec in E'.
    assert (conflictb a b = true) as T by (apply conflictb_spec, conflict_sym; auto).
    congruence.
Qed.

Lemma conflictb_irr : forall a, conflictb a a = false.
Proof.
  intros a; destruct (conflictb a a) eqn:E; auto. apply conflictb_spec in E; destruct E; congruence.
Qed.

(** The race finder decides data-race freedom of a phase. *)
Theorem races_nil_iff : forall l, races l = [] <-> drf_accs l.
Proof.
  intros l; unfold races, drf_accs, drf_set.
  rewrite (races_by_nil_iff conflictb l conflictb_sym conflictb_irr).
  split; intros D a b Ha Hb.
  - intros C; apply conflictb_spec in C; rewrite (D a b Ha Hb) in C; discriminate.
  - destruct (conflictb a b) eqn:E; auto. apply conflictb_spec in E; exfalso; exact (D a b Ha Hb E).
Qed.

Corollary races_phase_nil_iff : forall P, races (accs P) = [] <-> drf_phase P.
Proof. intros; apply races_nil_iff. Qed.

(** ** The launch: blocks one by one, and races across blocks *)

(** Each block's run, in the order of the blocks. *)
Definition xgrid (rounds fuel cap : nat) (mem : list event) (B : grid) (s : env) (p : prog) : list (outcome phase) :=
  map (fun T => xrun_all rounds fuel cap mem (xstart T s p)) B.

Definition xmgrid (rounds fuel cap : nat) (B : grid) (s : env) (u : proto) : list (outcome (list access)) :=
  map (fun T => xmrun_all rounds fuel cap (xmstart T s u)) B.

(** When every block finished, the blocks' phases are a run of the launch. *)
Theorem oracle_grid_sound : forall rounds fuel cap mem B s p Pss,
  xgrid rounds fuel cap mem B s p = map RFinished Pss -> grid_run B s p mem Pss.
Proof.
  unfold xgrid; intros rounds fuel cap mem B s p; induction B as [|T B IH]; intros Pss H;
    destruct Pss as [|Ps Pss']; simpl in H; try discriminate; constructor.
  - inversion H as [[E1 E2]]. rewrite <- xstart_erase. apply xrun_all_sound with rounds fuel cap; auto.
  - inversion H; apply IH; auto.
Qed.

Theorem oracle_grid_map_sound : forall rounds fuel cap B s u Ass,
  xmgrid rounds fuel cap B s u = map RFinished Ass -> grid_phases B s u Ass.
Proof.
  unfold xmgrid; intros rounds fuel cap B s u; induction B as [|T B IH]; intros Ass H;
    destruct Ass as [|As Ass']; simpl in H; try discriminate; constructor.
  - inversion H; apply oracle_map_sound with rounds fuel cap; auto.
  - inversion H; apply IH; auto.
Qed.

Definition is_global (sc : arr -> scope) (A : arr) : bool := match sc A with Global => true | Shared => false end.

Definition cross_conflictb (sc : arr -> scope) (a b : access) : bool :=
  (if dim3_eq_dec (t_block (a_tid a)) (t_block (a_tid b)) then false else true) && is_global sc (a_arr a) &&
  Nat.eqb (a_arr a) (a_arr b) &&
  (if list_eq_dec Nat.eq_dec (a_idx a) (a_idx b) then true else false) && racing_modesb (a_mode a) (a_mode b).

Lemma cross_conflictb_spec : forall sc a b, cross_conflictb sc a b = true <-> cross_conflict sc a b.
Proof.
  unfold cross_conflictb, cross_conflict, is_global; intros sc a b. rewrite <- racing_modesb_spec.
  destruct (dim3_eq_dec (t_block (a_tid a)) (t_block (a_tid b))); destruct (sc (a_arr a));
    destruct (Nat.eqb_spec (a_arr a) (a_arr b)); destruct (list_eq_dec Nat.eq_dec (a_idx a) (a_idx b));
    destruct (racing_modesb (a_mode a) (a_mode b)); simpl; split; intuition congruence.
Qed.

(** The pairs of accesses of different blocks that conflict on a global array. *)
Definition cross_races (sc : arr -> scope) (Ass : list (list (list access))) : list (access * access) :=
  races_by (cross_conflictb sc) (concat (concat Ass)).

(** The race finder decides data-race freedom of a launch. *)
Theorem launch_races_nil_iff : forall sc Ass,
  (Forall (Forall (fun A => races A = [])) Ass /\ cross_races sc Ass = []) <-> drf_launch sc Ass.
Proof.
  intros sc Ass; unfold drf_launch, cross_races.
  assert (CS : forall a b, cross_conflict sc a b -> cross_conflict sc b a).
  { unfold cross_conflict; intros a b [N [G [E1 [E2 R]]]]; repeat split; auto; try congruence.
    apply racing_modes_sym; auto. }
  assert (Sym : forall a b, cross_conflictb sc a b = cross_conflictb sc b a).
  { intros a b; destruct (cross_conflictb sc a b) eqn:E; symmetry.
    - apply cross_conflictb_spec in E; apply cross_conflictb_spec, CS; auto.
    - destruct (cross_conflictb sc b a) eqn:E'; auto. apply cross_conflictb_spec in E'.
      assert (cross_conflictb sc a b = true) as T by (apply cross_conflictb_spec, CS; auto).
      congruence. }
  assert (Irr : forall a, cross_conflictb sc a a = false).
  { intros a; destruct (cross_conflictb sc a a) eqn:E; auto. apply cross_conflictb_spec in E; destruct E; congruence. }
  rewrite (races_by_nil_iff _ _ Sym Irr).
  assert (Ph : Forall (Forall (fun A => races A = [])) Ass <-> Forall (Forall drf_accs) Ass).
  { split; intros F; eapply Forall_impl; try apply F; intros As FA; eapply Forall_impl; try apply FA;
      intros A; apply races_nil_iff. }
  rewrite Ph; split; intros [F C]; split; auto; intros a b Ha Hb.
  - intros X; apply cross_conflictb_spec in X; rewrite (C a b Ha Hb) in X; discriminate.
  - destruct (cross_conflictb sc a b) eqn:E; auto. apply cross_conflictb_spec in E; exfalso; exact (C a b Ha Hb E).
Qed.
