/**
 * Never a silent drop (issue 28 §5): every statement, declaration and call
 * the CUDA front end meets, in every `.cu` example and in a corpus of one
 * kernel per statement kind the grammar can put in a function body, is
 * lowered (it changes the kernel being built), approximated with a named
 * notice (an N06xx code), or rejected with a located diagnostic (an E06xx
 * code at a span of the file). The front end reports what came of each node
 * it met (src/frontend/cuda/observe.ts, at its real dispatch: lowerStatement,
 * call, and the file's declarations); a node that came to nothing is a drop
 * unless it is one of the few that have nothing to lower, each named below
 * with why.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { frontEndsFor, type CudaFlags } from '../../../src/cli/cuda.js';
import { lowerCuda } from '../../../src/frontend/cuda/lower.js';
import { builtinCall } from '../../../src/frontend/cuda/builtins.js';
import type { Visit } from '../../../src/frontend/cuda/observe.js';
import type { Node } from '../../../src/frontend/cuda/parse.js';

interface Met {
  readonly path: string;
  readonly text: string;
  readonly visits: readonly Visit[];
  /** kernels verified or in error, and `__global__` definitions in the preprocessed text by a scan of its own */
  readonly kernels: number;
  readonly definitions: number;
}

async function met(path: string, text: string, flags: CudaFlags = {}): Promise<Met> {
  const frontEnds = await frontEndsFor(path, text, flags);
  const visits: Visit[] = [];
  const unit = lowerCuda({ ...frontEnds.cuda!, observer: (v) => visits.push(v) }, path, text);
  return { path, text, visits, kernels: unit.program.kernels.length + unit.rejected.length, definitions: globalDefinitions(unit.program.file.text) };
}

/**
 * The `__global__` function definitions of a preprocessed text, counted
 * without the parser (issue 30 §2): each `__global__` whose declaration
 * reaches a `{` before a `;` at bracket depth 0 (a prototype ends at `;`).
 * The unit has no comments left; a string holding `__global__` is not
 * expected in a kernel file.
 */
function globalDefinitions(text: string): number {
  let count = 0;
  for (const m of text.matchAll(/\b__global__\b/g)) {
    let depth = 0;
    for (let i = m.index + m[0].length; i < text.length; i++) {
      const c = text[i]!;
      if (c === '(' || c === '[') depth++;
      else if (c === ')' || c === ']') depth--;
      else if (depth === 0 && (c === '{' || c === ';')) {
        if (c === '{') count++;
        break;
      }
    }
  }
  return count;
}

const STATEMENT_LIKE = new Set([
  ...['attributed_statement', 'break_statement', 'case_statement', 'co_return_statement', 'co_yield_statement', 'compound_statement', 'continue_statement'],
  ...['do_statement', 'expression_statement', 'for_range_loop', 'for_statement', 'goto_statement', 'if_statement', 'labeled_statement', 'return_statement'],
  ...['seh_leave_statement', 'seh_try_statement', 'switch_statement', 'throw_statement', 'try_statement', 'while_statement', 'declaration', 'type_definition'],
  ...['alias_declaration', 'static_assert_declaration'],
]);

/** The statements directly inside `n` (through clauses and else branches, not through nested statements). */
function innerStatements(n: Node): Node[] {
  return n.namedChildren.flatMap((c) => (c === null || c.type === 'comment' ? [] : STATEMENT_LIKE.has(c.type) ? [c] : innerStatements(c)));
}

/** What can make an expression statement do something: without any of them, it computes a value and drops it, as C does. */
const EFFECTFUL = new Set(['call_expression', 'assignment_expression', 'update_expression', 'subscript_expression', 'pointer_expression', 'field_expression', 'new_expression', 'delete_expression', 'gnu_asm_expression']);

/** Whether `n` has a part that can do something other than a call met on its own (whose outcome is checked where it is met). */
const hasEffectfulPart = (n: Node, visited: ReadonlySet<Node>): boolean =>
  (EFFECTFUL.has(n.type) && !(n.type === 'call_expression' && visited.has(n))) || n.namedChildren.some((c) => c !== null && hasEffectfulPart(c, visited));

