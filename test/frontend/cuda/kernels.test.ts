/**
 * Which functions of a .cu file are kernels, and by what name: every
 * `__global__` definition, wherever C++ lets it be written (extern "C",
 * namespaces, a class's static members), named with its namespaces and class.
 */
import { describe, expect, it } from 'vitest';
import { lowered } from './lower-helpers.js';
import { renderedDiagnostic } from '../../../src/diagnostics/render.js';
import { kernelHeads } from '../../../src/frontend/cuda/heads.js';

/** The names of the kernels lowered, in file order, and of those rejected. */
async function kernelNames(text: string): Promise<{ lowered: string[]; rejected: string[]; errors: string[] }> {
  const unit = await lowered(text);
  return {
    lowered: [...unit.program.kernels].sort((a, b) => a.span.start - b.span.start).map((k) => k.name.text),
    rejected: unit.rejected.map((r) => r.name),
    errors: unit.errors.map((e) => `${e.code} ${e.message}`),
  };
}

describe('kernels real files declare', () => {
  it('extern "C" on a kernel, and an extern "C" block of kernels', async () => {
    expect(await kernelNames(`extern "C" __global__ void k(int *a) { a[threadIdx.x] = 1; }`)).toEqual({ lowered: ['k'], rejected: [], errors: [] });
    const block = `extern "C" {
__global__ void k1(int *a) { a[threadIdx.x] = 1; }
extern "C" __global__ void k2(int *a) { a[0] = threadIdx.x; }
__global__ void declared_only(int *a);
}`;
    expect(await kernelNames(block)).toEqual({ lowered: ['k1', 'k2'], rejected: [], errors: [] });
  });

  it('kernels in namespaces are named with them; an anonymous namespace adds nothing', async () => {
    const text = `namespace ns { __global__ void k(int *a) { a[threadIdx.x] = 1; } }
namespace a { namespace b { __global__ void k(int *a) { a[0] = threadIdx.x; } } }
namespace { __global__ void anon(int *a) { a[threadIdx.x] = 1; } }
namespace c::d { __global__ void k(int *a) { a[threadIdx.x] = 1; } }
namespace e { __global__ void k(int *a); }
__global__ void e::k(int *a) { a[threadIdx.x] = 2; }`;
    expect(await kernelNames(text)).toEqual({ lowered: ['ns::k', 'a::b::k', 'anon', 'c::d::k', 'e::k'], rejected: [], errors: [] });
  });

  it('a device function in a namespace is still called by its name there', async () => {
    const text = `namespace ns {
__device__ int twice(int x) { return 2 * x; }
__global__ void k(int *a) { a[twice(threadIdx.x)] = 1; }
}`;
    expect(await kernelNames(text)).toEqual({ lowered: ['ns::k'], rejected: [], errors: [] });
  });

  it('a static __global__ member of a struct or class (also a class template, and defined outside the class) is a kernel S::k', async () => {
    const text = `struct S { static __global__ void k(int *a) { a[threadIdx.x] = 1; } };
class C { public: __global__ static void k(int *a) { a[0] = threadIdx.x; } };
template <typename T> struct W { static __global__ void k(T *a) { a[threadIdx.x] = 1; } };
struct V { static __global__ void k(int *a); };
__global__ void V::k(int *a) { a[0] = threadIdx.x; }
namespace ns { struct S { static __global__ void k(int *a) { a[threadIdx.x] = 1; } }; }`;
    expect(await kernelNames(text)).toEqual({ lowered: ['S::k', 'C::k', 'W::k', 'V::k', 'ns::S::k'], rejected: [], errors: [] });
  });

  it('a rejected kernel in a namespace is reported by its qualified name', async () => {
    const text = `namespace ns { __global__ void k(int *a) { goto out; out: a[0] = 1; } }`;
    expect(await kernelNames(text)).toMatchObject({ lowered: [], rejected: ['ns::k'] });
  });
});

