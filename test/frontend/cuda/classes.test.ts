/**
 * C++ classes (issue 28 §4): member functions called on an object (a local,
 * an element, `this`), constructors, `operator[]` and `operator()` of a
 * class, member operators, and member types of class templates resolved at
 * their instantiation. Each construct is shown in the lowered core, and the
 * soundness cases by verdict (a racy twin is never DRF).
 */
import { describe, expect, it } from 'vitest';
import { body, core, lowered, rejection, verified } from './lower-helpers.js';

/** The verdict of each kernel of the file, for every launch. */
async function statuses(text: string): Promise<string[]> {
  const { rejected, results } = await verified(text, 4);
  return [...rejected, ...results.map((r) => r.status)];
}

const first = async (text: string): Promise<string> => (await rejection(text)).split('\n')[0]!;

describe('member functions called on an object', () => {
  const cell = `struct Cell {
  int v;
  int w;
  __device__ void put(int x) { v = x; }
  __device__ int get() const { return this->v; }
  __device__ void copyFrom(const Cell &o) { (*this).w = o.v; }
};
`;

  it('on an element in memory: the member names its place, each access the element\'s field', async () => {
    const text = `${cell}__global__ void k(Cell *c) {
  c[threadIdx.x].put(c[threadIdx.x + 1].get());
  c[threadIdx.x].copyFrom(c[0]);
}
`;
    expect(await body(text)).toBe(
      [
        'let c_v = c[(u32) threadIdx.x + 1][0] in',
        'c[(u32) threadIdx.x][0] := c_v;',
        'let c_v_1 = c[0][0] in',
        'c[(u32) threadIdx.x][1] := c_v_1',
      ].join('\n'),
    );
  });

  it('on a local: its members change the local, and through a pointer to it', async () => {
    const text = `${cell}__global__ void k(int *a) {
  Cell x;
  x.put(3);
  Cell *p = &x;
  p->put(p->get() + 2);
  a[x.get()] = 1;
}
`;
    expect(await body(text)).toBe('a[5] := 1');
  });

  it('out-of-class definitions, static members and constants, members calling members', async () => {
    const text = `struct Grid {
  int w;
  static const int PAD = 1;
  enum { EXTRA = 2 };
  __device__ int at(int x, int y) const;
  __device__ int atPadded(int x, int y) const { return at(x, y) + PAD; }
  static __device__ int twice(int v) { return 2 * v; }
};
__device__ int Grid::at(int x, int y) const { return y * w + x; }
__global__ void k(int *a) {
  Grid g;
  g.w = 8;
  a[g.atPadded(threadIdx.x, 1) + Grid::twice(Grid::EXTRA)] = Grid::PAD;
}
`;
    expect(await body(text)).toBe(['let x: i32 = (i32) (u32) threadIdx.x in', 'a[8 + x + 1 + 4] := 1'].join('\n'));
  });

  it('a member function of a class template, defined in the class and outside it', async () => {
    const text = `template <class T, int N> struct Buf {
  T *p;
  __device__ T &at(int i) { return p[i * N]; }
  __device__ void clear(int i);
};
template <class T, int N> __device__ void Buf<T, N>::clear(int i) { this->at(i) = 0; }
__global__ void k(int *a) {
  Buf<int, 4> b{a};
  b.clear(threadIdx.x);
}
`;
    expect(await body(text)).toBe(['let i: i32 = (i32) (u32) threadIdx.x in', 'a[i * 4] := 0'].join('\n'));
  });

  it('racy and race-free twins through a member function', async () => {
    const twin = (index: string): string => `${cell}__global__ void k(Cell *c) { c[${index}].put(threadIdx.x); }\n`;
    expect(await statuses(twin('threadIdx.x'))).toEqual(['drf']);
    expect(await statuses(twin('threadIdx.x / 2'))).toEqual(['racy']);
  });
});

