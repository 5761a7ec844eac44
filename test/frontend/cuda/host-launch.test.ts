/** The launches a file's host code makes: which sizes are known, and the kernels fixed to them. */
import { describe, expect, it } from 'vitest';
import { hostLaunches, launchSitesOf } from '../../../src/frontend/cuda/host-launch.js';
import { core, lowered } from './lower-helpers.js';

const site = (text: string): { grid: readonly bigint[] | null; block: readonly bigint[] | null } => {
  const sites = launchSitesOf(text);
  expect(sites).toHaveLength(1);
  return { grid: sites[0]!.grid, block: sites[0]!.block };
};

describe('launch sites', () => {
  it('reads constants, constant expressions, dim3 and braces', () => {
    expect(site('k<<<4, 256>>>(a);')).toEqual({ grid: [4n, 1n, 1n], block: [256n, 1n, 1n] });
    expect(site('k<<<(1 << 20) / 256, 0x100u>>>(a);')).toEqual({ grid: [4096n, 1n, 1n], block: [256n, 1n, 1n] });
    expect(site('k<<<dim3(8, 4), dim3(16, 16, 1), 0, stream>>>(a);')).toEqual({ grid: [8n, 4n, 1n], block: [16n, 16n, 1n] });
    expect(site('k<<<{2, 3}, {32}>>>(a);')).toEqual({ grid: [2n, 3n, 1n], block: [32n, 1n, 1n] });
    expect(site('tmpl<float, 4><<<1, 32>>>(a);')).toEqual({ grid: [1n, 1n, 1n], block: [32n, 1n, 1n] });
  });

  it('follows variables declared once with a constant initializer and never written again', () => {
    expect(site('const int threads = 128; dim3 grid(2 * 2, threads / 64); k<<<grid, threads>>>(a);')).toEqual({ grid: [4n, 2n, 1n], block: [128n, 1n, 1n] });
    expect(site('int t{64}; dim3 b = dim3(t, 2); k<<<1, b>>>(a);')).toEqual({ grid: [1n, 1n, 1n], block: [64n, 2n, 1n] });
    // a constexpr one too: the declaration was not recognised as the name's one declaration, so the launch stayed symbolic
    // a comment quoting a declaration is no second declaration, nor one in a comment a launch
    expect(site('// int threads = 64, dim3 grid(2)\n/* k<<<1, 1>>>(a); */ const int threads = 128; dim3 grid(4); k<<<grid, threads>>>(a);')).toEqual({ grid: [4n, 1n, 1n], block: [128n, 1n, 1n] });
    expect(site('constexpr int TILE = 32;\nstatic constexpr unsigned ROWS = 8;\nint main() { dim3 b(TILE, ROWS); k<<<1, b>>>(a); }')).toEqual({ grid: [1n, 1n, 1n], block: [32n, 8n, 1n] });
  });

  it('reads a declaration of several names (`dim3 grid(…), threads(…);`, `const int w = 2048, h = 1024;`), also after a function head', () => {
    expect(site('int main() { const int size_x = 2048, size_y = 1024; dim3 grid(size_x / 32, size_y / 32), threads(32, 8); k<<<grid, threads>>>(a, size_x); }')).toEqual({ grid: [64n, 32n, 1n], block: [32n, 8n, 1n] });
    expect(site('int main() { int n = 512, m; dim3 block(16, 16), grid(n / 16, n / 16); k<<<grid, block>>>(o, n); }')).toEqual({ grid: [32n, 32n, 1n], block: [16n, 16n, 1n] });
    expect(site('int main() { dim3 a(4), b(8); dim3 b(2); k<<<a, b>>>(x); }')).toEqual({ grid: [4n, 1n, 1n], block: null });
  });

  it('leaves unknown what it cannot follow: run-time values, writes, parameters, two declarations', () => {
    expect(site('void run(int n) { k<<<n / 256, 256>>>(a); }')).toEqual({ grid: null, block: [256n, 1n, 1n] });
    expect(site('void run(int threads) { k<<<1, threads>>>(a); }').block).toBeNull();
    expect(site('dim3 b(16, 16); b.x = n; k<<<1, b>>>(a);').block).toBeNull();
    expect(site('int t = 64; t *= 2; k<<<1, t>>>(a);').block).toBeNull();
    expect(site('int t = 64; t++; k<<<1, t>>>(a);').block).toBeNull();
    expect(site('int t = 64; init(&t); k<<<1, t>>>(a);').block).toBeNull();
    expect(site('void f() { int t = 64; } void g() { int t = 32; k<<<1, t>>>(a); }').block).toBeNull();
    expect(site('k<<<1, 1 << 40>>>(a);').block).toBeNull();
    expect(site('k<<<1, 0>>>(a);').block).toBeNull();
    expect(site('k<<<1, sizeof(float)>>>(a);').block).toBeNull();
  });

  it("reads a launch's integer arguments where they are constants, as it reads sizes", () => {
    const args = (text: string): (string | null)[] => launchSitesOf(text)[0]!.args.map((a) => (a === null ? null : String(a)));
    expect(args('int main() { const int n = 1 << 10; k<<<4, 256>>>(d, n, n / 2 - 600, 0, 1.5f); }')).toEqual([null, '1024', '-88', '0', null]);
    // a kernel's own parameter named like the host variable is no second declaration of it
    expect(args('__global__ void k(float *d, int n) { d[0] = n; }\nint main() { int n = 512; k<<<1, 32>>>(d, n); }')).toEqual([null, '512']);
    expect(args('void run(int n) { k<<<1, 32>>>(d, n); }')).toEqual([null, null]);
    expect(args('int main() { int n = 512; n += 1; k<<<1, 32>>>(d, n); }')).toEqual([null, null]);
    expect(args('int main() { int n = 5; size_t bytes = sizeof(float) * n; k<<<1, 32>>>(d, n); }')).toEqual([null, '5']);
    // a field of a known dim3, in an argument or a size (the tiled matrix product's host code)
    const dims = 'int main() { int bs = 32; dim3 dimsA(10 * bs, 10 * bs, 1); dim3 threads(bs, bs); dim3 grid(dimsA.x / threads.x, dimsA.y / threads.y); k<<<grid, threads>>>(c, dimsA.x, dimsA.q); }';
    expect(args(dims)).toEqual([null, '320', null]);
    expect(site(dims)).toEqual({ grid: [10n, 10n, 1n], block: [32n, 32n, 1n] });
    const launches = hostLaunches(launchSitesOf('k<<<4, 64>>>(a, 7, 8); k<<<8, 64>>>(a, 7, 9);'));
    expect(launches.get('k')!.args).toEqual([null, 7n, null]);
  });

  it('fixes a kernel launched at several sites only where they agree', () => {
    const launches = hostLaunches(launchSitesOf('k<<<4, 64>>>(a); k<<<8, 64>>>(a); j<<<1, 32>>>(a);'));
    expect(launches.get('k')).toMatchObject({ grid: null, block: [64n, 1n, 1n] });
    expect(launches.get('k')!.sites).toHaveLength(2);
    expect(launches.get('j')).toMatchObject({ grid: [1n, 1n, 1n], block: [32n, 1n, 1n] });
  });
});

