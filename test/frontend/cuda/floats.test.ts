/**
 * Floating-point constants in the benign check (issue 28 §4): a float or
 * double constant is written as its IEEE bit pattern, so equal patterns are
 * benign writes and different ones (0.0f and -0.0f) races; what floats.ts
 * cannot round exactly once stays unknown.
 */
import { describe, expect, it } from 'vitest';
import { arithmetic, bitPattern, floatLiteral, fromInteger, negated, toType } from '../../../src/frontend/cuda/floats.js';
import { body, verified } from './lower-helpers.js';

async function statuses(text: string): Promise<string[]> {
  const { rejected, results } = await verified(text, 4);
  return [...rejected, ...results.map((r) => r.status)];
}

const hex = (c: ReturnType<typeof floatLiteral>): string | null => (c === null ? null : `${c.type}:${bitPattern(c).toString(16)}`);

describe('floats.ts: IEEE constants', () => {
  it('reads literals as float (suffix f) or double, and gives their bit patterns', () => {
    expect(hex(floatLiteral('1.0f'))).toBe('float:3f800000');
    expect(hex(floatLiteral('1.0'))).toBe('double:3ff0000000000000');
    expect(hex(floatLiteral('0.1f'))).toBe('float:3dcccccd');
    expect(hex(floatLiteral('.5F'))).toBe('float:3f000000');
    expect(hex(floatLiteral('2.'))).toBe('double:4000000000000000');
    expect(hex(floatLiteral('1e40f'))).toBe('float:7f800000');
    expect(floatLiteral('1.0L')).toBeNull();
  });

  it('leaves unknown a float literal whose double is halfway between two floats (rounding twice could differ)', () => {
    // 1 + 2^-24 is halfway between 1 and the next float, 1 + 2^-23
    expect(floatLiteral('1.000000059604644775390625f')).toBeNull();
    expect(hex(floatLiteral('1.000000059604644775390625'))).toBe('double:3ff0000010000000');
    expect(hex(floatLiteral('1.00000006f'))).toBe('float:3f800001');
  });

  it('converts integers and between float and double as C does, and -0.0 is its own pattern', () => {
    expect(hex(fromInteger(0n, 'float'))).toBe('float:0');
    expect(hex(fromInteger(16777217n, 'float'))).toBe('float:4b800000');
    expect(fromInteger((1n << 60n) + 1n, 'float')).toBeNull();
    expect(hex(fromInteger((1n << 60n) + 1n, 'double'))).toBe('double:43b0000000000000');
    expect(hex(toType(floatLiteral('1.0')!, 'float'))).toBe('float:3f800000');
    expect(hex(toType(floatLiteral('0.1')!, 'float'))).toBe('float:3dcccccd');
    expect(hex(arithmetic('-', floatLiteral('0.0f')!, floatLiteral('0.0f')!))).toBe('float:0');
    expect(hex(arithmetic('*', negated(floatLiteral('1.0f')!), floatLiteral('0.0f')!))).toBe('float:80000000');
  });

  it('computes + - * / in the wider type, rounded once, and never a NaN', () => {
    expect(hex(arithmetic('+', floatLiteral('0.1f')!, floatLiteral('0.2f')!))).toBe('float:3e99999a');
    expect(hex(arithmetic('+', floatLiteral('0.1')!, floatLiteral('0.2')!))).toBe('double:3fd3333333333334');
    expect(hex(arithmetic('/', floatLiteral('1.0f')!, floatLiteral('3.0')!))).toBe('double:3fd5555555555555');
    expect(hex(arithmetic('/', floatLiteral('1.0f')!, floatLiteral('0.0f')!))).toBe('float:7f800000');
    expect(arithmetic('/', floatLiteral('0.0f')!, floatLiteral('0.0f')!)).toBeNull();
    expect(arithmetic('%', floatLiteral('1.0f')!, floatLiteral('1.0f')!)).toBeNull();
  });
});

describe('float constants are written as their bit patterns', () => {
  it('literals, converted integers, double to float, negation and folded arithmetic', async () => {
    const text = '__global__ void k(float *y, double *z) {\n  y[0] = 0;\n  y[1] = 1.0;\n  y[2] = -0.0f;\n  y[3] = 0.5f + 1;\n  z[0] = 1.0f;\n  y[4] = -y[5];\n  y[6] = (float)threadIdx.x;\n}\n';
    const lines = (await body(text)).split('\n');
    expect(lines.slice(0, 5)).toEqual(['y[0] := 0;', 'y[1] := 1065353216;', 'y[2] := 2147483648;', 'y[3] := 1069547520;', 'z[0] := 4607182418800017408;']);
    // a value read stays unknown; a float of a thread id (below 1024) is its pattern, exponent and mantissa per power of two
    expect(lines.slice(5).join('\n')).toMatch(/let y_v = y\[5\] in[\s\S]*y\[4\] := y_v;[\s\S]*y\[6\] := \(u32\) threadIdx.x == 0 \? 0 : \(u32\) threadIdx.x < 2 \? 1065353216 \+ \(\(u32\) threadIdx.x - 1\) \* 8388608 : /);
    // an int local is bounded by its type only: unknown, and named
    const local = await body('__global__ void k(float *y, int n) {\n  y[0] = (float)n;\n}\n');
    expect(local).toMatch(/havoc v(?:_\d+)?: i32 \/\* \(float\) of an integer not shown below 2\^24 in magnitude \(its rounding is not followed\) \*\/ in\s+y\[0\] := v/);
  });

  it('a half and a long double constant stay unknown', async () => {
    const text = '#include <cuda_fp16.h>\n__global__ void k(__half *h, long double *l) {\n  h[0] = 1.0f;\n  l[0] = 1.0L;\n}\n';
    expect(await body(text)).toMatch(/havoc v(?:_\d+)?: i32 \/\* the floating-point constant 1\.0f \*\/ in\s+h\[0\] := v(?:_\d+)?[\s\S]*havoc v(?:_\d+)?: i32 \/\* the floating-point constant 1\.0L \*\/ in\s+l\[0\] := v(?:_\d+)?/);
  });
});