/** The kernel definitions of a text without macros, counted without the grammar or the front end's own scan: `__global__ … {` outside comments. */
function countedByRegex(text: string): number {
  const code = text.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, ' ');
  return [...code.matchAll(/\b__global__\b[^;{}]*\{/g)].length;
}

const THREE = `__global__ void first(int *a) { a[threadIdx.x] = 1; }
// a comment
__global__ void __launch_bounds__(256) second(int *a, int n) { a[n] = threadIdx.x; }
template <int N> __global__ void third(int *a) { a[threadIdx.x * N] = 0; }
`;

describe('no kernel vanishes', () => {
  it('the second scan: definitions only, outside comments and strings, named past __launch_bounds__', () => {
    const text = `// __global__ void c() {}
const char *s = "__global__ void s() {";
__global__ void decl(int *a);
__global__ void __launch_bounds__(256, 2) lb(int *a) { }
extern "C" __global__ void ec(int *a) { }
template <int N> __global__ void ns::t(int *a) { }
__global__ void (int *a) { }
__global__void notKernel() { }`;
    expect(kernelHeads(text).map((h) => h.name)).toEqual(['lb', 'ec', 'ns::t', 'void']);
  });

  it('an invalid UTF-8 byte in a kernel head: that kernel is a located syntax error, the other is verified', async () => {
    // as the CLI reads a file: each invalid sequence is one U+FFFD, so offsets and columns count the decoded characters
    const bytes = Buffer.concat([Buffer.from('__global__ void k1(int *a) { a[threadIdx.x] = 1; }\n__global__ void k'), Buffer.from([0xff]), Buffer.from('2(int *a) { a[0] = threadIdx.x; }\n')]);
    const text = new TextDecoder().decode(bytes);
    const unit = await lowered(text);
    expect(unit.program.kernels.map((k) => k.name.text)).toEqual(['k1']);
    expect(unit.rejected.map((r) => r.name)).toEqual(['k\uFFFD2']);
    const shown = renderedDiagnostic(unit.rejected[0]!.diagnostic, false);
    expect(shown).toContain('error[E0601]: syntax error: unexpected "\uFFFD"');
    expect(shown).toContain('--> k.cu:2:18');
    expect(shown).toContain('not valid UTF-8');
  });

  it('an invalid sequence of several bytes is one character: a later column counts it once', async () => {
    // 0xe2 0x82 is a truncated three-byte sequence: one U+FFFD
    const bytes = Buffer.concat([Buffer.from('/* '), Buffer.from([0xe2, 0x82]), Buffer.from(' */ __global__ void k(int *a) { goto x; x: a[0] = 1; }\n')]);
    const text = new TextDecoder().decode(bytes);
    expect(text.startsWith('/* \uFFFD */')).toBe(true);
    const unit = await lowered(text);
    expect(unit.rejected.map((r) => r.name)).toEqual(['k']);
    expect(renderedDiagnostic(unit.rejected[0]!.diagnostic, false)).toContain(`--> k.cu:1:${text.indexOf('goto') + 1}`);
  });

  it('a kernel head the parser misreads (an invalid byte before the type) is reported, not dropped', async () => {
    const unit = await lowered(`__global__ void k1(int *a) { a[threadIdx.x] = 1; }\n__global__ \uFFFD void k2(int *a) { a[0] = threadIdx.x; }\n`);
    expect(unit.program.kernels.map((k) => k.name.text)).toEqual(['k1']);
    expect(unit.rejected.map((r) => `${r.name} ${r.diagnostic.code}`)).toEqual(['k2 E0601']);
    expect(unit.errors).toEqual([]);
  });

  it('mutants of a three-kernel file (a byte that is not UTF-8 inserted, or a character deleted, anywhere in a head): every kernel counted by a regex is verified or rejected', async () => {
    expect(countedByRegex(THREE)).toBe(3);
    const heads = [...THREE.matchAll(/__global__[^{]*\{/g)].flatMap((m) => Array.from({ length: m[0].length }, (_, i) => m.index + i));
    const mutants = heads.flatMap((i) => [THREE.slice(0, i) + '\uFFFD' + THREE.slice(i), THREE.slice(0, i) + THREE.slice(i + 1)]);
    expect(mutants.length).toBeGreaterThan(200);
    const lost: string[] = [];
    for (const text of mutants) {
      const unit = await lowered(text);
      const accounted = unit.program.kernels.length + unit.rejected.length;
      if (accounted < countedByRegex(text)) lost.push(`${accounted} of ${countedByRegex(text)}: ${JSON.stringify(text)}`);
    }
    expect(lost).toEqual([]);
  });
});

/** The one rejected kernel's diagnostic, rendered, and the names of the kernels lowered. */
async function outcome(text: string): Promise<{ lowered: string[]; rejected: string }> {
  const unit = await lowered(text);
  expect(unit.errors).toEqual([]);
  expect(unit.rejected.length).toBe(1);
  return { lowered: unit.program.kernels.map((k) => k.name.text), rejected: `${unit.rejected[0]!.name}: ${renderedDiagnostic(unit.rejected[0]!.diagnostic, false)}` };
}

describe('failure isolation: one kernel, one located error', () => {
  it("a device function without a return type (C's implicit int) rejects the kernel calling it with E0601 at the function, not the file", async () => {
    const r = await outcome(`__device__ f(int x) { return x; }
__global__ void k1(int *a) { a[threadIdx.x] = 1; }
__global__ void k2(int *a) { a[threadIdx.x] = f(threadIdx.x); }`);
    expect(r.lowered).toEqual(['k1']);
    expect(r.rejected).toContain('k2: error[E0601]: syntax error: missing return type');
    expect(r.rejected).toContain('--> k.cu:1:12');
  });

  it('a kernel without a return type is rejected the same way; a constructor in a class has none and is fine', async () => {
    const r = await outcome(`struct P { int x; __device__ P(int y) : x(y) {} };
__global__ k1(int *a) { a[threadIdx.x] = 1; }
__global__ void k2(int *a) { a[threadIdx.x] = 2; }`);
    expect(r.lowered).toEqual(['k2']);
    expect(r.rejected).toContain('k1: error[E0601]: syntax error: missing return type');
    expect(r.rejected).toContain('--> k.cu:2:12');
  });

  it('static_cast<>(0) and static_cast<int>() are E0601 where the type or operand is missing', async () => {
    const noType = await outcome(`__global__ void k1(int *a) { a[threadIdx.x] = 1; }
__global__ void k2(int *a) { a[threadIdx.x] = static_cast<>(0); }`);
    expect(noType.lowered).toEqual(['k1']);
    expect(noType.rejected).toContain('k2: error[E0601]: syntax error: missing type');
    expect(noType.rejected).toContain('--> k.cu:2:59');
    const noOperand = await outcome(`__global__ void k1(int *a) { a[threadIdx.x] = static_cast<int>(); }
__global__ void k2(int *a) { a[threadIdx.x] = static_cast<int>(2); }`);
    expect(noOperand.lowered).toEqual(['k2']);
    expect(noOperand.rejected).toContain('k1: error[E0601]: syntax error: missing expression');
  });

  it('an exception inside one kernel lowering is that kernel error at its name, and the other kernels are lowered', async () => {
    // GNU's `x ?: y`, which the lowering does not expect (the conditional has no middle operand)
    const r = await outcome(`__global__ void fine(int *a) { a[threadIdx.x] = 1; }
__global__ void elvis(int *a) { int x = 0; a[x ?: 1] = 1; }
__global__ void also_fine(int *a) { a[threadIdx.x] = 2; }`);
    expect(r.lowered).toEqual(['fine', 'also_fine']);
    expect(r.rejected).toMatch(/^elvis: error\[E06\d\d\]|^elvis: error\[E0900\]: internal error while lowering the kernel elvis/);
    expect(r.rejected).toContain('--> k.cu:2:');
    expect(r.rejected).toContain('> 2 | __global__ void elvis');
  });
});
