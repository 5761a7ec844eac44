(** * Extraction of the executable semantics to OCaml (the third oracle).

    [make -C proofs oracle] extracts [Run.v]'s runs of programs and MAPs,
    the race finder and [Infer.infer] to [oracle/babycuda.ml], and builds
    the runner [oracle/runner.ml] around them.

    Naturals are extracted to Zarith's integers (arbitrary precision, as
    the TypeScript interpreter's bigints): the arithmetic below is mapped to
    Zarith's, each mapping the textbook meaning of the Coq function (the
    standard library's [ExtrOcamlNatBigInt] does the same for the functions
    it covers).  These mappings, OCaml and the runner's reading and printing
    are trusted; everything else in the oracle is the Coq definitions. *)

From Coq Require Import Extraction ExtrOcamlBasic ExtrOcamlNatBigInt ExtrOcamlZBigInt.
From Coq Require Import List Arith ZArith.
From BabyCUDA Require Import Syntax Semantics Map Infer Grid Run MachineInt.

Extract Constant Nat.add => "Big_int_Z.add_big_int".
Extract Constant Nat.mul => "Big_int_Z.mult_big_int".
Extract Constant Nat.sub =>
  "(fun n m -> Big_int_Z.max_big_int Big_int_Z.zero_big_int (Big_int_Z.sub_big_int n m))".
(* naturals: Euclidean division is C's; n / 0 = 0 and n mod 0 = n, as Coq's *)
Extract Constant Nat.div =>
  "(fun n m -> if Big_int_Z.sign_big_int m = 0 then Big_int_Z.zero_big_int else Big_int_Z.div_big_int n m)".
Extract Constant Nat.modulo =>
  "(fun n m -> if Big_int_Z.sign_big_int m = 0 then n else Big_int_Z.mod_big_int n m)".
(* a shift past 2^24 bits stops the run (the runner reports a limit), as the
   TypeScript interpreter refuses values of more than 2^24 bits *)
Extract Constant Nat.shiftl =>
  "(fun n m -> if Big_int_Z.gt_big_int m (Big_int_Z.big_int_of_int 16777216) then failwith ""shift too large""
   else Big_int_Z.shift_left_big_int n (Big_int_Z.int_of_big_int m))".
Extract Constant Nat.shiftr =>
  "(fun n m -> if Big_int_Z.ge_big_int m (Z.of_int (Z.numbits n)) then Big_int_Z.zero_big_int
   else Big_int_Z.shift_right_big_int n (Big_int_Z.int_of_big_int m))".
Extract Constant Nat.land => "Big_int_Z.and_big_int".
Extract Constant Nat.lor => "Big_int_Z.or_big_int".
Extract Constant Nat.lxor => "Big_int_Z.xor_big_int".
Extract Constant Nat.eqb => "Big_int_Z.eq_big_int".
Extract Constant Nat.ltb => "Big_int_Z.lt_big_int".
Extract Constant Nat.leb => "Big_int_Z.le_big_int".
Extract Constant Nat.min => "Big_int_Z.min_big_int".
Extract Constant Nat.eq_dec => "Big_int_Z.eq_big_int".

(* Machine integers (MachineInt.v, the typed expressions of Syntax.v) on
   Zarith's integers, as the standard library's ExtrOcamlZBigInt does for
   the functions it covers (Z.add, sub, mul, div, modulo, compare, ...):
   naturals and integers are both Zarith's, so the conversions are the
   identity and the truncation at 0; Coq's [Z.quot]/[Z.rem] truncate toward
   zero with [a / 0 = 0] and [a rem 0 = a] (Zarith's [Z.div]/[Z.rem] truncate
   toward zero); [Z.pow a b] is 0 for [b < 0]; [land]/[lor]/[lxor] are on
   two's complement (Coq's on negative integers too). *)
Extract Constant Z.of_nat => "(fun n -> n)".
Extract Constant Z.to_nat => "(fun z -> if Big_int_Z.sign_big_int z < 0 then Big_int_Z.zero_big_int else z)".
Extract Constant Z.pow =>
  "(fun a b -> if Big_int_Z.sign_big_int b < 0 then Big_int_Z.zero_big_int
   else if Big_int_Z.gt_big_int b (Big_int_Z.big_int_of_int 16777216) then failwith ""power too large""
   else Big_int_Z.power_big_int_positive_int a (Big_int_Z.int_of_big_int b))".
Extract Constant Z.quot => "(fun a b -> if Big_int_Z.sign_big_int b = 0 then Big_int_Z.zero_big_int else Z.div a b)".
Extract Constant Z.rem => "(fun a b -> if Big_int_Z.sign_big_int b = 0 then a else Z.rem a b)".
Extract Constant Z.land => "Z.logand".
Extract Constant Z.lor => "Z.logor".
Extract Constant Z.lxor => "Z.logxor".
Extract Constant Z.ltb => "Big_int_Z.lt_big_int".
Extract Constant Z.leb => "Big_int_Z.le_big_int".

Extraction "oracle/babycuda.ml" xgrid xmgrid races cross_races infer enc.
