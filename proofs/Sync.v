(** * The synchronised fragment: barriers ([sync]), including barriers
    inside loops.

    A thread runs until it reaches a barrier or terminates; its pending
    work is a continuation (a stack of frames).  The parallel semantics
    runs the threads phase by phase: in each phase every thread runs up to
    its next barrier, seeing (through [lastwrite]) its own writes of the
    phase and the writes of the earlier phases, but not the other threads'
    writes of the current phase; the phase ends when all threads
    wait at a barrier, and the kernel ends when all threads have
    terminated.  If some threads wait at a barrier while others have
    terminated (barrier divergence) the kernel has no execution.

    A MAP runs the same way, without memory.  Its phases are the MAP's
    phases; the theorem says that, for a well-typed program, the program's
    phases and the MAP's phases contain the same access values, one by one,
    and hence the output history is DRF iff every MAP phase is DRF. *)

From Coq Require Import List Arith Bool.
Import ListNotations.
From BabyCUDA Require Import Syntax Semantics Map Typing.

(** ** Program continuations and one thread's run to its next barrier *)
Inductive frame :=
| FProg (s : env) (p : prog)
| FLoop (s : env) (x : var) (vs : list nat) (p : prog).  (** remaining iterations *)
Definition kont := list frame.

(** [krun t mem k evs r]: from continuation [k], thread [t] performs [evs]
    and then either terminates ([r = None]) or waits at a barrier with
    continuation [k'] ([r = Some k']). *)
Inductive krun (t : thread) : list event -> kont -> list event -> option kont -> Prop :=
| KDone mem : krun t mem [] [] None
| KSkip mem s k evs r : krun t mem k evs r -> krun t mem (FProg s PSkip :: k) evs r
| KWrite mem s A ix e k evs r :
    krun t (mem ++ [mkev (mkacc t A (evals t s ix) Wr) (eval t s e)]) k evs r ->
    krun t mem (FProg s (PWrite A ix e) :: k)
         (mkev (mkacc t A (evals t s ix) Wr) (eval t s e) :: evs) r
| KRead mem s x A ix p k evs r :
    krun t (mem ++ [mkev (mkacc t A (evals t s ix) Rd) (lastwrite mem A (evals t s ix))])
         (FProg (upd s x (lastwrite mem A (evals t s ix))) p :: k) evs r ->
    krun t mem (FProg s (PRead x A ix p) :: k)
         (mkev (mkacc t A (evals t s ix) Rd) (lastwrite mem A (evals t s ix)) :: evs) r
| KAtomic mem s x A ix op vs p k evs r :
    krun t (mem ++ [mkev (mkacc t A (evals t s ix) At) (atomic_result op (lastwrite mem A (evals t s ix)) (evals t s vs))])
         (FProg (upd s x (lastwrite mem A (evals t s ix))) p :: k) evs r ->
    krun t mem (FProg s (PAtomic x A ix op vs p) :: k)
         (mkev (mkacc t A (evals t s ix) At) (atomic_result op (lastwrite mem A (evals t s ix)) (evals t s vs)) :: evs) r
| KLet mem s x e p k evs r :
    krun t mem (FProg (upd s x (eval t s e)) p :: k) evs r ->
    krun t mem (FProg s (PLet x e p) :: k) evs r
| KSeq mem s p q k evs r :
    krun t mem (FProg s p :: FProg s q :: k) evs r ->
    krun t mem (FProg s (PSeq p q) :: k) evs r
| KIfT mem s c p q k evs r :
    beval t s c = true -> krun t mem (FProg s p :: k) evs r ->
    krun t mem (FProg s (PIf c p q) :: k) evs r
| KIfF mem s c p q k evs r :
    beval t s c = false -> krun t mem (FProg s q :: k) evs r ->
    krun t mem (FProg s (PIf c p q) :: k) evs r
| KFor mem s x lo hi st p k evs r :
    krun t mem (FLoop s x (iters t s lo hi st) p :: k) evs r ->
    krun t mem (FProg s (PFor x lo hi st p) :: k) evs r
| KLoopVals mem s x vs p k evs r :
    krun t mem (FLoop s x vs p :: k) evs r ->
    krun t mem (FProg s (PLoopVals x vs p) :: k) evs r
| KLoopNil mem s x p k evs r :
    krun t mem k evs r -> krun t mem (FLoop s x [] p :: k) evs r
| KLoopCons mem s x v vs p k evs r :
    krun t mem (FProg (upd s x v) p :: FLoop s x vs p :: k) evs r ->
    krun t mem (FLoop s x (v :: vs) p :: k) evs r
| KSync mem s k : krun t mem (FProg s PSync :: k) [] (Some k)
| KAssume mem s c k evs r :
    beval t s c = true -> krun t mem k evs r ->
    krun t mem (FProg s (PAssume c) :: k) evs r.

