/**
 * Structs of issue 28 §4: array fields (`nodes[i].keys[j]`), nested structs
 * assigned, copied or passed as a whole. Each is shown in the lowered core
 * (the leaf index of each access), the soundness cases by verdict.
 */
import { describe, expect, it } from 'vitest';
import { body, rejection, verified } from './lower-helpers.js';

/** The verdict of each kernel of the file, for every launch, with whether its races are all confirmed. */
async function statuses(text: string): Promise<string[]> {
  const { rejected, results } = await verified(text, 4);
  return [...rejected, ...results.map((result) => (result.status === 'racy' ? `racy ${result.races.every((r) => r.confidence === 'confirmed') ? 'confirmed' : 'possible'}` : result.status))];
}

/** The rejection's message and location, on one line. */
const firstLine = async (text: string): Promise<string> => {
  const [message, at] = (await rejection(text)).split('\n');
  return `${at!.trim()} ${message!}`;
};

describe('array fields', () => {
  it('an element of an array field is a leaf of the struct: a constant index names it, a run-time one is an offset of the leaf index', async () => {
    const text = `struct Node { int n; int keys[4]; int w; };
struct In { int a; int b; };
struct Tree { int n; In kids[3]; };
__global__ void k(Node *nodes, Tree *t) {
  int i = blockIdx.x;
  int j = threadIdx.x;
  nodes[i].keys[j] = nodes[i].keys[2] + nodes[i].w;
  t[i].kids[j].b = t[i].kids[1].a;
}
`;
    expect(await body(text)).toBe(
      [
        'let i: i32 = (i32) (u32) blockIdx.x in',
        'let j: i32 = (i32) (u32) threadIdx.x in',
        'let nodes_v = nodes[i][3] in',
        'let nodes_v_1 = nodes[i][5] in',
        'nodes[i][1 + j] := nodes_v + nodes_v_1;',
        'let t_v = t[i][3] in',
        't[i][2 + j * 2] := t_v',
      ].join('\n'),
    );
  });

  it('shared and global, between different j of one i and across i: races found exactly', async () => {
    const own = `struct B { int keys[4]; int n; };
__global__ void k(int *out) {
  __shared__ B s[8];
  s[threadIdx.x / 4].keys[threadIdx.x % 4] = threadIdx.x;
  s[threadIdx.x / 4].n = 0;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x / 4].keys[(threadIdx.x + 1) % 4];
}
`;
    expect(await statuses(own)).toEqual(['benign']);
    // the neighbour's key, read before the barrier: another j of the same i
    expect(await statuses(own.replace('  __syncthreads();\n', ''))).toEqual(['racy confirmed']);
    // two threads of different i write one key: i = threadIdx.x / 2 makes threads 0 and 4 share no i, but 0 and 1 share keys[0]
    expect(await statuses(own.replace('s[threadIdx.x / 4].keys[threadIdx.x % 4] = threadIdx.x;', 's[threadIdx.x / 4].keys[threadIdx.x % 2] = threadIdx.x;'))).toEqual(['racy confirmed']);
    const global = `struct B { int keys[4]; int n; };
__global__ void k(B *b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int j = 0; j < 4; j++) b[i].keys[j] = b[i].n;
}
`;
    expect(await statuses(global)).toEqual(['drf']);
    // the neighbour's n is a leaf no thread writes: race-free; the neighbour's keys are written by thread i + 1
    expect(await statuses(global.replace('b[i].keys[j] = b[i].n;', 'b[i].keys[j] = b[i + 1].n;'))).toEqual(['drf']);
    expect(await statuses(global.replace('b[i].keys[j] = b[i].n;', 'b[i].keys[j] = b[i + 1].keys[3 - j];'))).toEqual(['racy confirmed']);
  });

  it('what faial-ts cannot place is rejected by name', async () => {
    expect(await firstLine('struct B { int keys[32]; int n; };\n__global__ void k(B *b) { B loc; loc.keys[threadIdx.x] = 1; b[0] = loc; }')).toMatch(
      /2:34 error\[E0602\]: unsupported: an array field of a local struct at an index known only at run time \(loc\.keys\[threadIdx\.x\]\)/,
    );
    expect(await firstLine('struct B { int keys[4]; int n; };\n__global__ void k(B *b) { int *q = b[0].keys; q[threadIdx.x] = 1; }')).toMatch(/2:36 error\[E0602\]: unsupported: an array field of a struct used as a pointer \(b\[0\]\.keys\)/);
    expect(await firstLine('struct B { int keys[4]; int n; };\n__global__ void k(B *b) { b[threadIdx.x].keys[4] = 1; }')).toMatch(/2:27 error\[E0604\].*index 4 is out of the bounds of the field keys\[4\]/);
    expect(await firstLine('struct M { float m[4][4]; };\n__global__ void k(M *b) { b[threadIdx.x].m[1][2] = 1; }')).toMatch(/error\[E0602\]: unsupported: an array field of a struct \(m\) of several dimensions/);
  });

  it('the address of a nested struct, and of an array field\'s element at an index known at run time, points back into the element', async () => {
    const text = `struct I { int a; int b; };
struct O { I in; int c; int keys[4]; };
__device__ void f(I *p) { p->b = 1; }
__device__ void g(int *q) { *q = 2; }
__global__ void k(O *o, int j) { f(&o[threadIdx.x].in); g(&o[threadIdx.x].keys[j]); }
`;
    expect(await body(text)).toBe(['let p_off: u32 = (u32) threadIdx.x in', 'o[p_off][1] := 1;', 'let q_off: u32 = (u32) threadIdx.x in', 'o[q_off][3 + j] := 2'].join('\n'));
  });
});

