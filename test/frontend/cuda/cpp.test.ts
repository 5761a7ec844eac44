/**
 * The C++ types and statements real kernels use (issue 28 §4): aliases of
 * references, references, typedef'd structs and enums, switch, casts. Each
 * construct is shown in the lowered core, and the soundness cases by verdict.
 */
import { describe, expect, it } from 'vitest';
import { body, lowered, rejection, verified } from './lower-helpers.js';

/** The verdict of each kernel of the file, for every launch. */
async function statuses(text: string): Promise<string[]> {
  const { rejected, results } = await verified(text, 4);
  return [...rejected, ...results.map((r) => r.status)];
}

describe('a reference reached through an alias is a reference, never a copy', () => {
  const racy = (decl: string, pre = ''): string => `${pre}\n__global__ void k(int *a) {\n  ${decl} r = a[0];\n  r = threadIdx.x;\n}\n`;

  it('typedef, using, an alias template and decltype of an element: the racy write through it is never proved DRF', async () => {
    for (const text of [
      racy('R', 'typedef int &R;'),
      racy('R', 'using R = int &;'),
      racy('Ref<int>', 'template <class T> using Ref = T &;'),
      racy('decltype(a[0])'),
      racy('R', '') .replace('{\n', '{\n  typedef int &R;\n'),
    ]) {
      const [status] = await statuses(text);
      expect(status, text).not.toBe('drf');
    }
  });

  it('a template argument that is a reference makes a by-value parameter a reference', async () => {
    const text = 'template <class T> __device__ void set(T x, int v) { x = v; }\n__global__ void k(int *a) { set<int &>(a[0], threadIdx.x); }\n';
    const [status] = await statuses(text);
    expect(status).not.toBe('drf');
  });

  it('a kernel instantiated with a reference type is rejected at the instantiation', async () => {
    const text = 'template <class T> __global__ void k(int *a) { T r = a[0]; r = threadIdx.x; }\ntemplate __global__ void k<int &>(int *);\n';
    expect((await rejection(text)).split('\n')[0]).toMatch(/E0602.*a kernel instantiated with a reference type \(T = int &\)/);
  });

  it('a member type of a class template is resolved at its instantiation: a reference stays one (classes.test.ts)', async () => {
    const dependent = 'template <class T> struct Tr { typedef T &ref; };\n__global__ void k(int *a) { Tr<int>::ref r = a[0]; r = threadIdx.x; }\n';
    expect(await statuses(dependent)).toEqual(['racy']);
  });

  it('a type faial-ts cannot resolve is rejected where a variable is declared with it', async () => {
    const dependent = 'template <class T> __global__ void k(int *a) { typename T::ref r = a[0]; r = threadIdx.x; }\n';
    expect((await rejection(dependent)).split('\n')[0]).toMatch(/E0602.*the type typename T::ref, which faial-ts cannot resolve/);
    const decl = '__global__ void k(int *a) { int b = 1; decltype(b + 1) r = a[0]; }\n';
    expect((await rejection(decl)).split('\n')[0]).toMatch(/E0602.*decltype\(b \+ 1\), which faial-ts cannot resolve/);
    expect((await rejection('__global__ void k(int *a) { decltype(auto) r = (a[0]); r = 1; }\n')).split('\n')[0]).toMatch(/E0602.*decltype\(auto\)/);
  });

  it('a typedef names its type (before, every typedef name was opaque)', async () => {
    const text = 'typedef unsigned char U8;\n__global__ void k(int *a) { U8 x = 300; a[threadIdx.x] = x; }\n';
    expect(await body(text)).toContain(':= 44');
    const resolved = '__global__ void k(int *a) { int b = 1; decltype(b) c = 7; a[threadIdx.x] = c; }\n';
    expect(await body(resolved)).toContain(':= 7');
  });
});

describe('references', () => {
  it('a reference to an element aliases it: its index is evaluated where it is bound, each use is an access of that element', async () => {
    const text = `__global__ void k(int *a) {
  int i = threadIdx.x;
  int &r = a[i];
  i = i + 1;
  r = r + 1;
}
`;
    expect(await body(text)).toBe(['let i: i32 = (i32) (u32) threadIdx.x in', 'let i_1: i32 = i + 1 in', 'let a_v = a[i] in', 'a[i] := a_v + 1'].join('\n'));
  });

  it('reference parameters: an element, a local, a struct field; a const reference to a value holds the value', async () => {
    const text = `__device__ void bump(int &x, int v) { x += v; }
__device__ void addx(float3 &acc, const float3 &b) { acc.x = b.x; }
__global__ void k(int *a, float3 *p) {
  bump(a[threadIdx.x], 2);
  int t = 1;
  bump(t, 3);
  a[t] = 0;
  addx(p[threadIdx.x], p[0]);
  const int &c = threadIdx.x + 1;
  a[c] = 1;
}
`;
    expect(await body(text)).toBe(
      [
        'let a_v = a[(u32) threadIdx.x] in',
        'a[(u32) threadIdx.x] := a_v + 2;',
        'a[4] := 0;',
        'let p_v = p[0][0] in',
        'p[(u32) threadIdx.x][0] := p_v;',
        'let c: i32 = (i32) ((u32) threadIdx.x + 1) in',
        'a[c] := 1',
      ].join('\n'),
    );
  });

  it('racy and race-free twins: a write through a reference to a neighbour races, to its own element does not', async () => {
    const twin = (index: string): string => `__device__ void put(int &x, int v) { x = v; }
__global__ void k(int *a) {
  int &r = a[${index}];
  put(r, threadIdx.x);
}
`;
    expect(await statuses(twin('threadIdx.x'))).toEqual(['drf']);
    expect(await statuses(twin('threadIdx.x / 2'))).toEqual(['racy']);
  });

  it('a local changed through a reference inside a loop is unknown after it, and a loop variable so changed makes the loop approximate', async () => {
    const after = `__device__ void bump(int &x) { x += 1; }
__global__ void k(int *a) {
  int t = 0;
  for (int i = 0; i < 4; i++) bump(t);
  a[threadIdx.x + t] = 1;
}
`;
    expect(await body(after)).toMatch(/t after the loop/);
    const loopVar = `__global__ void k(int *a) {
  for (int i = 0; i < 4; i++) { int &j = i; j += 1; a[threadIdx.x] = i; }
}
`;
    expect(await body(loopVar)).toMatch(/approximated: the number of iterations/);
  });

  it('what a reference cannot name is rejected at its location', async () => {
    expect((await rejection('__global__ void k(int *a) { int &r = a[0] + 1; r = 2; }')).split('\n')[0]).toMatch(/E0602.*a non-const reference bound to 'a\[0\] \+ 1'/);
    expect((await rejection('__global__ void k(float *a) { int &r = a[0]; r = 2; }')).split('\n')[0]).toMatch(/a reference to int cannot name 'a\[0\]', a float/);
    expect((await rejection('__device__ void f(int (&r)[4]) { r[0] = 1; }\n__global__ void k(int *a) { __shared__ int s[4]; f(s); }')).split('\n')[0]).toMatch(/E0602.*a reference to an array/);
  });
});

