import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCommand, parseInitOptions, toJson, type RunCommandOptions } from '../../src/cli/run.js';

let dir = '';
const files: Record<string, string> = {
  'figs.bcu': `// Figures 3 and 4 of the paper
kernel fig3(M) {
  shared A;
  for x in 0..M {
    let y = A[x] in
    A[x] := y + 1
  }
}
kernel fig4() {
  shared A;
  if (tid = 0) { A[0] := tid } else { skip }
}
`,
  'copy.bcu': `kernel copy(N) requires N >= 2 {
  shared A, B;
  let v = A[tid] in
  B[tid] := v
}
`,
  'diverge.bcu': `kernel d() {
  if (tid < 1) { sync } else { skip }
}
`,
  'iterations.bcu': `kernel k() { for i in 0..2 { if (tid = i) { sync } } }
`,
  'bad.bcu': `kernel k() {
  A[0] = 1
}
`,
  'assume.bcu': `kernel k() { shared A; assume tid < 1; A[0] := 1 }
`,
  'forever.bcu': `kernel k() { shared A; for i in 0..4 step + 0 { A[tid] := i } }
`,
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'faial-run-'));
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function cli(file: string, opts: Partial<RunCommandOptions>): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCommand([join(dir, file)], { params: {}, init: [], json: false, ...opts }, {
    out: (t) => void (out += t),
    err: (t) => void (err += t),
  });
  return { code, out, err };
}