const CUDA_SPACE = /\[\[(device|shared|constant|managed)\]\]/;

/** Why a node that came to nothing has nothing to lower, or null: a silent drop. */
function nothingToLower(v: Visit, visited: ReadonlySet<Node>): string | null {
  const n = v.node;
  const allInnerMet = innerStatements(n).every((s) => visited.has(s));
  switch (v.site) {
    case 'statement':
      switch (n.type) {
        case 'expression_statement':
          return hasEffectfulPart(n, visited) ? null : 'an expression without effects, its value discarded';
        case 'compound_statement':
        case 'if_statement':
        case 'for_statement':
        case 'while_statement':
        case 'do_statement':
        case 'attributed_statement':
          return allInnerMet ? 'a construct whose statements were each met (and checked) on their own' : null;
        case 'static_assert_declaration':
          return 'checked by the compiler; nothing happens at run time';
        case 'struct_specifier':
        case 'class_specifier':
        case 'union_specifier':
        case 'enum_specifier':
          return n.childForFieldName('body') === null ? 'a forward declaration' : null;
        default:
          return null;
      }
    case 'call': {
      const fn = n.childForFieldName('function');
      const meaning = fn === null ? null : builtinCall(fn.text);
      return meaning?.kind === 'no-effect' ? `a builtin with no effect on data races (${meaning.why})` : null;
    }
    case 'file':
      switch (n.type) {
        case 'declaration':
          // a host variable: device code cannot name it (a use is an unknown name, rejected); a prototype: its definition is what is read
          if (!CUDA_SPACE.test(n.text)) return 'a host declaration';
          return n.childrenForFieldName('declarator').every((d) => d?.type === 'function_declarator') ? 'a prototype' : null;
        case 'ERROR':
        case 'expression_statement':
        case 'if_statement':
        case 'for_statement':
        case 'while_statement':
        case 'do_statement':
        case 'return_statement':
        case 'compound_statement':
          return CUDA_SPACE.test(n.text) || /\[\[global\]\]/.test(n.text) ? null : 'host code that does not parse as a declaration; the kernels in it are found by the second scan (heads.ts)';
        case 'string_literal':
          return "the language of a linkage specification (`extern \"C\"`), whose declarations are met on their own";
        case 'template_parameter_list':
          return 'the parameters of a template, read with the declaration they belong to';
        case 'static_assert_declaration':
        case 'concept_definition':
          return 'checked by the compiler; nothing happens at run time';
        case 'using_declaration':
        case 'namespace_alias_definition':
          return 'a name for names: the front end reads qualified names by their last component';
        case 'struct_specifier':
        case 'class_specifier':
        case 'union_specifier':
        case 'enum_specifier':
          return n.childForFieldName('body') === null ? 'a forward declaration' : null;
        case 'namespace_definition':
        case 'linkage_specification':
        case 'template_declaration':
          return n.namedChildren.every((c) => c === null || c.type === 'comment' || !/\[\[(global|device)\]\]/.test(c.text)) ? 'host declarations only' : null;
        default:
          return null;
      }
  }
}

/** Each node that was dropped without a word, a notice without a code, or a rejection without a place in the file, as `file: site kind at byte (text): why`. */
function silentDrops(m: Met): string[] {
  const visited = new Set(m.visits.map((v) => v.node));
  const out: string[] = [];
  for (const v of m.visits) {
    const where = `${v.site} ${v.node.type} at byte ${v.node.startIndex} (${JSON.stringify(v.node.text.slice(0, 40))})`;
    switch (v.outcome.kind) {
      case 'lowered':
        break;
      case 'notice':
        for (const d of v.outcome.notices) if (!/^N06\d\d$/.test(d.code)) out.push(`${m.path}: ${where}: notice without an N06xx code: ${d.message}`);
        break;
      case 'rejected': {
        const d = v.outcome.diagnostic;
        if (!/^E0[56]\d\d$/.test(d.code) || d.span.end <= d.span.start || d.span.end > d.file.text.length) out.push(`${m.path}: ${where}: rejected without a located E06xx diagnostic: ${d.code} ${d.message}`);
        break;
      }
      case 'none':
        if (nothingToLower(v, visited) === null) out.push(`${m.path}: ${where}: dropped without a word`);
        break;
    }
  }
  return out;
}

function cuFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? cuFiles(path) : path.endsWith('.cu') ? [path] : [];
    });
}

/** The compilation database of a build project an example file belongs to, which gives its -D and -I. */
function databaseOf(path: string): CudaFlags {
  const m = /^(examples\/[^/]+)\//.exec(path);
  const db = m === null ? null : join(m[1]!, 'build', 'compile_commands.json');
  return db !== null && existsSync(db) ? { compileCommands: db } : {};
}

/**
 * One kernel per kind of statement or declaration the grammar (tree-sitter-cpp's
 * node-types.json: compound_statement's children, `statement` and
 * `type_specifier` expanded) can put in a function body, and calls of each kind.
 */
const CORPUS: Readonly<Record<string, string>> = {
  attributed_statement: '[[likely]] a[i] = 1;',
  break_statement: 'while (true) { break; }',
  case_statement: 'case 1: a[i] = 1;',
  co_return_statement: 'co_return;',
  co_yield_statement: 'co_yield 1;',
  compound_statement: '{ a[i] = 1; }',
  continue_statement: 'for (int j = 0; j < n; j++) { if (j == i) continue; a[j] = 0; }',
  do_statement: 'do { a[i] = 1; } while (false);',
  expression_statement: 'a[i] = i; i; ;',
  for_range_loop: 'for (int v : a) a[v] = 0;',
  for_statement: 'for (int j = 0; j < n; j++) a[j * blockDim.x + i] = 0;',
  goto_statement: 'goto end; a[i] = 1; end: a[i] = 2;',
  if_statement: 'if (i < n) a[i] = 1; else a[i] = 2; if (i < n) {}',
  labeled_statement: 'again: a[i] = 1;',
  return_statement: 'if (i >= n) return; a[i] = 1;',
  seh_try_statement: '__try { a[i] = 1; } __except (1) { }',
  switch_statement: 'switch (i) { case 0: a[i] = 1; break; default: a[i] = 2; }',
  throw_statement: 'throw 1;',
  try_statement: 'try { a[i] = 1; } catch (...) { }',
  while_statement: 'int j = i; while (j < n) { a[j] = 0; j += blockDim.x; }',
  alias_declaration: 'using T = int; T x = a[i]; a[i] = x + 1;',
  concept_definition: 'concept C = true;',
  declaration: 'int x = a[i], y; __shared__ int s[64]; s[i % 64] = x;',
  function_definition: 'void g() {}',
  linkage_specification: 'extern "C" int f(int);',
  namespace_alias_definition: 'namespace m = n;',
  namespace_definition: 'namespace q {}',
  static_assert_declaration: 'static_assert(sizeof(int) == 4, "int");',
  template_declaration: 'template <typename T> struct X;',
  template_instantiation: 'template void g<int>(int);',
  type_definition: 'typedef unsigned U; U x = i; a[x] = 1;',
  using_declaration: 'using namespace std;',
  class_specifier: 'class C;',
  decltype: 'decltype(i);',
  dependent_type: 'typename T::x;',
  enum_specifier: 'enum E { A, B }; a[i] = A;',
  placeholder_type_specifier: 'auto;',
  primitive_type: 'int;',
  sized_type_specifier: 'unsigned;',
  struct_specifier: 'struct S { int x; }; a[i] = 1;',
  union_specifier: 'union U { int x; float y; };',
  'forward struct': 'struct S; a[i] = 1;',
  'calls of builtins': '__syncthreads(); __threadfence(); printf("%d", i); atomicAdd(&a[0], 1); int m = min(i, n); a[i] = __popc(m); __syncwarp(); assert(i >= 0);',
  'calls of the file\'s functions': 'a[i] = twice(i); store(a, i);',
  'calls of undeclared functions': 'int r = mystery(i); a[i] = r;',
  'a call passing a pointer to an undeclared function': 'mystery2(a);',
};

