/**
 * CUDA C parsed with a real C++ grammar: web-tree-sitter running
 * tree-sitter-cpp's WebAssembly build, in Node and in browsers alike. The
 * caller hands over the two WebAssembly files' bytes (the CLI reads them from
 * node_modules, a page fetches them), so nothing here touches a file system.
 *
 * tree-sitter-cpp does not know CUDA's qualifiers: `__global__ void k()` and
 * `__shared__ int a[4]` come back as ERROR nodes. Before parsing, each
 * qualifier that says what a declaration is becomes a C++ attribute of the
 * same length (`__global__` → `[[global]]`), which the grammar keeps in the
 * tree where the declaration is, and qualifiers that change nothing we model
 * (`__restrict__`, `__forceinline__`, `__launch_bounds__(…)`, a launch's
 * `<<<…>>>`) become blanks. Offsets are unchanged, so every node's span is a
 * span of the text the user wrote.
 */
import type { Parser, TreeCursor } from 'web-tree-sitter';

/** The grammar, loaded once per process (or page). */
export interface CudaGrammar {
  readonly parser: Parser;
}

/** The two WebAssembly modules: web-tree-sitter's runtime and tree-sitter-cpp's grammar. */
export interface GrammarBytes {
  readonly runtime: Uint8Array;
  readonly cpp: Uint8Array;
}

let runtimeReady: Promise<void> | undefined;

/** Loaded on first use, so that reading BabyCUDA alone never loads web-tree-sitter. */
export async function loadCudaGrammar(bytes: GrammarBytes): Promise<CudaGrammar> {
  const { Language, Parser } = await import('web-tree-sitter');
  // the bytes are given; locateFile keeps the runtime from computing the file's URL from import.meta, which a classic worker's bundle (the playground's) has not
  runtimeReady ??= Parser.init({ wasmBinary: bytes.runtime, locateFile: (name: string) => name });
  await runtimeReady;
  const parser = new Parser();
  parser.setLanguage(await Language.load(bytes.cpp));
  return { parser };
}

/** CUDA's qualifiers that say what a declaration is, kept as attributes of the same name. */
export const CUDA_ATTRIBUTES = ['global', 'device', 'host', 'shared', 'constant', 'managed'] as const;
export type CudaAttribute = (typeof CUDA_ATTRIBUTES)[number];

const KEPT = new RegExp(`\\b__(${CUDA_ATTRIBUTES.join('|')})__\\b`, 'g');
/** `__device__` / `__host__` after a lambda's capture list (`[=] __host__ __device__ (…)`). */
const LAMBDA_QUALIFIERS = /\](?:\s*__(?:host|device)__\b)+/g;
/** Qualifiers with nothing to model: hints to the compiler. */
const BLANKED = /\b(?:__restrict__|__restrict|__forceinline__|__noinline__|__inline__|__grid_constant__)\b/g;
/** Qualifiers with an argument list, blanked with it. */
const WITH_ARGUMENTS = /\b(?:__launch_bounds__|__align__|__maxnreg__)\s*\(/g;

function blank(chars: string[], start: number, end: number): void {
  for (let i = start; i < end; i++) if (chars[i] !== '\n') chars[i] = ' ';
}

/** The end of the parenthesised list whose `(` is at `open`, or the text's end. */
function closingParen(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return i + 1;
  }
  return text.length;
}

/** The text with CUDA's qualifiers made C++ of the same length (see the module comment). */
export function neutralised(text: string): string {
  const chars = text.split('');
  for (const m of text.matchAll(KEPT)) {
    const replacement = `[[${m[1]!}]]`;
    for (let i = 0; i < replacement.length; i++) chars[m.index + i] = replacement[i]!;
  }
  // an extended lambda's qualifiers (`[=] __device__ (int i) {…}`): as attributes there they would not parse, and the lambda is rejected by name
  for (const m of text.matchAll(LAMBDA_QUALIFIERS)) blank(chars, m.index + 1, m.index + m[0].length);
  for (const m of text.matchAll(BLANKED)) blank(chars, m.index, m.index + m[0].length);
  for (const m of text.matchAll(WITH_ARGUMENTS)) blank(chars, m.index, closingParen(text, m.index + m[0].length - 1));
  // a launch `k<<<grid, block>>>(args)` is host code; as blanks it reads as a call
  for (const m of text.matchAll(/<<<[^;]*?>>>/g)) blank(chars, m.index, m.index + m[0].length);
  return chars.join('');
}

