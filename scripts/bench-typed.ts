/**
 * What machine integers cost the verifier: kernels with `int`/`unsigned`
 * arithmetic (built as the CUDA front end lowers them) against their
 * BabyCUDA twins on naturals, verified in one process for all launches.
 * Prints the median of each over the runs (BENCH_RUNS, default 5):
 *
 *   nice -n 10 npx tsx scripts/bench-typed.ts
 */
import { performance } from 'node:perf_hooks';
import { checkedKernels } from '../src/api/check.js';
import { NO_LAUNCH } from '../src/core/launch.js';
import type { KernelMap } from '../src/map/map.js';
import { z3Wasm } from '../src/solve/z3.js';
import { verifyKernel } from '../src/verify/verify.js';
import * as b from '../test/support/core.js';

const runs = Number(process.env['BENCH_RUNS'] ?? 5);
const utid = b.tidAs('u32');
const itid = b.tidAs('i32');

function bcu(text: string): KernelMap {
  const checked = checkedKernels('bench.bcu', text);
  if (!checked.ok) throw new Error(checked.diagnostics.map((d) => d.message).join('; '));
  return checked.kernels[0]!;
}

/** Pairs of the same kernel: machine integers, and BabyCUDA's naturals. */
const PAIRS: readonly { name: string; typed: KernelMap; nat: KernelMap }[] = [
  {
    name: 'tree reduction (DRF)',
    typed: b.mapOf(
      b.kernel('reduce', { arrays: [b.shared('A')] }, [
        b.forLoop('s', { type: 'u32', from: b.bin('/', b.cast('u32', b.builtin('blockDim')), b.u32(2)), to: b.u32(1), down: true, step: { op: '/', amount: b.u32(2) } }, [
          b.if_(b.cmp('<', utid, b.v('s', 'u32')), [b.read('x', 'A', [b.add(utid, b.v('s', 'u32'))], b.write('A', [utid], b.v('x', 'u32')))]),
          b.sync,
        ]),
      ]),
    ),
    nat: bcu('kernel reduce() { shared A; for s in blockDim.x / 2 downto 1 step / 2 { if (tid < s) { let x = A[tid + s] in A[tid] := x }; sync } }'),
  },
  {
    name: 'global index, shifted neighbour (racy)',
    typed: b.mapOf(
      b.kernel('shift', { params: [b.param('n', 'i32')], arrays: [b.global('A')] }, [
        b.let_(
          'i',
          b.cast('i32', b.add(b.mul(b.cast('u32', b.builtin('blockIdx')), b.cast('u32', b.builtin('blockDim'))), utid)),
          b.if_(b.cmp('<', b.add(b.v('i', 'i32'), b.i32(1)), b.v('n', 'i32')), [b.read('x', 'A', [b.add(b.v('i', 'i32'), b.i32(1))], b.write('A', [b.v('i', 'i32')], b.v('x', 'i32')))]),
        ),
      ]),
    ),
    nat: bcu('kernel shift(n) { global A; let i = blockIdx.x * blockDim.x + tid in if (i + 1 < n) { let x = A[i + 1] in A[i] := x } }'),
  },
  {
    name: 'bitonic exchange with xor (DRF)',
    typed: b.mapOf(
      b.kernel('bitonic', { params: [b.param('j', 'u32')], arrays: [b.shared('A')], requires: [b.cmp('>', b.v('j', 'u32'), b.u32(0))] }, [
        b.let_('p', b.bin('^', utid, b.v('j', 'u32')), b.if_(b.cmp('>', b.v('p', 'u32'), utid), [b.read('x', 'A', [b.v('p', 'u32')], b.read('y', 'A', [utid], b.write('A', [utid], b.v('x', 'u32'))))])),
        b.sync,
      ]),
    ),
    nat: bcu('kernel bitonic(j) requires j > 0 { shared A; let p = tid ^ j in if (p > tid) { let x = A[p] in let y = A[tid] in A[tid] := x }; sync }'),
  },
  {
    name: 'negative offsets, signed loop downto 0 (racy)',
    typed: b.mapOf(
      b.kernel('down', { params: [b.param('n', 'i32')], arrays: [b.shared('A')] }, [
        b.forLoop('k', { type: 'i32', from: b.v('n', 'i32'), to: b.i32(0), down: true }, [b.write('A', [b.sub(itid, b.v('k', 'i32'))], itid)]),
      ]),
    ),
    nat: bcu('kernel down(n) { shared A; for k in n downto 1 { A[tid + n - k] := tid } }'),
  },
];

async function timeOf(map: KernelMap): Promise<{ ms: number; status: string; queries: number }> {
  const times: number[] = [];
  let status = '';
  let queries = 0;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const r = await verifyKernel(map, { launch: NO_LAUNCH, timeoutMs: 30_000, maxRaces: 4, solver: z3Wasm });
    times.push(performance.now() - t0);
    status = r.status;
    queries = r.stats.queries;
  }
  times.sort((x, y) => x - y);
  return { ms: times[Math.floor(times.length / 2)]!, status, queries };
}

await z3Wasm.check('(check-sat)', 10_000);
console.log(`median of ${runs} runs, verify for all launches, one process`);
for (const pair of PAIRS) {
  const typed = await timeOf(pair.typed);
  const nat = await timeOf(pair.nat);
  console.log(`${pair.name.padEnd(46)} machine integers ${typed.status.padEnd(6)} ${String(typed.queries).padStart(2)} queries ${Math.round(typed.ms).toString().padStart(6)} ms | naturals ${nat.status.padEnd(6)} ${String(nat.queries).padStart(2)} queries ${Math.round(nat.ms).toString().padStart(6)} ms`);
}
process.exit(0);
