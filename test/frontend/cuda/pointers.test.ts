/**
 * Pointers that may point into several arrays (issue 28 §4): a conditional
 * or an if/else choosing between arrays, null pointers and pointers as
 * conditions, and pointers read from memory (`float **rows`), which may
 * alias any array of their element type. Each is shown in the lowered core,
 * and the soundness cases by verdict and confidence.
 */
import { describe, expect, it } from 'vitest';
import { body, lowered, rejection, verified } from './lower-helpers.js';

/** The one kernel's verdict and, per race, its array and confidence (`out:possible`), or `out:benign` for a race of equal values. */
async function verdict(text: string): Promise<{ status: string; races: string[] }> {
  const { rejected, results } = await verified(text, 8);
  if (rejected.length > 0) throw new Error(rejected.join('; '));
  const result = results[0]!;
  return { status: result.status, races: [...new Set(result.races.map((r) => `${r.array}:${r.benign === true ? 'benign' : r.confidence}`))].sort() };
}

/** `(float)threadIdx.x` as lowered: its exact bit pattern, one case per power of two (src/frontend/cuda/int-floats.ts). */
const FLOAT_OF_TID = String.raw`\(u32\) threadIdx\.x == 0 \? 0 : \(u32\) threadIdx\.x < 2 \? 1065353216 [^\n]*`;