describe('faial-ts run', () => {
  it('prints the phases and the races of Figure 3 and exits 1', async () => {
    const r = await cli('figs.bcu', { kernel: 'fig3', params: { M: 2n }, blockDim: [2n, 1n, 1n] });
    expect(r.code).toBe(1);
    expect(r.err).toBe('');
    expect(r.out).toContain('kernel fig3(M=2), grid 1, block 2');
    expect(r.out).toContain('block 0, phase 0 (until the end of the kernel):');
    expect(r.out).toContain('thread 1: read A[0] = 0 (5:13); write A[0] := 1 (6:5); read A[1] = 0 (5:13); write A[1] := 1 (6:5)');
    expect(r.out).toContain(`data race on A[1] (shared, block 0, phase 0): thread 0 reads at ${join(dir, 'figs.bcu')}:5:13, thread 1 writes at ${join(dir, 'figs.bcu')}:6:5`);
    expect(r.out).toContain('4 data races');
    expect(r.out).not.toContain('fig4');
  });

  it('exits 0 for Figure 4', async () => {
    const r = await cli('figs.bcu', { kernel: 'fig4', blockDim: [4n, 1n, 1n] });
    expect(r.code).toBe(0);
    expect(r.out).toContain('thread 0: write A[0] := 0 (11:18)');
    expect(r.out).toContain('no data race');
  });

  it('runs every kernel of the file without --kernel; the worst exit code wins', async () => {
    const r = await cli('figs.bcu', { params: { M: 1n }, blockDim: [2n, 1n, 1n] });
    expect(r.code).toBe(1);
    expect(r.out).toContain('kernel fig3(M=1)');
    expect(r.out).toContain('kernel fig4()');
  });

  it('initialises arrays from --init', async () => {
    const list = await cli('copy.bcu', { params: { N: 2n }, blockDim: [3n, 1n, 1n], init: ['A=4,5'] });
    expect(list.code).toBe(0);
    expect(list.out).toContain('thread 1: read A[1] = 5 (3:11); write B[1] := 5 (4:3)');
    expect(list.out).toContain('final B (shared, block 0): [0]=4 [1]=5 [2]=0');
    expect(list.out).toContain('note: 1 read of elements never written nor initialised (read as 0), e.g. A[2] at 3:11');
    const random = await cli('copy.bcu', { params: { N: 2n }, blockDim: [3n, 1n, 1n], init: ['A=random:7'] });
    const again = await cli('copy.bcu', { params: { N: 2n }, blockDim: [3n, 1n, 1n], init: ['A=random:7'] });
    expect(random.out).toBe(again.out);
    expect(random.out).not.toContain('never written');
  });

  it('reports a launch that violates requires, exit 2', async () => {
    const r = await cli('copy.bcu', { params: { N: 1n }, blockDim: [2n, 1n, 1n] });
    expect(r.code).toBe(2);
    expect(r.err).toBe(`${join(dir, 'copy.bcu')}:1:25: error: launch violates requires at 1:25\n`);
  });

  it('reports a missing parameter, exit 2', async () => {
    const r = await cli('copy.bcu', { blockDim: [2n, 1n, 1n] });
    expect(r.code).toBe(2);
    expect(r.err).toContain("parameter 'N' needs a value");
  });

  it('reports barrier divergence with two threads, exit 1', async () => {
    const r = await cli('diverge.bcu', { blockDim: [2n, 1n, 1n] });
    expect(r.code).toBe(1);
    expect(r.out).toContain(`${join(dir, 'diverge.bcu')}:2:18: barrier divergence in block 0: thread 0 reached this sync, thread 1 did not (it finished)`);
  });

  it('says when the other thread waits at the same barrier in another iteration', async () => {
    const r = await cli('iterations.bcu', { blockDim: [2n, 1n, 1n] });
    expect(r.code).toBe(1);
    expect(r.out).toContain(`${join(dir, 'iterations.bcu')}:1:45: barrier divergence in block 0: thread 0 reached this sync, thread 1 did not (it waits at this sync in another iteration of a loop around it)`);
  });

  it('prints syntax errors with file:line:col, exit 2', async () => {
    const r = await cli('bad.bcu', { blockDim: [1n, 1n, 1n] });
    expect(r.code).toBe(2);
    expect(r.err).toMatch(new RegExp(`^${join(dir, 'bad.bcu').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:2:\\d+: error: syntax error`));
    expect(r.out).toBe('');
  });

  it('reports an infeasible launch, exit 0', async () => {
    const r = await cli('assume.bcu', { blockDim: [2n, 1n, 1n] });
    expect(r.code).toBe(0);
    expect(r.out).toContain(`${join(dir, 'assume.bcu')}:1:24: launch infeasible: thread (1,0,0) of block (0,0,0) fails this assumption`);
  });

  it('stops a loop that does not terminate, exit 2', async () => {
    const r = await cli('forever.bcu', { blockDim: [1n, 1n, 1n] });
    expect(r.code).toBe(2);
    expect(r.err).toContain("stopped: this loop does not terminate: 'i' stays at 0");
  });

  it('rejects an unknown kernel, bad --init and unreadable files, exit 2', async () => {
    expect((await cli('figs.bcu', { kernel: 'nope', blockDim: [1n, 1n, 1n] })).err).toContain("no kernel named 'nope' (found: fig3, fig4)");
    expect((await cli('figs.bcu', { kernel: 'fig4', blockDim: [1n, 1n, 1n], init: ['Z=1'] })).code).toBe(2);
    expect((await cli('figs.bcu', { kernel: 'fig4', blockDim: [1n, 1n, 1n], init: ['A=1,x'] })).err).toContain('natural numbers');
    const missing = await cli('nowhere.bcu', {});
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('cannot read');
  });

  it('prints one JSON document with --json', async () => {
    const r = await cli('figs.bcu', { kernel: 'fig3', params: { M: 1n }, blockDim: [2n, 1n, 1n], json: true });
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.out) as {
      exitCode: number;
      runs: { kernel: string; result: { kind: string; races: { array: string; index: number[]; first: { thread: number[]; kind: string; span: { line: number; column: number } } }[] } }[];
    };
    expect(doc.exitCode).toBe(1);
    expect(doc.runs).toHaveLength(1);
    expect(doc.runs[0]!.kernel).toBe('fig3');
    expect(doc.runs[0]!.result.kind).toBe('finished');
    expect(doc.runs[0]!.result.races.map((x) => `${x.array}[${x.index[0]}] ${x.first.kind} ${x.first.span.line}:${x.first.span.column}`)).toEqual(['A[0] read 5:13', 'A[0] write 6:5']);
  });
});

describe('--init parsing and JSON numbers', () => {
  it('parses lists and random contents', () => {
    const parsed = parseInitOptions(['A=1, 2,3', 'B=random:9', 'C=random'], 5);
    expect(typeof parsed).not.toBe('string');
    if (typeof parsed === 'string') return;
    expect(parsed.explicit.get('A')).toEqual({ kind: 'list', values: [1n, 2n, 3n] });
    expect(parsed.explicit.get('B')).toEqual({ kind: 'random', seed: 9 });
    expect(parsed.explicit.get('C')).toEqual({ kind: 'random', seed: 5 });
    expect(parsed.fallback).toEqual({ kind: 'random', seed: 5 });
    expect(parseInitOptions(['A=1', 'A=2'], undefined)).toContain('already');
    expect(parseInitOptions(['=1'], undefined)).toContain('expected ARRAY=');
  });

  it('writes bigints as exact JSON numbers', () => {
    expect(toJson({ v: 2n ** 80n, w: [1n] })).toBe('{\n  "v": 1208925819614629174706176,\n  "w": [\n    1\n  ]\n}');
  });
});
