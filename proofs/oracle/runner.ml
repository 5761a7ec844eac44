(* The third oracle: runs kernels with the semantics extracted from the Coq
   mechanisation (Run.v, Infer.v; extracted by Extract.v to babycuda.ml).

   Reads from standard input jobs of the form

     (job ID KERNEL LAUNCH...)

   where KERNEL is what `faial-ts lower --sexp` prints (src/core/sexp.ts
   gives the grammar; machine integers are (T N), (T X), (T OP E E),
   (cast T E), (cmp CMP E E) and (for X FROM TO (T OP E) S)) and each
   LAUNCH is

     (launch (params (NAME VALUE)...) (blockDim X Y Z) (gridDim X Y Z))

   (a typed parameter's VALUE may be negative: it is held as its bits,
   MachineInt.enc)

   and prints one JSON object per launch, on its own line:

     {"job":ID,"launch":I,"run":RESULT,"typed":BOOL,"map":RESULT|null}

   "run" is the program's run (Run.xgrid: each block by Run.xrun_all), "map"
   the run of the MAP that Infer.infer gives (Run.xmgrid; null when the
   kernel is ill-typed).  A RESULT is

     {"kind":K,"blocks":[{"block":"X,Y,Z","kind":K,"phases":[PHASE...]}...],
      "crossRaces":[[ACCESS,ACCESS]...]}

   with K one of finished, divergent, infeasible (an assume failed), limit
   (a bound was reached), undefined (an operation outside the scope of
   machine integers: Run.ROut OUndefined), negative-index (a signed index
   below 0: ROut ONegIndex), excluded (the launch violates a requires or
   the launch clause); the launch's K is infeasible if a block's is, else
   undefined, limit, negative-index, divergent if a block's is, else
   finished.  The
   blocks and each block's threads are in linear order (x fastest).  A PHASE
   is {"accesses":[ACCESS...],"races":[[ACCESS,ACCESS]...]} with an ACCESS
   ["BX,BY,BZ/TX,TY,TZ","ARRAY",["INDEX"...],"r"|"w"|"a","VALUE"|null] (the
   value of the event, an atomic's the value it writes; null in a MAP and in
   a race), numbers written as strings;
   "races" are the conflicting pairs of the phase (Run.races) and
   "crossRaces" those of threads of different blocks on a global array
   (Run.cross_races), the first of each element and pair of modes.

   This file only reads, converts and prints: the semantics is the extracted
   code's. *)

open Babycuda

(* ---------- S-expressions ---------- *)

type sexp = Atom of string | List of sexp list

exception Bad of string

let bad fmt = Printf.ksprintf (fun s -> raise (Bad s)) fmt

let parse_all (text : string) : sexp list =
  let n = String.length text in
  let pos = ref 0 in
  let rec skip () =
    if !pos < n then
      match text.[!pos] with
      | ' ' | '\n' | '\t' | '\r' -> incr pos; skip ()
      | ';' -> while !pos < n && text.[!pos] <> '\n' do incr pos done; skip ()
      | _ -> ()
  in
  let rec one () =
    skip ();
    if !pos >= n then bad "unexpected end of input";
    match text.[!pos] with
    | '(' ->
        incr pos;
        let items = ref [] in
        let rec loop () =
          skip ();
          if !pos >= n then bad "unclosed '('";
          if text.[!pos] = ')' then incr pos
          else (items := one () :: !items; loop ())
        in
        loop ();
        List (List.rev !items)
    | ')' -> bad "unexpected ')' at %d" !pos
    | _ ->
        let start = !pos in
        while !pos < n && not (List.mem text.[!pos] [' '; '\n'; '\t'; '\r'; '('; ')'; ';']) do incr pos done;
        Atom (String.sub text start (!pos - start))
  in
  let forms = ref [] in
  let rec top () =
    skip ();
    if !pos < n then (forms := one () :: !forms; top ())
  in
  top ();
  List.rev !forms

let show = function Atom a -> a | List _ -> "(...)"

let big_of (s : sexp) : Big_int_Z.big_int =
  match s with
  | Atom a when a <> "" && String.for_all (fun c -> c >= '0' && c <= '9') a -> Big_int_Z.big_int_of_string a
  | _ -> bad "expected a natural number, not %s" (show s)

(* ---------- names ---------- *)

(* Variables and arrays are numbered in the order they are met. *)
type names = { tbl : (string, Big_int_Z.big_int) Hashtbl.t; mutable next : int }

let new_names () = { tbl = Hashtbl.create 16; next = 0 }

let intern (ns : names) (name : string) : Big_int_Z.big_int =
  match Hashtbl.find_opt ns.tbl name with
  | Some v -> v
  | None ->
      let v = Big_int_Z.big_int_of_int ns.next in
      ns.next <- ns.next + 1;
      Hashtbl.add ns.tbl name v;
      v

(* blockDim and gridDim are variables of the model, bound by the launch. *)
let builtin_var (vars : names) (b : string) (axis : string) : Big_int_Z.big_int = intern vars (b ^ "." ^ axis)

let axis_of = function "x" -> AX | "y" -> AY | "z" -> AZ | a -> bad "unknown axis %s" a

(* ---------- kernels ---------- *)

let binop = function
  | "+" -> OAdd | "-" -> OSub | "*" -> OMul | "/" -> ODiv | "%" -> OMod
  | "<<" -> OShl | ">>" -> OShr | "&" -> OAnd | "|" -> OOr | "^" -> OXor
  | o -> bad "unknown operator %s" o

let atomic_op = function
  | "add" -> AtAdd | "sub" -> AtSub | "max" -> AtMax | "min" -> AtMin | "and" -> AtAnd | "or" -> AtOr
  | "xor" -> AtXor | "exch" -> AtExch | "cas" -> AtCas | "inc" -> AtInc | "dec" -> AtDec
  | o -> bad "unknown atomic operation %s" o

let cmpop = function
  | "==" -> CEq | "!=" -> CNe | "<" -> CLt | "<=" -> CLe | ">" -> CGt | ">=" -> CGe
  | o -> bad "unknown comparison %s" o

(* machine integers: a type, an operation on it, a constant (possibly negative) *)
let ity_of = function "u32" -> Some U32 | "i32" -> Some I32 | "u64" -> Some U64 | "i64" -> Some I64 | _ -> None
let is_ity a = ity_of a <> None
let the_ity a = match ity_of a with Some t -> t | None -> bad "unknown machine type %s" a

let mop = function
  | "+" -> MAdd | "-" -> MSub | "*" -> MMul | "/" -> MDiv | "%" -> MMod
  | "<<" -> MShl | ">>" -> MShr | "&" -> MAnd | "|" -> MOr | "^" -> MXor
  | o -> bad "unknown operator %s" o

let is_int a = a <> "" && (let digits = if a.[0] = '-' then String.sub a 1 (String.length a - 1) else a in
  digits <> "" && String.for_all (fun c -> c >= '0' && c <= '9') digits)

let rec nexp (vars : names) (s : sexp) : nexp =
  match s with
  | Atom a when a <> "" && a.[0] >= '0' && a.[0] <= '9' -> NNum (big_of s)
  | Atom a -> NVar (intern vars a)
  | List [Atom "threadIdx"; Atom axis] -> NId (IThread, axis_of axis)
  | List [Atom "blockIdx"; Atom axis] -> NId (IBlock, axis_of axis)
  | List [Atom ("blockDim" | "gridDim" as b); Atom ("x" | "y" | "z" as axis)] -> NVar (builtin_var vars b axis)
  (* (T N): a constant of type T; (T X): a variable of type T, held as its bits *)
  | List [Atom t; Atom a] when is_ity t && is_int a -> NInt (the_ity t, Big_int_Z.big_int_of_string a)
  | List [Atom t; Atom x] when is_ity t -> NCast (the_ity t, NVar (intern vars x))
  | List [Atom "cast"; Atom t; e] -> NCast (the_ity t, nexp vars e)
  | List [Atom t; Atom o; a; b] when is_ity t -> NOp (the_ity t, mop o, nexp vars a, nexp vars b)
  | List [Atom o; a; b] -> NBin (binop o, nexp vars a, nexp vars b)
  | _ -> bad "not an expression: %s" (show s)

let rec bexp (vars : names) (s : sexp) : bexp =
  match s with
  | Atom "true" -> BTrue
  | Atom "false" -> BFalse
  | List [Atom "and"; c; d] -> BAnd (bexp vars c, bexp vars d)
  | List [Atom "or"; c; d] -> BOr (bexp vars c, bexp vars d)
  | List [Atom "not"; c] -> BNot (bexp vars c)
  | List [Atom "cmp"; Atom o; a; b] -> BZCmp (cmpop o, nexp vars a, nexp vars b)
  | List [Atom o; a; b] -> BCmp (cmpop o, nexp vars a, nexp vars b)
  | _ -> bad "not a condition: %s" (show s)

let index vars = function
  | List ix -> List.map (nexp vars) ix
  | s -> bad "not an index list: %s" (show s)

let rec prog (vars : names) (arrays : names) (s : sexp) : prog =
  let p = prog vars arrays in
  match s with
  | Atom "skip" -> PSkip
  | Atom "sync" -> PSync
  | List [Atom "write"; Atom a; ix; e] -> PWrite (intern arrays a, index vars ix, nexp vars e)
  | List [Atom "read"; Atom x; Atom a; ix; body] -> PRead (intern vars x, intern arrays a, index vars ix, p body)
  | List [Atom "let"; Atom x; e; body] -> PLet (intern vars x, nexp vars e, p body)
  | List [Atom "atomic"; Atom op; Atom a; ix; List vs; Atom x; body] ->
      PAtomic (intern vars x, intern arrays a, index vars ix, atomic_op op, List.map (nexp vars) vs, p body)
  | List (Atom "seq" :: ss) ->
      let rec nest = function [] -> PSkip | [s] -> p s | s :: ss -> PSeq (p s, nest ss) in
      nest ss
  | List [Atom "if"; c; t; e] -> PIf (bexp vars c, p t, p e)
  | List [Atom "for"; Atom x; lo; hi; List [Atom t; Atom k; amount]; body] when is_ity t ->
      PFor (intern vars x, nexp vars lo, nexp vars hi, StepT (the_ity t, mop k, nexp vars amount), p body)
  | List [Atom "for"; Atom x; lo; hi; List [Atom k; amount]; body] ->
      let a = nexp vars amount in
      let st = match k with "+" -> StepAdd a | "*" -> StepMul a | "-" -> StepSub a | "/" -> StepDiv a | _ -> bad "unknown step %s" k in
      PFor (intern vars x, nexp vars lo, nexp vars hi, st, p body)
  | List [Atom "assume"; c] -> PAssume (bexp vars c)
  | _ -> bad "not a statement: %s" (show s)

type kernel = {
  params : string list;
  ptypes : (string * ity) list;  (* the typed parameters' types *)
  shared : string list;
  requires : bexp list;
  clause : (nexp list * nexp list) option;  (* grid, block *)
  body : prog;
  vars : names;
  arrays : names;
}

let field name items = List.find_map (function List (Atom n :: rest) when n = name -> Some rest | _ -> None) items

let kernel_of (s : sexp) : kernel =
  match s with
  | List (Atom "kernel" :: Atom _ :: items) ->
      let vars = new_names () and arrays = new_names () in
      let pdecls = match field "params" items with Some ps -> ps | None -> [] in
      let params = List.map (function Atom p | List [Atom p; Atom _] -> p | x -> bad "bad parameter %s" (show x)) pdecls in
      let ptypes = List.filter_map (function List [Atom p; Atom t] -> Some (p, the_ity t) | _ -> None) pdecls in
      List.iter (fun p -> ignore (intern vars p)) params;
      List.iter (fun b -> List.iter (fun a -> ignore (builtin_var vars b a)) ["x"; "y"; "z"]) ["blockDim"; "gridDim"];
      let decls = match field "arrays" items with Some ds -> ds | None -> [] in
      let shared =
        List.filter_map
          (function
            | List [Atom a; Atom scope] ->
                ignore (intern arrays a);
                if scope = "shared" then Some a else if scope = "global" then None else bad "unknown scope %s" scope
            | x -> bad "bad array %s" (show x))
          decls
      in
      let requires = match field "requires" items with Some cs -> List.map (bexp vars) cs | None -> [] in
      let clause =
        match field "launch" items with
        | Some [List g; List b] -> Some (List.map (nexp vars) g, List.map (nexp vars) b)
        | Some _ -> bad "bad launch clause"
        | None -> None
      in
      let body = match field "body" items with Some [b] -> prog vars arrays b | _ -> bad "a kernel needs one (body ...)" in
      { params; ptypes; shared; requires; clause; body; vars; arrays }
  | _ -> bad "not a kernel: %s" (show s)

(* ---------- launches ---------- *)

type launch = { pvals : (string * Big_int_Z.big_int) list; block : Big_int_Z.big_int list; grid : Big_int_Z.big_int list }

let launch_of (s : sexp) : launch =
  match s with
  | List (Atom "launch" :: items) ->
      let value = function Atom a when is_int a -> Big_int_Z.big_int_of_string a | x -> bad "expected an integer, not %s" (show x) in
      let pvals = match field "params" items with Some ps -> List.map (function List [Atom n; v] -> (n, value v) | x -> bad "bad parameter value %s" (show x)) ps | None -> [] in
      let dim n = match field n items with Some [x; y; z] -> [big_of x; big_of y; big_of z] | _ -> bad "a launch needs (%s X Y Z)" n in
      { pvals; block = dim "blockDim"; grid = dim "gridDim" }
  | _ -> bad "not a launch: %s" (show s)

(* ---------- printing ---------- *)

let buf = Buffer.create 65536
let str s = Buffer.add_string buf s
let json_string s = str "\""; String.iter (fun c -> match c with '"' -> str "\\\"" | '\\' -> str "\\\\" | c -> Buffer.add_char buf c) s; str "\""
(* numbers as strings: JSON readers lose the digits of integers past 2^53 *)
let big b = str "\""; str (Big_int_Z.string_of_big_int b); str "\""
let comma_list f xs = List.iteri (fun i x -> if i > 0 then str ","; f x) xs

let array_name (arrays : names) (a : Big_int_Z.big_int) : string =
  Hashtbl.fold (fun k v acc -> if Big_int_Z.eq_big_int v a then k else acc) arrays.tbl "?"

let dim_text (d : dim3) = String.concat "," (List.map Big_int_Z.string_of_big_int [d.d_x; d.d_y; d.d_z])

let access arrays (a : access) (value : Big_int_Z.big_int option) =
  str "["; json_string (dim_text a.a_tid.t_block ^ "/" ^ dim_text a.a_tid.t_thread); str ",";
  json_string (array_name arrays a.a_arr); str ",["; comma_list big a.a_idx; str "],";
  str (match a.a_mode with Rd -> "\"r\"" | Wr -> "\"w\"" | At -> "\"a\""); str ",";
  (match value with Some v -> big v | None -> str "null"); str "]"

(* The first pair of each element and pair of modes. *)
let first_races arrays (rs : (access * access) list) =
  let seen = Hashtbl.create 16 in
  let first =
    List.filter
      (fun (a, b) ->
        let key = (Big_int_Z.string_of_big_int a.a_arr, List.map Big_int_Z.string_of_big_int a.a_idx, a.a_mode, b.a_mode) in
        if Hashtbl.mem seen key then false else (Hashtbl.add seen key (); true))
      rs
  in
  str "["; comma_list (fun (a, b) -> str "["; access arrays a None; str ","; access arrays b None; str "]") first; str "]"

(* A phase: its accesses (with the value of each event of a program run, none in a MAP) and its races. *)
let phase arrays (valued : (access * Big_int_Z.big_int option) list) =
  str "{\"accesses\":["; comma_list (fun (a, v) -> access arrays a v) valued; str "],\"races\":";
  first_races arrays (races (List.map fst valued));
  str "}"

let outcome_kind = function
  | RFinished ps -> ("finished", ps)
  | RDivergent ps -> ("divergent", ps)
  | RInfeasible -> ("infeasible", [])
  | RLimit -> ("limit", [])
  | ROut OUndefined -> ("undefined", [])
  | ROut ONegIndex -> ("negative-index", [])

(* The launch's result from its blocks' ([blocks] paired with their indices). *)
let result arrays (sc : arr -> scope) (blocks : (dim3 * string * (access * Big_int_Z.big_int option) list list) list) : string =
  let kinds = List.map (fun (_, k, _) -> k) blocks in
  let kind =
    if List.mem "infeasible" kinds then "infeasible" else if List.mem "undefined" kinds then "undefined"
    else if List.mem "limit" kinds then "limit" else if List.mem "negative-index" kinds then "negative-index"
    else if List.mem "divergent" kinds then "divergent" else "finished"
  in
  Buffer.clear buf;
  str "{\"kind\":"; json_string kind; str ",\"blocks\":[";
  comma_list
    (fun (b, k, ps) ->
      str "{\"block\":"; json_string (dim_text b); str ",\"kind\":"; json_string k; str ",\"phases\":[";
      comma_list (phase arrays) ps; str "]}")
    blocks;
  str "],\"crossRaces\":";
  first_races arrays (cross_races sc (List.map (fun (_, _, ps) -> List.map (List.map fst) ps) blocks));
  str "}";
  Buffer.contents buf

let excluded = "{\"kind\":\"excluded\",\"blocks\":[],\"crossRaces\":[]}"

(* ---------- running ---------- *)

let big_int = Big_int_Z.big_int_of_int
let zero = Big_int_Z.zero_big_int
let one = Big_int_Z.unit_big_int

(* bounds: steps of a thread to its next barrier, values of a loop, phases *)
let fuel = big_int 200_000
let cap = big_int 100_000
let rounds = big_int 10_000

let rec range n = if Big_int_Z.le_big_int n zero then [] else range (Big_int_Z.pred_big_int n) @ [Big_int_Z.pred_big_int n]

(* The coordinates within [dims], in linear order (x fastest). *)
let coords (dims : Big_int_Z.big_int list) : dim3 list =
  match dims with
  | [x; y; z] -> List.concat_map (fun cz -> List.concat_map (fun cy -> List.map (fun cx -> { d_x = cx; d_y = cy; d_z = cz }) (range x)) (range y)) (range z)
  | _ -> bad "a dimension has three components"

(* The program's result, whether the kernel is well-typed, and its MAP's result (when it is). *)
let run_launch (k : kernel) (l : launch) : string * bool * string option =
  let values = Hashtbl.create 16 in
  (* a typed parameter holds its value's bits (MachineInt.enc, extracted); a natural one its value *)
  let held p v =
    match List.assoc_opt p k.ptypes with
    | Some t -> if in_rangeb t v then enc t v else bad "value %s out of the range of parameter %s" (Big_int_Z.string_of_big_int v) p
    | None -> if Big_int_Z.sign_big_int v < 0 then bad "parameter %s must be a natural number" p else v
  in
  List.iter (fun p -> match List.assoc_opt p l.pvals with Some v -> Hashtbl.replace values (intern k.vars p) (held p v) | None -> bad "no value for parameter %s" p) k.params;
  List.iteri
    (fun i axis ->
      Hashtbl.replace values (builtin_var k.vars "blockDim" axis) (List.nth l.block i);
      Hashtbl.replace values (builtin_var k.vars "gridDim" axis) (List.nth l.grid i))
    ["x"; "y"; "z"];
  let s : env = fun x -> match Hashtbl.find_opt values x with Some v -> v | None -> zero in
  (* V: the parameters, blockDim and gridDim *)
  let v = Hashtbl.fold (fun name id acc -> if List.mem name k.params || String.contains name '.' then id :: acc else acc) k.vars.tbl [] in
  let map = infer v k.body in
  let typed = map <> None in
  let origin = { t_block = { d_x = zero; d_y = zero; d_z = zero }; t_thread = { d_x = zero; d_y = zero; d_z = zero } } in
  let violates = List.exists (fun c -> not (beval origin s c)) k.requires in
  let clause_disagrees =
    match k.clause with
    | None -> false
    | Some (g, b) ->
        let pad es = List.map (eval origin s) es @ List.init (3 - List.length es) (fun _ -> one) in
        not (List.for_all2 Big_int_Z.eq_big_int (pad g) l.grid && List.for_all2 Big_int_Z.eq_big_int (pad b) l.block)
  in
  if violates || clause_disagrees then (excluded, typed, None)
  else begin
    let blocks = coords l.grid and threads = coords l.block in
    let grid = List.map (fun b -> List.map (fun t -> { t_block = b; t_thread = t }) threads) blocks in
    let sc a = if List.mem (array_name k.arrays a) k.shared then Shared else Global in
    let guarded f = try f () with Failure _ | Invalid_argument _ | Stack_overflow -> List.map (fun _ -> RLimit) blocks in
    let kinds outcomes value = List.map2 (fun b o -> let kind, ps = outcome_kind o in (b, kind, List.map (List.map value) ps)) blocks outcomes in
    let run = result k.arrays sc (kinds (guarded (fun () -> xgrid rounds fuel cap [] grid s k.body)) (fun e -> (e.ev_acc, Some e.ev_val))) in
    match map with
    | None -> (run, false, None)
    | Some u -> (run, true, Some (result k.arrays sc (kinds (guarded (fun () -> xmgrid rounds fuel cap grid s u)) (fun a -> (a, None)))))
  end

let () =
  let text =
    let b = Buffer.create 65536 and chunk = Bytes.create 65536 in
    let rec read () = let n = input stdin chunk 0 65536 in if n > 0 then (Buffer.add_subbytes b chunk 0 n; read ()) in
    read (); Buffer.contents b
  in
  let jobs = try parse_all text with Bad m -> prerr_endline ("oracle: " ^ m); exit 2 in
  List.iter
    (fun job ->
      match job with
      | List (Atom "job" :: Atom id :: kernel :: launches) -> (
          match kernel_of kernel with
          | exception Bad m -> Printf.printf "{\"job\":%s,\"error\":\"%s\"}\n" id (String.escaped m)
          | k ->
              List.iteri
                (fun i l ->
                  match run_launch k (launch_of l) with
                  | exception Bad m -> Printf.printf "{\"job\":%s,\"launch\":%d,\"error\":\"%s\"}\n" id i (String.escaped m)
                  | run, typed, map ->
                      Printf.printf "{\"job\":%s,\"launch\":%d,\"run\":%s,\"typed\":%b,\"map\":%s}\n" id i run typed
                        (match map with Some m -> m | None -> "null"))
                launches)
      | _ -> prerr_endline ("oracle: not a job: " ^ show job); exit 2)
    jobs