const FILE = `#define BLOCK 64
__global__ void fold(int *a) {
  __shared__ int s[BLOCK];
  s[threadIdx.x % BLOCK] = a[threadIdx.x];
}
__global__ void unlaunched(int *a) { a[threadIdx.x] = 0; }
void host(int *a, int n) {
  fold<<<n, BLOCK>>>(a);
}
`;

describe('kernels at their launches', () => {
  it('requires the launched sizes at the launch site, and says so in a note', async () => {
    const text = await core(FILE);
    expect(text).toContain('requires (u32) blockDim.x == 64');
    expect(text).not.toContain('gridDim.x ==');
    const unit = await lowered(FILE);
    const notes = unit.notices.filter((n) => n.code === 'N0620');
    expect(notes.map((n) => n.message)).toEqual(['kernel fold is verified at blockDim = 64, from its launch here (gridDim: every value)']);
    expect(text.slice(text.indexOf('kernel unlaunched'))).not.toContain('blockDim.x ==');
  });

  it("requires the integer arguments the launches pass alike as constants (in the parameter's type), and names them in the note", async () => {
    const file = `__global__ void tile(float *o, int width, unsigned pad, float s) {
  o[threadIdx.x * width + pad] = s;
}
int main() {
  const int W = 64;
  tile<<<1, 32>>>(o, W, -1, 2.0f);
}
`;
    const text = await core(file);
    expect(text).toContain('requires width == 64');
    expect(text).toContain('requires pad == 4294967295');
    const unit = await lowered(file);
    expect(unit.notices.filter((n) => n.code === 'N0620').map((n) => n.message)).toEqual(['kernel tile is verified at gridDim = 1, blockDim = 32, width = 64, pad = 4294967295, from its launch here']);
  });
});
