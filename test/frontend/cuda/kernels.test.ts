/**
 * Which functions of a .cu file are kernels, and by what name: every
 * `__global__` definition, wherever C++ lets it be written (extern "C",
 * namespaces, a class's static members), named with its namespaces and class.
 */
import { describe, expect, it } from 'vitest';
import { lowered } from './lower-helpers.js';

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