describe('nested structs as a whole', () => {
  it('assigned, copied from memory and passed by value: one access per leaf', async () => {
    const text = `struct In { int a; int b; };
struct Out { In in; int c; int keys[2]; };
__device__ int sum(In v) { return v.a + v.b; }
__device__ void put(Out &o, In v) { o.in = v; }
__global__ void k(Out *o, int *r) {
  int i = threadIdx.x;
  Out x = o[i];
  o[i + 1].in = x.in;
  r[i] = sum(o[i].in);
  put(o[i], x.in);
  Out z;
  z.keys[1] = 3;
  z.in = x.in;
  r[i] = z.keys[1] + z.in.b;
}
`;
    expect(await body(text)).toBe(
      [
        'let i: i32 = (i32) (u32) threadIdx.x in',
        'let o_v = o[i][0] in',
        'let o_v_1 = o[i][1] in',
        'let o_v_2 = o[i][2] in',
        'let o_v_3 = o[i][3] in',
        'let o_v_4 = o[i][4] in',
        'o[i + 1][0] := o_v;',
        'o[i + 1][1] := o_v_1;',
        'let o_v_5 = o[i][0] in',
        'let o_v_6 = o[i][1] in',
        'r[i] := o_v_5 + o_v_6;',
        'o[i][0] := o_v;',
        'o[i][1] := o_v_1;',
        'r[i] := 3 + o_v_1',
      ].join('\n'),
    );
  });

  it('a static member and a method declared in the body are not fields: a whole copy is one access per data member', async () => {
    const text = `struct P { int a; __device__ int get() const; static const int N = 4; int b; };
__global__ void k(P *p) {
  P x = p[0];
  p[threadIdx.x] = x;
}
`;
    expect(await body(text)).toBe(['let p_v = p[0][0] in', 'let p_v_1 = p[0][1] in', 'p[(u32) threadIdx.x][0] := p_v;', 'p[(u32) threadIdx.x][1] := p_v_1'].join('\n'));
  });

  it('a nested struct copied to the next element races with the thread that owns it; a copy to its own element does not', async () => {
    const own = `struct In { int a; int b; };
struct Out { In in; int c; };
__global__ void k(Out *o) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  Out x = o[i];
  o[i].in = x.in;
}
`;
    expect(await statuses(own)).toEqual(['drf']);
    expect(await statuses(own.replace('o[i].in = x.in;', 'o[i + 1].in = x.in;'))).toEqual(['racy confirmed']);
  });
});

describe('enums', () => {
  it('scoped, namespaced and typed enums: each enumerator an int constant under the names C++ gives it, a variable of the enum its underlying type', async () => {
    const text = `enum class Dir { Left, Right = 4 };
typedef enum { X0, X1 } XE;
enum Small : unsigned char { S0 = 200, S1 };
namespace ns { enum Mode { M0 = 7 }; }
__global__ void k(int *a) {
  Dir d = Dir::Right;
  Small s = S1;
  a[threadIdx.x] = (int)d + X1 + s + ns::M0 + ns::Mode::M0;
}
`;
    expect(await body(text)).toBe('a[(u32) threadIdx.x] := 220');
    // an enum class's enumerators are reached only through its name
    expect(await firstLine('enum class Dir { Left, Right };\n__global__ void k(int *a) { a[threadIdx.x] = Right; }')).toMatch(/2:46 error\[E0603\]: unknown name 'Right'/);
  });
});