describe('constructors', () => {
  it('member initialisers, default member initialisers, in declaration order; P p(…), P p{…}, P(…), P p;', async () => {
    const text = `struct P {
  int x;
  int y = 7;
  int z{9};
  __device__ P() : x(1) {}
  __device__ P(int a, int b) : y(b), x(a) { z = x + y; }
};
__global__ void k(int *a) {
  P p(2, 3);
  P q{4, 5};
  P d;
  a[p.z] = P(6, 10).z;
  a[q.z + d.x + d.y + d.z] = 0;
}
`;
    // p: x = 2, y = 3, z = 5; P(6, 10).z = 16; q.z = 9; d: x = 1, y = 7, z = 9
    expect(await body(text)).toBe(['a[5] := 16;', 'a[26] := 0'].join('\n'));
  });

  it('a class without a constructor is an aggregate: the members left out take their default or zero; P p; leaves the others uninitialised', async () => {
    const text = `struct Q { int a; int b = 4; int c; };
__global__ void k(int *out) {
  Q q = {1};
  Q z{};
  Q u;
  out[q.a + q.b + q.c + z.a + z.b] = u.b;
}
`;
    // q = {1, 4, 0}, z = {0, 4, 0}, u.b = 4
    expect(await body(text)).toBe('out[9] := 4');
  });

  it('a constructor taking a pointer: the object\'s accesses go to the array it was given; `return {…}` constructs the result', async () => {
    const text = `struct Span {
  int *p;
  int n;
  __device__ Span(int *q, int m) : p(q), n(m) {}
  __device__ Span tail() const { return {p + 1, n - 1}; }
};
__global__ void k(int *a) {
  Span s = Span(a, 4).tail();
  Span c(s);
  c.p[threadIdx.x] = s.n;
}
`;
    expect(await body(text)).toBe('a[1 + (u32) threadIdx.x] := 3');
  });

  it('`T v(a);` that C++ reads as a declaration of a variable, not of a function', async () => {
    const text = `template <class T> struct Box { T *p; __device__ Box(T *q) : p(q) {} };
__global__ void k(int *a) { Box<int> b(a); b.p[threadIdx.x] = 1; }
`;
    expect(await body(text)).toBe('a[(u32) threadIdx.x] := 1');
  });
});