describe('the benign check compares float patterns', () => {
  const twin = (a: string, b: string, type = 'float'): string => `__global__ void k(${type} *y) {\n  if (threadIdx.x == 0) y[0] = ${a}; else y[0] = ${b};\n}\n`;

  it('equal patterns are benign: 0 and 0.0f, 1.0f and 1.0, 0.25f and 1.0f / 4, a local holding 2.0f', async () => {
    expect(await statuses(twin('0', '0.0f'))).toEqual(['benign']);
    expect(await statuses(twin('1.0f', '1.0'))).toEqual(['benign']);
    expect(await statuses(twin('0.25f', '1.0f / 4'))).toEqual(['benign']);
    expect(await statuses(twin('1.0f', '1.0', 'double'))).toEqual(['benign']);
    expect(await statuses('__global__ void k(float *y) {\n  float two = 2;\n  y[0] = two;\n}\n')).toEqual(['benign']);
  });

  it('a float or double parameter is one pattern for every thread: written as is, or negated (its sign bit flipped), benign', async () => {
    expect(await statuses('__global__ void k(float *y, float a) {\n  float c = a;\n  y[0] = c;\n}\n')).toEqual(['benign']);
    expect(await statuses(twin('-(-a)', 'a').replace('float *y', 'float *y, float a'))).toEqual(['benign']);
    expect(await statuses(twin('d', 'd', 'double').replace('double *y', 'double *y, double d'))).toEqual(['benign']);
    expect(await body('__global__ void k(float *y, float a) {\n  y[0] = -a;\n}\n')).toBe('y[0] := a ^ 2147483648');
  });

  it('parameters that may differ race: a and b, a and -a, a and 0.0f, a and a + 0.0f (not followed), a float converted to double', async () => {
    const params = (t: string): string => t.replace('float *y', 'float *y, float a, float b');
    expect(await statuses(params(twin('a', 'b')))).toEqual(['racy']);
    expect(await statuses(params(twin('a', '-a')))).toEqual(['racy']);
    expect(await statuses(params(twin('a', '0.0f')))).toEqual(['racy']);
    expect(await statuses(params(twin('a', 'a + 0.0f')))).toEqual(['racy']);
    expect(await statuses('__global__ void k(double *y, float a) {\n  y[0] = a;\n}\n')).toEqual(['racy']);
  });

  it('different patterns race: 0.0f and -0.0f, 0.1f and 0.1 in a double, a thread id, a value read', async () => {
    expect(await statuses(twin('0.0f', '-0.0f'))).toEqual(['racy']);
    expect(await statuses(twin('0.1f', '0.1', 'double'))).toEqual(['racy']);
    expect(await statuses('__global__ void k(float *y) {\n  y[0] = (float)threadIdx.x;\n}\n')).toEqual(['racy']);
    expect(await statuses('__global__ void k(float *y, const float *x) {\n  y[0] = x[0];\n}\n')).toEqual(['racy']);
  });
});

describe('an integer converted to a float exactly and back is the integer', () => {
  it('(int)(float)threadIdx.x indexes by the thread id: DRF; by half of it: a confirmed race', async () => {
    const drf = await verified('__global__ void k(int *a) {\n  a[(int)(float)threadIdx.x] = 1;\n}\n', 4);
    expect(drf.results.map((r) => r.status)).toEqual(['drf']);
    // through a float local and a functional cast, as kernels write it
    const racy = await verified('__global__ void k(int *a) {\n  float f = threadIdx.x / 2;\n  a[int(f)] = threadIdx.x;\n}\n', 4);
    expect(racy.results.map((r) => [r.status, r.races.map((x) => x.confidence)])).toEqual([['racy', ['confirmed']]]);
    expect(await body('__global__ void k(int *a) {\n  a[(int)(float)threadIdx.x] = 1;\n}\n')).toMatch(/^a\[\(i32\) \(u32\) threadIdx\.x\] := 1;?$/m);
  });

  it('stays unknown, and says so, where bounds do not show |x| < 2^24, or the target cannot hold a negative integer', async () => {
    const wide = await body('__global__ void k(int *a, int n) {\n  a[(int)(float)n] = 1;\n}\n');
    expect(wide).toMatch(/\(float\) of an integer not shown below 2\^24 in magnitude/);
    const unsigned = await body('__global__ void k(int *a) {\n  a[(unsigned)(float)((int)threadIdx.x - 4)] = 1;\n}\n');
    expect(unsigned).toMatch(/havoc v(?:_\d+)?: u32 \/\* \(float\) of an integer \*\//);
  });
});