describe('operators on structs and vector types', () => {
  it("a struct operand calls the file's operator whose parameters take it (value or const reference), inlined; a field of the result is a value", async () => {
    const text = `__device__ float3 operator+(float3 a, float3 b) { return make_float3(a.x + b.x, a.y + b.y, a.z + b.z); }
__device__ float3 operator*(float3 a, float s) { return make_float3(a.x * s, a.y * s, a.z * s); }
__device__ int2 operator+(const int2 &a, const int2 &b) { return make_int2(a.x + b.x, a.y + b.y); }
__device__ int2 operator+(int2 a, int b) { return make_int2(a.x + b, a.y + b); }
__global__ void k(float3 *p, float3 *q, int2 *r) {
  int i = threadIdx.x;
  q[i] = p[i] * 2.0f + p[i];
  int2 u = make_int2(i, 1);
  r[(u + u).x] = u + 3;
}
`;
    expect(await body(text)).toBe(
      [
        'let i: i32 = (i32) (u32) threadIdx.x in',
        'let p_v = p[i][0] in',
        'let p_v_1 = p[i][1] in',
        'let p_v_2 = p[i][2] in',
        'let p_v_3 = p[i][0] in',
        'let p_v_4 = p[i][1] in',
        'let p_v_5 = p[i][2] in',
        'havoc v: i32 /* a float value */ in',
        'q[i][0] := v;',
        'havoc v_1: i32 /* a float value */ in',
        'q[i][1] := v_1;',
        'havoc v_2: i32 /* a float value */ in',
        'q[i][2] := v_2;',
        'r[i + i][0] := i + 3;',
        'r[i + i][1] := 4',
      ].join('\n'),
    );
    // the race-free twin writes element i; the racy one also element i + 1, through the operator's result
    // (one block's index: the grid's (int) of a u32 sum that may exceed INT_MAX leaves z3-wasm alone minutes on the racy twin)
    const twin = `__device__ int2 operator+(int2 a, int2 b) { return make_int2(a.x + b.x, a.y + b.y); }
__global__ void k(int2 *r) {
  int i = threadIdx.x;
  int2 u = make_int2(i, 0);
  int2 one = make_int2(0, 0);
  r[(u + one).x] = u;
}
`;
    expect(await statuses(twin)).toEqual(['drf']);
    expect(await statuses(twin.replace('make_int2(0, 0)', 'make_int2(threadIdx.x % 2, 0)'))).toEqual(['racy confirmed']);
  });

  it('an operator the file does not define for these operands, or defines twice, is rejected by name', async () => {
    expect(await firstLine('__global__ void k(float3 *p) { p[threadIdx.x] = p[0] + p[1]; }')).toMatch(
      /1:49 error\[E0602\]: unsupported: the operator \+ on float3 and float3: the file defines no operator\+ taking them/,
    );
    expect(await firstLine('__device__ int2 operator-(int2 a, int2 b) { return a; }\n__global__ void k(int2 *p) { p[threadIdx.x] = p[0] - 1; }')).toMatch(/the operator - on int2 and int: the file defines no operator- taking them/);
    expect(await firstLine('__device__ int2 operator-(int2 a, int2 b) { return a; }\nnamespace n { __device__ int2 operator-(const int2 &a, const int2 &b) { return b; } }\n__global__ void k(int2 *p) { p[threadIdx.x] = p[0] - p[1]; }')).toMatch(
      /the operator - on int2 and int2: several definitions of operator- take them/,
    );
  });
});

describe('a struct passed by value to a kernel', () => {
  const soa = (index: string): string => `struct Arrays { float *x; float *v; int n; };
__global__ void advect(Arrays p, float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p.n) p.x[${index}] += p.v[i] * dt;
}
`;

  it('its pointer members are arrays of their own and its integer members parameters, one value for every thread', async () => {
    expect(await body(soa('i'))).toBe(
      [
        'let i: i32 = (i32) ((u32) blockIdx.x * (u32) blockDim.x + (u32) threadIdx.x) in',
        'if (i < p_n) {',
        '  let p_v_v = p_v[i] in',
        '  let p_x_v = p_x[i] in',
        '  havoc v: i32 /* a float value */ in',
        '  p_x[i] := v',
        '}',
      ].join('\n'),
    );
  });

  it('so a structure of arrays is race-free (before: its pointers were taken to alias, and every alarm was possible), and its racy twin confirmed', async () => {
    const results = async (text: string): Promise<string[]> => {
      const { rejected, results: r } = await verified(text, 4);
      return [...rejected, ...r.map((x) => `${x.status}${x.races.some((a) => a.confidence === 'confirmed') ? ' confirmed' : ''}`)];
    };
    expect(await results(soa('i'))).toEqual(['drf']);
    expect(await results(soa('i / 2'))).toEqual(['racy confirmed']);
  });
});

describe('a loop that changes a local struct without assigning it by name', () => {
  it('through an element of an array field or the address of a field: the struct is assigned by the loop (before, both racy kernels were proved DRF)', async () => {
    const statuses = async (text: string): Promise<string[]> => {
      const { rejected, results } = await verified(text, 4);
      return [...rejected, ...results.map((r) => r.status)];
    };
    const element = 'struct B { int keys[2]; };\n__global__ void k(int *a) { B z; z.keys[0] = 0; for (int i = 0; i < 2; i++) { a[threadIdx.x + z.keys[0]] = threadIdx.x; z.keys[0] = 1; } }\n';
    expect(await statuses(element)).toEqual(['racy']);
    const address = 'struct P2 { int x, y; };\n__device__ void set1(int *q) { *q = 1; }\n__global__ void k(int *a) { P2 z; z.y = 0; for (int i = 0; i < 2; i++) { a[threadIdx.x + z.y] = threadIdx.x; set1(&z.y); } }\n';
    expect(await statuses(address)).toEqual(['racy']);
  });

  it('an element through a pointer member writes memory, not the struct: a grid-stride loop over a structure of arrays stays exact', async () => {
    const text = `struct Arrays { float *x; float *v; int n; };
__global__ void advect(Arrays p, float dt) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < p.n; i += blockDim.x * gridDim.x) p.x[i] += p.v[i] * dt;
}
`;
    expect(await body(text)).not.toMatch(/approximated/);
  });
});