describe('operator[] and operator() of a class', () => {
  const view = `struct View {
  float *p;
  int n;
  __device__ float &operator[](int i) { return p[i]; }
  __device__ float operator()(int i, int j) const { return p[i * n + j]; }
};
`;

  it('a wrapper over a pointer makes the accesses the pointer would', async () => {
    const wrapped = `${view}__global__ void k(float *a, int w) {
  View v{a, w};
  int t = threadIdx.x;
  v[t] = v(t, 1);
}
`;
    const plain = `__global__ void k(float *a, int w) {
  int t = threadIdx.x;
  a[t] = a[t * w + 1];
}
`;
    const accesses = (s: string): string[] => s.split('\n').filter((l) => /\]( :=| in)/.test(l)).map((l) => l.replace(/\b(i|t|j)(_\d+)?\b/g, 'x'));
    const a = accesses(await body(wrapped));
    expect(a).toEqual(['let a_v = a[x * w + 1] in', 'a[x] := a_v']);
    expect(a).toEqual(accesses(await body(plain)));
  });

  it('a reference returned by operator[] is an lvalue: `v[i] += 1`, a reference bound to it, through a const overload with the same body', async () => {
    const text = `template <class T> struct Vec {
  T *d;
  __device__ T &operator[](int i) { return d[i]; }
  __device__ const T &operator[](int i) const { return d[i]; }
};
__global__ void k(int *a) {
  Vec<int> v{a};
  v[threadIdx.x] += 1;
  int &r = v[0];
  r = 2;
}
`;
    expect(await body(text)).toBe(['let i: i32 = (i32) (u32) threadIdx.x in', 'let a_v = a[i] in', 'a[i] := a_v + 1;', 'a[0] := 2'].join('\n'));
  });

  it('a functor passed to a function template: its operator() is called (the class deduced from the argument)', async () => {
    const text = `struct Add { int k; __device__ int operator()(int a) const { return a + k; } };
template <class Op> __device__ void apply(int *p, Op op) { p[op(threadIdx.x)] = 1; }
__global__ void k(int *a) { apply(a, Add{2}); }
`;
    expect(await body(text)).toBe(['let a_1: i32 = (i32) (u32) threadIdx.x in', 'a[a_1 + 2] := 1'].join('\n'));
  });

  it('racy and race-free twins through operator[]', async () => {
    const twin = (index: string): string => `${view}__global__ void k(float *a) { View v{a, 0}; v[${index}] = 1.0f; v[${index}] = 2.0f; }\n`;
    expect(await statuses(twin('threadIdx.x'))).toEqual(['drf']);
    expect(await statuses(twin('threadIdx.x % 2'))).toEqual(['racy']);
  });

  it('an array member of a local object at an index known only at run time (a small vector class): the element the index names (before: rejected)', async () => {
    const twin = (index: string): string => `template <class T, int N> struct VecN { T d[N]; __device__ T &operator[](int i) { return d[i]; } };
__global__ void k(int *out) {
  VecN<int, 2> w = {{1, 2}};
  int t = threadIdx.x % 2;
  out[${index}] = threadIdx.x;
}
`;
    // thread 2k writes out[2k], 2k + 1 out[2k + 1]; racy: 2k + 1 writes out[2k + 3], as 2k + 2 does
    expect(await statuses(twin('w[t] - 1 + threadIdx.x / 2 * 2'))).toEqual(['drf']);
    expect(await statuses(twin('w[t] + threadIdx.x'))).toEqual(['racy']);
  });

  it('member operators on values: a + b, -a, a += b, a == b', async () => {
    const text = `struct I2 {
  int x, y;
  __device__ I2 operator+(const I2 &o) const { return {x + o.x, y + o.y}; }
  __device__ I2 operator-() const { return {-x, -y}; }
  __device__ I2 &operator+=(const I2 &o) { x += o.x; y += o.y; return *this; }
  __device__ bool operator==(const I2 &o) const { return x == o.x && y == o.y; }
};
__global__ void k(int *a) {
  I2 u{1, 2};
  I2 v{10, 20};
  I2 w = u + -v;
  w += u;
  a[w.x + w.y] = w == u;
}
`;
    // w = u + -v = {-9, -18}, then += u: {-8, -16}; w == u is false
    expect(await body(text)).toBe('a[-24] := 0');
  });
});