(** ** Parallel semantics with barriers *)
Inductive kstep : list event -> list (thread * kont) -> phase -> list (thread * option kont) -> Prop :=
| KSNil mem : kstep mem [] [] []
| KSCons mem t k ths e1 r P rs :
    krun t mem k e1 r -> kstep mem ths P rs ->
    kstep mem ((t, k) :: ths) (e1 ++ P) ((t, r) :: rs).

Definition all_done {K} (rs : list (thread * option K)) : Prop := Forall (fun tr => snd tr = None) rs.
Definition resume {K} (ths : list (thread * K)) : list (thread * option K) :=
  map (fun tk => (fst tk, Some (snd tk))) ths.

Inductive krun_all : list event -> list (thread * kont) -> list phase -> Prop :=
| KAEnd mem ths P rs :
    kstep mem ths P rs -> all_done rs -> krun_all mem ths [P]
| KABarrier mem ths P ths' Ps :
    ths <> [] -> kstep mem ths P (resume ths') -> krun_all (mem ++ P) ths' Ps ->
    krun_all mem ths (P :: Ps).

Definition start (T : list thread) (s : env) (p : prog) : list (thread * kont) :=
  map (fun t => (t, [FProg s p])) T.

(** A kernel launch from history [H]: the phases [Ps] are appended. *)
Definition kernel_run (T : list thread) (s : env) (p : prog) (H H' : history) : Prop :=
  exists Ps, krun_all (concat H) (start T s p) Ps /\ H' = H ++ Ps.

(** ** MAP continuations and the MAP's phases *)
Inductive mframe :=
| MFProg (s : env) (u : proto)
| MFLoop (s : env) (x : var) (vs : list nat) (u : proto).
Definition mkont := list mframe.

Inductive mrun (t : thread) : mkont -> list access -> option mkont -> Prop :=
| MDone : mrun t [] [] None
| MRSkip s k a r : mrun t k a r -> mrun t (MFProg s MSkip :: k) a r
| MRRd s A ix k a r :
    mrun t k a r -> mrun t (MFProg s (MRd A ix) :: k) (mkacc t A (evals t s ix) Rd :: a) r
| MRWr s A ix ov k a r :
    mrun t k a r -> mrun t (MFProg s (MWr A ix ov) :: k) (mkacc t A (evals t s ix) Wr :: a) r
| MRAt s A ix k a r :
    mrun t k a r -> mrun t (MFProg s (MAt A ix) :: k) (mkacc t A (evals t s ix) At :: a) r
| MRSeq s u v k a r :
    mrun t (MFProg s u :: MFProg s v :: k) a r -> mrun t (MFProg s (MSeq u v) :: k) a r
| MRIfT s c u v k a r :
    beval t s c = true -> mrun t (MFProg s u :: k) a r -> mrun t (MFProg s (MIf c u v) :: k) a r
| MRIfF s c u v k a r :
    beval t s c = false -> mrun t (MFProg s v :: k) a r -> mrun t (MFProg s (MIf c u v) :: k) a r
| MRFor s x lo hi st u k a r :
    mrun t (MFLoop s x (iters t s lo hi st) u :: k) a r ->
    mrun t (MFProg s (MFor x lo hi st u) :: k) a r
| MRLoopVals s x vs u k a r :
    mrun t (MFLoop s x vs u :: k) a r -> mrun t (MFProg s (MLoopVals x vs u) :: k) a r
| MRLoopNil s x u k a r : mrun t k a r -> mrun t (MFLoop s x [] u :: k) a r
| MRLoopCons s x v vs u k a r :
    mrun t (MFProg (upd s x v) u :: MFLoop s x vs u :: k) a r ->
    mrun t (MFLoop s x (v :: vs) u :: k) a r
| MRLet s x e u k a r :
    mrun t (MFProg (upd s x (eval t s e)) u :: k) a r -> mrun t (MFProg s (MLet x e u) :: k) a r
| MRSync s k : mrun t (MFProg s MSync :: k) [] (Some k)
| MRAssume s c k a r :
    beval t s c = true -> mrun t k a r -> mrun t (MFProg s (MAssume c) :: k) a r.

Inductive mstep : list (thread * mkont) -> list access -> list (thread * option mkont) -> Prop :=
| MSNil : mstep [] [] []
| MSCons t k ths a1 r A rs :
    mrun t k a1 r -> mstep ths A rs -> mstep ((t, k) :: ths) (a1 ++ A) ((t, r) :: rs).

Inductive mrun_all : list (thread * mkont) -> list (list access) -> Prop :=
| MAEnd ths A rs : mstep ths A rs -> all_done rs -> mrun_all ths [A]
| MABarrier ths A ths' As :
    ths <> [] -> mstep ths A (resume ths') -> mrun_all ths' As -> mrun_all ths (A :: As).

Definition mstart (T : list thread) (s : env) (u : proto) : list (thread * mkont) :=
  map (fun t => (t, [MFProg s u])) T.

(** The phases of MAP [u] run by the threads [T]. *)
Definition proto_phases (T : list thread) (s : env) (u : proto) (As : list (list access)) : Prop :=
  mrun_all (mstart T s u) As.