describe('a reference declared inside a loop through a typedef', () => {
  it('changes the local it names: unknown after the loop', async () => {
    const text = `typedef int &R;
__global__ void k(int *a) {
  int t = 0;
  for (int i = 0; i < 4; i++) { R r = t; r += 1; }
  a[threadIdx.x + t] = 1;
}
`;
    expect(await body(text)).toMatch(/t after the loop/);
  });
});

describe("typedef'd structs, enums, nested fields, unions", () => {
  it("typedef'd structs (anonymous and named), typedef'd and plain enums, a path through a nested struct", async () => {
    const text = `typedef struct Node { int key; int val; } Node;
typedef struct { int x; int y; } P;
typedef enum { RED, GREEN = 5, BLUE } Color;
enum Mode { A_MODE = 2, B_MODE };
struct Inner { int a; int b; };
struct Outer { struct Inner in; int c; };
__global__ void k(Node *n, P *p, Outer *o, int *r) {
  n[threadIdx.x].val = BLUE;
  p[threadIdx.x].y = 1;
  Color c = GREEN;
  enum Mode m = B_MODE;
  r[threadIdx.x] = c + m;
  o[threadIdx.x].in.b = o[0].c;
}
`;
    expect(await body(text)).toBe(
      ['n[(u32) threadIdx.x][1] := 6;', 'p[(u32) threadIdx.x][1] := 1;', 'r[(u32) threadIdx.x] := 8;', 'let o_v = o[0][2] in', 'o[(u32) threadIdx.x][1] := o_v'].join('\n'),
    );
  });

  it('unions are rejected by name (array fields and nested structs as a whole: structs.test.ts)', async () => {
    const first = async (text: string): Promise<string> => (await rejection(text)).split('\n')[0]!;
    expect(await first('typedef union { int i; float f; } U;\n__global__ void k(U *u) { u[threadIdx.x].i = 1; }')).toMatch(/E0602.*unsupported: unions/);
    expect(await first('union V { int i; float f; };\n__global__ void k(V *u) { u[threadIdx.x].i = 1; }')).toMatch(/E0602.*unsupported: unions \(union V\)/);
  });
});

describe('casts', () => {
  it('functional casts int(x), unsigned(x), size_t(x) and static_cast/reinterpret_cast share C\'s cast', async () => {
    const text = `__global__ void k(int *a) {
  int i = int(threadIdx.x) - 1;
  a[i] = (unsigned char)(300);
  a[unsigned(i)] = size_t(2);
  a[static_cast<int>(threadIdx.x)] = reinterpret_cast<int *>(a)[0];
}
`;
    expect(await body(text)).toBe(
      ['let i: i32 = (i32) (u32) threadIdx.x - 1 in', 'a[i] := 44;', 'a[(u32) i] := 2;', 'let a_v = a[0] in', 'a[(i32) (u32) threadIdx.x] := a_v'].join('\n'),
    );
  });

  it('static_cast with an empty template list is a located error, not an internal one', async () => {
    // the parser marks the missing type (C++ has no static_cast<>), so it is the syntax error there
    expect((await rejection('__global__ void k(int *a) { a[static_cast<>(0)] = 1; }')).split('\n').slice(0, 2).join('\n')).toMatch(/E0601.*missing type\n --> k\.cu:1:43/);
  });
});

describe('a template in a namespace is not a member of a class template', () => {
  it('cg::thread_block_tile<32> stays a type faial-ts names (opaque), not an unresolved one', async () => {
    const unit = await lowered('namespace cg { template <int N> struct thread_block_tile { int x; }; }\n__global__ void k(int *a) { cg::thread_block_tile<32> t; a[threadIdx.x] = 1; }\n');
    expect(unit.rejected.map((r) => r.diagnostic.message).join()).not.toMatch(/cannot resolve/);
  });
});