describe('member types of class templates, resolved at their instantiation', () => {
  const traits = `template <class T> struct Traits { typedef T Type; };
template <> struct Traits<float> { typedef int Type; };
template <> struct Traits<char> { typedef int &Type; };
`;

  it('Traits<float>::Type and typename Traits<T>::Type with T known name their types', async () => {
    const text = `${traits}template <class T> __device__ void put(int *a, int v) { typename Traits<T>::Type x = v; a[x] = 1; }
__global__ void k(int *a) {
  Traits<float>::Type i = 300;
  put<float>(a, i + 1);
  Traits<unsigned char>::Type c = 300;
  a[c] = 2;
}
`;
    expect(await body(text)).toBe(['a[301] := 1;', 'a[44] := 2'].join('\n'));
  });

  it('a member type that is a reference is a reference: the write through it races (never DRF)', async () => {
    const text = `${traits}__global__ void k(int *a) { Traits<char>::Type r = a[0]; r = threadIdx.x; }\n`;
    expect(await statuses(text)).toEqual(['racy']);
  });

  it('with an argument faial-ts keeps opaque, a member type is opaque when no specialisation makes it a reference, else rejected', async () => {
    const safe = `template <class T> struct Tr { typedef T Type; };
template <> struct Tr<float> { typedef int Type; };
template <class T> __global__ void k(T *a) { typename Tr<T>::Type x = a[threadIdx.x]; a[threadIdx.x] = x; }
`;
    expect(await statuses(safe)).toEqual(['drf']);
    expect(await first(`${traits}template <class T> __global__ void k(int *a) { typename Traits<T>::Type r = a[0]; r = threadIdx.x; }\n`)).toMatch(/E0602.*typename Traits<T>::Type, which faial-ts cannot resolve/);
  });

  it('what cannot be resolved stays rejected: a partial specialisation, a member of an opaque type', async () => {
    expect(await first('template <class T> struct S { typedef T Type; };\ntemplate <class T> struct S<T *> { typedef T &Type; };\n__global__ void k(int *a) { S<int>::Type r = a[0]; r = 1; }\n')).toMatch(/E0602.*S<int>::Type, which faial-ts cannot resolve/);
    expect(await first('template <class T> __global__ void k(T *a) { typename T::X r = a[0]; r = 1; }\n')).toMatch(/E0602.*typename T::X, which faial-ts cannot resolve/);
  });
});

describe('objects changed in a loop', () => {
  it('a member function that changes its object makes the object a loop approximation (the racy kernel is never DRF)', async () => {
    const text = `struct Ctr { int i; __device__ void next() { i += 1; } };
__global__ void k(int *a) {
  Ctr c;
  c.i = 0;
  for (int j = 0; j < 2; j++) { a[threadIdx.x + c.i] = threadIdx.x; c.next(); }
}
`;
    expect(await body(text)).toMatch(/approximated: c\.i in the loop/);
    expect(await statuses(text)).toEqual(['racy']);
  });

  it('an operator[] returning a reference into the object changes it; a wrapper over a pointer does not, and stays exact', async () => {
    const changes = `struct Arr { int d[2]; __device__ int &operator[](int i) { return d[i]; } };
__global__ void k(int *a) {
  Arr r = {{0, 0}};
  for (int j = 0; j < 2; j++) { a[threadIdx.x + r[0]] = threadIdx.x; r[0] = 1; }
}
`;
    expect(await statuses(changes)).toEqual(['racy']);
    const exact = `struct View { int *p; __device__ int &operator[](int i) { return p[i]; } };
__global__ void k(int *a) {
  View v{a};
  for (int j = 0; j < 4; j++) v[4 * threadIdx.x + j] = j;
}
`;
    expect(await body(exact)).not.toMatch(/approximated/);
    expect(await statuses(exact)).toEqual(['drf']);
  });

  it('a loop bound read from an object that a member changes in the loop is not taken for invariant', async () => {
    const text = `struct Stack { int n; __device__ void push() { n += 1; } };
__global__ void k(int *a) {
  Stack s;
  s.n = 1;
  for (int i = 0; i < s.n; i++) { a[threadIdx.x + i] = threadIdx.x; if (s.n < 3) s.push(); }
}
`;
    expect(await body(text)).toMatch(/approximated: the number of iterations of the loop/);
    expect(await statuses(text)).toEqual(['racy']);
  });

  it('a local struct updated field by field in a loop is approximated leaf by leaf (before, the whole struct was lost and the kernel rejected)', async () => {
    const text = `__global__ void k(float3 *p, float *out, int n) {
  float3 acc = make_float3(0.0f, 0.0f, 0.0f);
  for (int j = 0; j < n; j++) { acc.x += p[j].x; acc.y += p[j].y; }
  out[threadIdx.x] = acc.x;
}
`;
    expect(await statuses(text)).toEqual(['drf']);
  });
});