describe('a conditional choosing between pointers into different arrays', () => {
  it('`c ? a : b`: an access through it is an access of a where c holds, else of b', async () => {
    const text = '__global__ void k(float *a, float *b, int flag) {\n  float *p = flag ? a : b;\n  p[threadIdx.x] = (float)threadIdx.x;\n}\n';
    expect(await body(text)).toMatch(new RegExp(String.raw`if \(flag != 0\) \{\n  a\[\(u32\) threadIdx\.x\] := ${FLOAT_OF_TID}\n\} else \{\n  b\[\(u32\) threadIdx\.x\] := ${FLOAT_OF_TID}\n\}`));
  });

  it('exact when the condition is known: the race through p on b is confirmed, at flag = 0', async () => {
    const text = '__global__ void k(float *a, float *b, int flag) {\n  float *p = flag ? a : b;\n  p[threadIdx.x] = (float)threadIdx.x;\n  b[threadIdx.x + 1] = (float)threadIdx.x;\n}\n';
    expect(await verdict(text)).toEqual({ status: 'racy', races: ['b:confirmed'] });
    // the same accesses into different arrays are race-free
    expect((await verdict(text.replace('b[threadIdx.x + 1]', 'a[threadIdx.x + blockDim.x]'))).status).toBe('drf');
  });

  it('a pointer assigned in an if/else points where the branch says, after the join', async () => {
    const fixed = '__global__ void k(float *a, float *b) {\n  float *p;\n  if (threadIdx.x % 2 == 0) p = a; else p = b;\n  p[threadIdx.x / 2] = (float)threadIdx.x;\n}\n';
    expect((await verdict(fixed)).status).toBe('drf');
    const racy = fixed.replace('p = b;', 'p = a;');
    expect(await verdict(racy)).toEqual({ status: 'racy', races: ['a:confirmed'] });
  });

  it('a choice whose condition rests on memory read inside the branch becomes an unknown choice: both arrays, alarms possible', async () => {
    const text = '__global__ void k(float *a, float *b, int *c, int flag) {\n  float *p = a;\n  if (flag) { p = c[0] > 0 ? a : b; }\n  p[0] = (float)threadIdx.x;\n}\n';
    expect(await body(text)).toMatch(/havoc p_which: i32 \/\* which array p points into after a branch that read memory \*\//);
    const v = await verdict(text);
    expect(v.status).toBe('racy');
    // at flag = 0 p is a for every thread (confirmed); where flag holds, b is reached only by the unknown choice
    expect(v.races).toContain('a:confirmed');
    expect(v.races).toContain('b:possible');
    expect(v.races).not.toContain('b:confirmed');
  });
});

describe('null pointers and pointers as conditions', () => {
  it('`if (p)`, `p != nullptr`, `p == NULL` on a parameter test one unknown of the launch, p_nonnull', async () => {
    const text = '__global__ void k(float *out, const float *bias) {\n  float v = 0;\n  if (bias != nullptr) v = bias[threadIdx.x];\n  if (bias) out[threadIdx.x] = v;\n  if (bias == NULL) out[0] = threadIdx.x;\n}\n';
    const unit = await lowered(text);
    expect(unit.program.kernels[0]!.params.map((p) => p.text)).toContain('bias_nonnull');
    expect(await body(text)).toMatch(/if \(bias_nonnull != 0\) \{\n  let bias_v = bias\[/);
    // out[0] is written by every thread where bias is null: a real race at that launch
    expect(await verdict(text)).toEqual({ status: 'racy', races: ['out:confirmed'] });
    expect((await verdict(text.replace('  if (bias == NULL) out[0] = threadIdx.x;\n', ''))).status).toBe('drf');
  });

  it('`p = 0` and `nullptr` are null: a branch on it is decided, and a pointer null on one side is dereferenced only where it is not', async () => {
    const text = '__global__ void k(float *a) {\n  float *q = 0;\n  if (q == nullptr) a[threadIdx.x] = threadIdx.y;\n  float *p = threadIdx.x < 4 ? a : nullptr;\n  if (p) p[0] = threadIdx.y;\n}\n';
    const out = await body(text);
    expect(out).toMatch(/^a\[\(u32\) threadIdx\.x\] := \(u32\) threadIdx\.y == 0 \? 0 : [^\n]*;$/m);
    expect(out).toContain('assume false');
    expect(await verdict(text)).toEqual({ status: 'racy', races: ['a:confirmed'] });
  });

  it('a pointer null on every path dereferenced is an error at the access', async () => {
    expect((await rejection('__global__ void k(float *a) {\n  float *p = nullptr;\n  p[threadIdx.x] = 1;\n}\n')).split('\n')[0]).toMatch(/E0604.*a null pointer dereferenced/);
  });
});

describe('pointers read from memory may alias any array of their element type', () => {
  it('`float **rows`: the row read is one of the arrays of floats or memory of its own, chosen by an unknown naming it', async () => {
    const text = '__global__ void k(float **rows, float *out) {\n  float *row = rows[blockIdx.x];\n  row[threadIdx.x] = (float)threadIdx.x;\n}\n';
    const out = await body(text);
    expect(out).toMatch(/let row = rows\[\(u32\) blockIdx\.x\] in/);
    expect(out).toMatch(/havoc which: i32 \/\* approximated: which array row, a pointer read from rows, points into/);
    expect(out).toMatch(new RegExp(String.raw`if \(which == 0\) \{\n  out\[off \+ \(i64\) \(u32\) threadIdx\.x\] := ${FLOAT_OF_TID}\n\} else \{\n  float_mem\[off \+ \(i64\) \(u32\) threadIdx\.x\] := ${FLOAT_OF_TID}`));
    const unit = await lowered(text);
    const notices = unit.program.kernels.length === 1 ? unit.notices.map((d) => `${d.code} ${d.message}`) : [];
    expect(notices.join('\n')).toMatch(/N0630 row, a pointer read from rows, may point into out, memory of its own \(float_mem\)/);
  });

  it('alarms through it are possible, never confirmed, and an alias is never assumed away', async () => {
    // without the alias this kernel would be DRF: out is written at each thread's own element only
    const text = '__global__ void k(float **rows, float *out) {\n  float *row = rows[0];\n  out[threadIdx.x] = row[threadIdx.x + 1];\n}\n';
    const v = await verdict(text);
    expect(v.status).toBe('racy');
    expect(v.races).toEqual(['out:possible']);
    // arrays of another element type are not candidates
    expect((await verdict(text.replace('float *out', 'int *out').replace('out[threadIdx.x] = row', 'out[threadIdx.x] = (int)row'))).status).toBe('drf');
  });

  it('a pointer field of a struct read from memory is such a pointer too: never assumed not to alias', async () => {
    const text = 'struct Params { float *data; int n; };\n__global__ void k(Params *p, float *out) {\n  p[0].data[threadIdx.x] = out[threadIdx.x + 1];\n}\n';
    const v = await verdict(text);
    expect(v.status).toBe('racy');
    expect(v.races).toContain('out:possible');
    expect(v.races.every((r) => r.endsWith(':possible'))).toBe(true);
  });

  it('a pointer field of a struct passed by value to the kernel is an array of its own, as a pointer parameter is (structs.test.ts)', async () => {
    const text = 'struct Params { float *data; int n; };\n__global__ void k(Params p, float *out) {\n  p.data[threadIdx.x] = out[threadIdx.x + 1];\n}\n';
    expect(await verdict(text)).toEqual({ status: 'drf', races: [] });
  });

  it('a pointer that may point into the fields of a struct array, or a char pointer into any array, is rejected, not assumed apart', async () => {
    const fields = '__global__ void k(float **rows, float4 *v) {\n  float *row = rows[0];\n  row[threadIdx.x] = v[threadIdx.x + 1].y;\n}\n';
    expect(await rejection(fields)).toMatch(/unsupported: row, a pointer read from rows, may point into the float4 elements of v/);
    const bytes = '__global__ void k(int *a, char **pp) {\n  char *b = pp[0];\n  b[threadIdx.x] = (char)a[threadIdx.x + 1];\n}\n';
    expect(await rejection(bytes)).toMatch(/may point into the int elements of a/);
  });

  it('a pointer stored in memory is a write of the element', async () => {
    const text = '__global__ void k(float **rows, float *a) {\n  rows[0] = a;\n}\n';
    expect(await verdict(text)).toEqual({ status: 'racy', races: ['rows:confirmed'] });
  });
});

describe('pointer casts between element sizes', () => {
  it('`(float4 *)a` on a float array: element i is a[4i] .. a[4i + 3], one access per field', async () => {
    const text = '__global__ void k(float *a) {\n  float4 *v = (float4 *)a;\n  v[threadIdx.x] = make_float4(0.f, 0.f, 0.f, 0.f);\n}\n';
    const out = await body(text);
    for (const k of [' * 4]', ' * 4 + 1]', ' * 4 + 2]', ' * 4 + 3]']) expect(out).toContain(`a[(i64) (u32) threadIdx.x${k} :=`);
  });

  it('a float4 write at i overlaps the float reads 4i .. 4i + 3 (from an offset, and through reinterpret_cast and a field)', async () => {
    const own = '__global__ void k(float *a, float *out) {\n  float4 *v = (float4 *)a;\n  v[threadIdx.x] = make_float4(0.f, 0.f, 0.f, 0.f);\n  out[threadIdx.x] = a[4 * threadIdx.x + 3];\n}\n';
    expect((await verdict(own)).status).toBe('drf');
    expect(await verdict(own.replace('4 * threadIdx.x + 3', '4 * threadIdx.x + 4'))).toEqual({ status: 'racy', races: ['a:confirmed'] });
    const shifted = '__global__ void k(float *a, float *out) {\n  int2 *v = reinterpret_cast<int2 *>(a + 4);\n  v[threadIdx.x].y = 1;\n  out[threadIdx.x] = a[2 * threadIdx.x + 1];\n}\n';
    // thread t writes a[4 + 2t + 1]; thread t + 2 reads it
    expect(await verdict(shifted.replace('int2 *v', 'float2 *v').replace('<int2 *>', '<float2 *>'))).toEqual({ status: 'racy', races: ['a:confirmed'] });
  });

  it('back to the array’s own type, a view is a pointer to its first scalar; casts that are not a vector of the elements are rejected by name', async () => {
    const back = '__global__ void k(float *a) {\n  float4 *v = (float4 *)a + 1;\n  float *f = (float *)v;\n  f[threadIdx.x] = 0;\n}\n';
    expect(await body(back)).toMatch(/a\[4 \+ \(i64\) \(u32\) threadIdx\.x\] := /);
    expect((await rejection('__global__ void k(float *a) {\n  char *c = (char *)a;\n  c[threadIdx.x] = 0;\n}\n')).split('\n')[0]).toMatch(/E0602.*a pointer cast from float to char \(elements of different sizes\)/);
  });
});

describe('extern __shared__ bytes used as another type', () => {
  it('a byte array only ever cast to one larger element (C or named cast, local or file scope) is the dynamic shared memory of that element', async () => {
    const local = `__global__ void k(const float *in, float *out) {
  extern __shared__ char smem[];
  float *s = (float *)smem;
  s[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = reinterpret_cast<float *>(smem)[blockDim.x - 1 - threadIdx.x];
}
`;
    expect(await body(local)).toBe(
      ['let in_v = in[(u32) threadIdx.x] in', 'smem[(u32) threadIdx.x] := in_v;', 'sync;', 'let smem_v = smem[(u32) blockDim.x - 1 - (u32) threadIdx.x] in', 'out[(u32) threadIdx.x] := smem_v'].join('\n'),
    );
    expect(await verdict(local)).toEqual({ status: 'drf', races: [] });
    const racy = `extern __shared__ unsigned char pool[];
__global__ void k(const float *in) {
  float *s = (float *)pool;
  s[threadIdx.x / 2] = in[threadIdx.x];
}
`;
    expect(await verdict(racy)).toEqual({ status: 'racy', races: ['pool:confirmed'] });
  });

  it('any other use keeps the bytes, and the cast to a larger element is rejected as before', async () => {
    const first = async (uses: string): Promise<string> => (await rejection(`__global__ void k(float *o) {\n  extern __shared__ char smem[];\n  ${uses}\n}\n`)).split('\n')[0]!;
    const bytes = 'error[E0602]: unsupported: a pointer cast from char to float (elements of different sizes)';
    expect(await first('float *s = (float *)smem;\n  smem[threadIdx.x] = 0;\n  s[0] = 1.0f;')).toBe(bytes);
    expect(await first('float *s = (float *)(smem + 16);\n  s[0] = 1.0f;')).toBe(bytes);
    expect(await first('float *s = (float *)smem;\n  double *d = (double *)smem;\n  s[0] = 1.0f;')).toBe(bytes);
  });
});