/**
 * A node of the syntax tree, copied out of WebAssembly once per parse: the
 * lowering asks many questions of every node, and each would otherwise be a
 * call into WebAssembly that allocates. Same names as web-tree-sitter's Node.
 */
export class Node {
  readonly children: Node[] = [];
  readonly namedChildren: Node[] = [];
  readonly fields: (string | null)[] = [];
  /** the node this one is a child of (null for the root): the namespaces a call is written in (calls.ts) */
  parent: Node | null = null;
  hasError = false;
  constructor(
    readonly type: string,
    readonly startIndex: number,
    readonly endIndex: number,
    readonly isNamed: boolean,
    readonly isMissing: boolean,
    private readonly source: string,
  ) {}

  get text(): string {
    return this.source.slice(this.startIndex, this.endIndex);
  }

  get isError(): boolean {
    return this.type === 'ERROR';
  }

  child(i: number): Node | null {
    return this.children[i] ?? null;
  }

  childForFieldName(name: string): Node | null {
    const i = this.fields.indexOf(name);
    return i < 0 ? null : this.children[i]!;
  }

  childrenForFieldName(name: string): Node[] {
    return this.children.filter((_, i) => this.fields[i] === name);
  }

  descendantsOfType(type: string): Node[] {
    const out: Node[] = [];
    const visit = (n: Node): void => {
      if (n.type === type) out.push(n);
      for (const c of n.children) visit(c);
    };
    for (const c of this.children) visit(c);
    return out;
  }
}

/**
 * How deep the syntax tree may be. The tree is copied without recursion, but
 * the front end's walks over it (marks, syntax errors, the lowering) recurse
 * on it; past this depth the file is refused (E0004) before any of them runs.
 * Each `(`, `{`, statement and operator is a level or two; 3,000 nested
 * blocks overflowed the stack. The lowering has its own, smaller limit
 * (nesting.ts), which is what a kernel meets first.
 */
export const MAX_SYNTAX_DEPTH = 1000;

function nodeAt(cursor: TreeCursor, source: string): Node {
  const node = new Node(cursor.nodeType, cursor.startIndex, cursor.endIndex, cursor.nodeIsNamed, cursor.nodeIsMissing, source);
  node.hasError = node.isMissing || node.type === 'ERROR';
  return node;
}

/** The tree under the cursor, copied with an explicit stack; or the offset of the first node deeper than MAX_SYNTAX_DEPTH. */
function copied(cursor: TreeCursor, source: string): Node | { readonly tooDeep: number } {
  const root = nodeAt(cursor, source);
  // the nodes from the root to the cursor's node
  const path: Node[] = [root];
  const enter = (parent: Node): void => {
    const c = nodeAt(cursor, source);
    c.parent = parent;
    parent.children.push(c);
    parent.fields.push(cursor.currentFieldName);
    if (c.isNamed) parent.namedChildren.push(c);
    path.push(c);
  };
  for (;;) {
    if (cursor.gotoFirstChild()) {
      if (path.length >= MAX_SYNTAX_DEPTH) return { tooDeep: cursor.startIndex };
      enter(path[path.length - 1]!);
      continue;
    }
    // a leaf: close nodes until one has a next sibling
    for (;;) {
      const done = path.pop()!;
      const parent = path[path.length - 1];
      if (parent === undefined) return root;
      if (done.hasError) parent.hasError = true;
      if (cursor.gotoNextSibling()) {
        enter(parent);
        break;
      }
      cursor.gotoParent();
    }
  }
}

/** A CUDA translation unit's syntax tree, or where it is nested deeper than MAX_SYNTAX_DEPTH. */
export type ParsedCuda = { readonly kind: 'tree'; readonly root: Node } | { readonly kind: 'tooDeep'; readonly offset: number };