describe('what classes faial-ts does not model are rejected by name where used', () => {
  it('a base class, virtual functions, a destructor with a body, a user copy constructor, mutable members', async () => {
    expect(await first('struct B { int x; };\nstruct D : B { int y; __device__ int get() { return y; } };\n__global__ void k(D *d, int *a) { a[d[0].get()] = 1; }\n')).toMatch(/E0602.*a class with a base class \(D : B\)/);
    expect(await first('struct V { int x; virtual __device__ int get() { return x; } };\n__global__ void k(V *v, int *a) { a[v[0].get()] = 1; }\n')).toMatch(/E0602.*a virtual member function of V/);
    expect(await first('struct R { int *p; __device__ ~R() { p[0] = 1; } };\n__global__ void k(int *a) { R r{a}; }\n')).toMatch(/E0602.*the destructor of R/);
    expect(await first('struct C { int x; __device__ C(const C &o) : x(o.x + 1) {} __device__ C(int v) : x(v) {} };\n__global__ void k(int *a) { C c(1); a[c.x] = 1; }\n')).toMatch(/E0602.*a user-defined copy or move constructor of C/);
    expect(await first('struct M { mutable int n; __device__ int get() const { return n++; } };\n__global__ void k(M *m, int *a) { a[m[0].get()] = 1; }\n')).toMatch(/E0602.*a mutable member of M/);
  });

  it('a union nested in a class is rejected as a union, where a member is accessed (not as a type faial-ts cannot resolve)', async () => {
    expect(await first('template <class T> struct S { union Tmp { T a[4]; T b[4]; }; };\n__global__ void k(int *o) { __shared__ typename S<int>::Tmp t; t.a[threadIdx.x] = 1; o[0] = t.b[0]; }\n')).toMatch(/E0602.*unsupported: unions \(union S<int>::Tmp\)/);
  });

  it('a reference member not bound to an object faial-ts follows (a kernel parameter\'s)', async () => {
    expect(await first('struct R { int &r; };\n__global__ void k(R x) { x.r = threadIdx.x; }\n')).toMatch(/E0602.*the reference member R::r, bound to no object faial-ts follows/);
  });

  it('a call no overload takes, a member that does not exist, two overloads faial-ts cannot tell apart', async () => {
    const cls = 'struct S { int x; __device__ int f(int a) { return a; } __device__ int g(int a) { return a; } __device__ int g(float b) { return 2; } };\n';
    expect(await first(`${cls}__global__ void k(S *s, int *a) { a[s[0].f()] = 1; }\n`)).toMatch(/E0604.*no overload of S::f takes 0 arguments/);
    expect(await first(`${cls}__global__ void k(S *s, int *a) { a[s[0].h(1)] = 1; }\n`)).toMatch(/E0604.*S has no member function h/);
    expect(await first(`${cls}__global__ void k(S *s, int *a, int v) { a[s[0].g(v + 1)] = 1; }\n`)).toMatch(/E0602.*the call of S::g: several overloads/);
  });

  it('a non-const member operator that may change its object, applied to a value', async () => {
    expect(await first('struct N { int x; __device__ N operator+(int v) { x += v; return *this; } };\n__global__ void k(N *n, int *a) { N m = n[0] + 1; a[m.x] = 1; }\n')).toMatch(/E0602.*N::operator\+, a member that may change its object, applied to a value/);
  });

  it('`this` outside a member function', async () => {
    const unit = await lowered('__global__ void k(int *a) { a[0] = this->x; }\n');
    expect(unit.rejected.map((r) => r.diagnostic.message).join()).toMatch(/`this` outside a member function/);
  });
});