/** Kinds the corpus cannot make the front end meet as a statement, with why. */
const NOT_MET: Readonly<Record<string, string>> = {
  seh_leave_statement: 'only inside __try, which is rejected before its body is read',
  qualified_identifier: 'parses as an expression statement',
  template_type: 'parses as an expression statement',
  type_identifier: 'parses as an expression statement',
  preproc_call: 'the preprocessor consumes every directive',
  preproc_def: 'the preprocessor consumes every directive',
  preproc_function_def: 'the preprocessor consumes every directive',
  preproc_if: 'the preprocessor consumes every directive',
  preproc_ifdef: 'the preprocessor consumes every directive',
  preproc_include: 'the preprocessor consumes every directive',
};

const HELPERS = `
__device__ int twice(int x) { return 2 * x; }
__device__ void store(int *p, int j) { p[j] = j; }
`;

const corpusKernel = (body: string): string => `${HELPERS}\n__global__ void k(int *a, int n) {\n  int i = threadIdx.x;\n  ${body}\n}\n`;

/** The kinds of node a function body may hold, by the grammar. */
function bodyKinds(): string[] {
  const types = JSON.parse(readFileSync('node_modules/tree-sitter-cpp/src/node-types.json', 'utf8')) as { type: string; subtypes?: { type: string }[]; children?: { types: { type: string }[] } }[];
  const byName = new Map(types.map((t) => [t.type, t]));
  const expand = (name: string): string[] => {
    const subtypes = byName.get(name)?.subtypes;
    return subtypes === undefined ? [name] : subtypes.flatMap((s) => expand(s.type));
  };
  return byName.get('compound_statement')!.children!.types.flatMap((t) => expand(t.type));
}

describe('never a silent drop', () => {
  it('every statement, declaration and call of the .cu examples is lowered, noticed or rejected at its place', async () => {
    const drops: string[] = [];
    let visits = 0;
    let definitions = 0;
    for (const path of cuFiles('examples')) {
      const m = await met(path, readFileSync(path, 'utf8'), databaseOf(path));
      visits += m.visits.length;
      definitions += m.definitions;
      drops.push(...silentDrops(m));
      if (m.kernels !== m.definitions) drops.push(`${path}: ${m.definitions} __global__ definitions, ${m.kernels} kernels verified or in error`);
    }
    expect(drops).toEqual([]);
    expect(visits).toBeGreaterThan(1500);
    expect(definitions).toBeGreaterThan(100);
  });

  it('every kind of statement and declaration the grammar allows in a function body is met, and none is dropped', async () => {
    const kinds = new Set<string>();
    const drops: string[] = [];
    for (const [name, body] of Object.entries(CORPUS)) {
      const m = await met(`${name.replace(/\W+/g, '-')}.cu`, corpusKernel(body));
      for (const v of m.visits) if (v.site === 'statement') kinds.add(v.node.type);
      drops.push(...silentDrops(m));
    }
    expect(drops).toEqual([]);
    const unmet = bodyKinds().filter((k) => !kinds.has(k) && NOT_MET[k] === undefined);
    expect(unmet).toEqual([]);
  });

  it('a kernel whose head holds a byte that is not UTF-8 is in error, not missing (issue 30 §2)', async () => {
    // readFileSync(…, 'utf8') reads each invalid sequence as U+FFFD
    for (const head of ['__global__ \uFFFD void b(int *a)', '__global__ void \uFFFDb(int *a)', '__global__\uFFFDvoid b(int *a)']) {
      const m = await met('bad-byte.cu', `__global__ void ok(int *a) { a[threadIdx.x] = 1; }\n${head} { a[0] = threadIdx.x; }\n`);
      expect([head, m.definitions, m.kernels]).toEqual([head, 2, 2]);
    }
  });

  it('a statement kind lowered to nothing is a drop: the check itself', () => {
    const fake = (type: string, text: string): Node => ({ type, text, namedChildren: [], startIndex: 0, childForFieldName: () => null, childrenForFieldName: () => [] }) as unknown as Node;
    const none = { kind: 'none' } as const;
    expect(nothingToLower({ site: 'statement', node: fake('switch_statement', 'switch (i) {}'), outcome: none }, new Set())).toBeNull();
    expect(nothingToLower({ site: 'statement', node: fake('expression_statement', 'i;'), outcome: none }, new Set())).not.toBeNull();
  });
});