/** The syntax tree of a CUDA translation unit (see neutralised for what is done to the text first). */
export function parseCuda(grammar: CudaGrammar, text: string): ParsedCuda {
  const source = neutralised(text);
  const tree = grammar.parser.parse(source);
  if (tree === null) throw new Error('tree-sitter returned no tree');
  const cursor = tree.walk();
  try {
    const root = copied(cursor, source);
    if (!(root instanceof Node)) return { kind: 'tooDeep', offset: root.tooDeep };
    markIllFormed(root, false, source);
    return { kind: 'tree', root };
  } finally {
    cursor.delete();
    tree.delete();
  }
}

const CASTS = new Set(['static_cast', 'reinterpret_cast', 'const_cast', 'dynamic_cast']);

/** A MISSING node of type `what` inserted in `parent` before its child `at`, with field `field`: as the grammar marks a token it expected. */
function missing(parent: Node, at: number, what: string, field: string | null, source: string): void {
  const before = parent.children[at];
  const offset = before?.startIndex ?? parent.endIndex;
  const node = new Node(what, offset, offset, true, true, source);
  node.hasError = true;
  parent.children.splice(at, 0, node);
  parent.fields.splice(at, 0, field);
  parent.namedChildren.splice(parent.namedChildren.filter((c) => c.startIndex < offset).length, 0, node);
  parent.hasError = true;
}

/**
 * The grammar accepts some text C++ rejects, which the lowering would then
 * meet without the parts it reads: a function definition without a return
 * type (C's implicit int; a constructor, in a class, has none and is not
 * marked) and a cast without its type or operand (`static_cast<>(0)`). Each
 * gets a MISSING node, as the grammar marks what it expected and did not
 * find, so a kernel that is or calls such a function is rejected with E0601
 * at that place. Returns whether anything below `n` was marked.
 */
function markIllFormed(n: Node, inClass: boolean, source: string): boolean {
  let marked = false;
  for (const c of n.children) if (markIllFormed(c, inClass || n.type === 'field_declaration_list', source)) marked = true;
  if (n.type === 'function_definition' && !inClass && n.childForFieldName('type') === null) {
    const declarator = n.fields.indexOf('declarator');
    const name = declarator < 0 ? null : n.children[declarator]!;
    if (name !== null && name.type === 'function_declarator' && name.childForFieldName('declarator')?.type === 'identifier') {
      missing(n, declarator, 'return type', 'type', source);
      marked = true;
    }
  }
  if (n.type === 'call_expression') {
    const fn = n.childForFieldName('function');
    const args = n.childForFieldName('arguments');
    if (fn?.type === 'template_function' && CASTS.has(fn.childForFieldName('name')?.text ?? '') && args !== null) {
      const typeArgs = fn.childForFieldName('arguments');
      if (typeArgs !== null && typeArgs.namedChildren.length === 0) {
        missing(typeArgs, typeArgs.children.length - 1, 'type', null, source);
        fn.hasError = true;
        marked = true;
      }
      if (args.namedChildren.length === 0) {
        missing(args, args.children.length - 1, 'expression', null, source);
        marked = true;
      }
    }
  }
  if (marked) n.hasError = true;
  return marked;
}

/** The CUDA attributes written on a declaration or function definition (`[[global]]` from `__global__`). */
export function cudaAttributes(node: Node): Set<CudaAttribute> {
  const out = new Set<CudaAttribute>();
  for (const child of node.children) {
    if (child.type !== 'attribute_declaration') continue;
    for (const attribute of child.namedChildren) {
      const name = attribute.childForFieldName('name')?.text;
      if (name !== undefined && (CUDA_ATTRIBUTES as readonly string[]).includes(name)) out.add(name as CudaAttribute);
    }
  }
  return out;
}

/** The first ERROR or MISSING node below `node`, if any. */
export function syntaxErrorIn(node: Node): Node | null {
  if (!node.hasError) return null;
  if (node.isError || node.isMissing) return node;
  for (const child of node.children) {
    const found = syntaxErrorIn(child);
    if (found !== null) return found;
  }
  return node;
}