describe('reference members', () => {
  it('name the object they are bound to, by an initialiser or a constructor (before, read as a copy: every thread writing a[0] through one was proved DRF)', async () => {
    expect(await statuses('struct R { int &r; };\n__global__ void k(int *a) { R x{a[0]}; x.r = threadIdx.x; }\n')).toEqual(['racy']);
    expect(await statuses('typedef struct { int &r; } R;\n__global__ void k(int *a) { R x{a[0]}; R y = x; y.r = threadIdx.x; }\n')).toEqual(['racy']);
    expect(await body('struct R { int &r; };\n__global__ void k(int *a) { R x{a[threadIdx.x]}; x.r = 1; }\n')).toBe('a[(u32) threadIdx.x] := 1');
  });

  it('a block primitive holding a reference to its shared storage, a class nested in a class template (`typename BS::TempStorage`)', async () => {
    const twin = (sync: string): string => `template <typename T, int BLOCK> class BlockSum {
public:
  struct TempStorage { T partial[BLOCK]; };
  __device__ BlockSum(TempStorage &storage) : temp(storage) {}
  __device__ T Sum(T v) {
    temp.partial[threadIdx.x] = v;
    ${sync}
    T s = 0;
    for (int i = 0; i < BLOCK; i++) s += temp.partial[i];
    return s;
  }
private:
  TempStorage &temp;
};
__global__ void k(const int *in, int *out) {
  typedef BlockSum<int, 128> BS;
  __shared__ typename BS::TempStorage storage;
  int s = BS(storage).Sum(in[blockIdx.x * 128 + threadIdx.x]);
  if (threadIdx.x == 0) out[blockIdx.x] = s;
}
`;
    expect(await statuses(twin('__syncthreads();'))).toEqual(['drf']);
    expect(await statuses(twin(''))).toEqual(['racy']);
  });
});

describe("a kernel template's type parameter", () => {
  const kernel = `template <typename I> __global__ void k(int *a) { I i = threadIdx.x; a[i] = 1; }\n`;

  it('is the type every instantiation of the file gives: explicit instantiations and launches with template arguments', async () => {
    expect(await body(`${kernel}template __global__ void k<unsigned>(int *);\n`)).toBe(['let i: u32 = (u32) threadIdx.x in', 'a[i] := 1'].join('\n'));
    expect(await body(`${kernel}void run(int *a) { k<int><<<1, 32>>>(a); }\n`)).toBe(['let i: i32 = (i32) (u32) threadIdx.x in', 'a[i] := 1'].join('\n'));
  });

  it('an integer parameter is each value the instantiations give it (two launches: either), all values where one is not a constant', async () => {
    const k = 'template <int N> __global__ void k(int *a) { a[threadIdx.x * N] = 1; }\n';
    expect(await core(`${k}void run(int *a, bool big) { if (big) k<32><<<1, 32>>>(a); else k<16><<<1, 32>>>(a); }\n`)).toContain('requires N == 32 || N == 16');
    expect(await core(`${k}void run(int *a, int m) { k<4><<<1, 32>>>(a); k<m><<<1, 32>>>(a); }\n`)).not.toMatch(/requires N ==/);
  });

  it('stays opaque (verified for every type) without an instantiation, or with instantiations that disagree', async () => {
    expect(await body(kernel)).toMatch(/havoc/);
    expect(await body(`${kernel}void run(int *a) { k<int><<<1, 32>>>(a); k<long><<<1, 32>>>(a); }\n`)).toMatch(/havoc/);
  });

  it('a function object of the parameter\'s type is called where an instantiation gives it one class, else rejected by name (not as a function pointer)', async () => {
    const map = `struct Sq { __device__ int operator()(int x) const { return x * x; } };
template <class F> __global__ void map(int *a, F f) { a[threadIdx.x] = f(3); }
`;
    expect(await body(`${map}void run(int *a) { map<Sq><<<1, 32>>>(a, Sq()); }\n`)).toBe('a[(u32) threadIdx.x] := 9');
    expect((await rejection(`${map}void run(int *a) { map<<<1, 32>>>(a, Sq()); }\n`)).split('\n')[0]).toBe(
      'error[E0602]: unsupported: a call of f, an object of type F, which faial-ts keeps opaque (its class is not known here)',
    );
  });
});
