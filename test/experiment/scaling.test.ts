import { describe, expect, it } from 'vitest';
import { csvField, csvText } from '../../src/experiment/csv.js';
import { dataDependences, kernelClass } from '../../src/experiment/rows.js';
import { growthText, medianPoint, racyTwinsReport, outsideSolver, scalingCsv, scalingPoint, scalingReport, scalingSvg, v1Report, type ScalingPoint } from '../../src/experiment/scaling.js';
import { V1_REFERENCE, goalMs, v1Reference } from '../../src/experiment/reference.js';
import { FAMILIES } from '../../src/gen/families.js';
import { escapedXml, lineChartSvg, ticks } from '../../src/experiment/svg.js';
import type { TypingViolation, Use } from '../../src/map/map.js';
import { z3Wasm } from '../../src/solve/z3.js';

const violation = (variable: string, use: Use): TypingViolation => ({ variable, use, origin: { array: 'A', span: { start: 0, end: 1 } }, span: { start: 0, end: 1 } });

/** A measured point with made-up times, to test how points are reported. */
function point(family: ScalingPoint['family'], size: number, totalMs: number, solving: number): ScalingPoint {
  const rest = totalMs - solving;
  return {
    family,
    size,
    verdict: 'drf',
    accesses: size,
    phases: 1,
    queries: 1,
    times: { parse: rest / 2, typing: 0, phases: 0, encoding: rest / 2, solving, witnesses: 0 },
    totalMs,
  };
}

describe('data-dependence classes', () => {
  it('tells index from control, and both', () => {
    const deps = dataDependences([violation('k', 'index'), violation('c', 'loop bound'), violation('k', 'condition'), violation('a', 'assumption'), violation('k', 'index')]);
    expect(deps).toEqual([
      { variable: 'k', reaches: 'both' },
      { variable: 'c', reaches: 'control' },
      { variable: 'a', reaches: 'control' },
    ]);
    expect(kernelClass(deps)).toBe('CD/DD');
    expect(kernelClass(dataDependences([violation('s', 'loop step')]))).toBe('CD/DI');
    expect(kernelClass(dataDependences([violation('j', 'index')]))).toBe('CI/DD');
    expect(kernelClass([])).toBe('CI/DI');
  });
});

describe('CSV', () => {
  it('quotes only the fields that need it, and leaves absent values empty', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a, "b"')).toBe('"a, ""b"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField(null)).toBe('');
    expect(csvField(false)).toBe('false');
    expect(csvText(['x', 'y'], [[1.5, null]])).toBe('x,y\n1.5,\n');
  });
});

describe('the scaling benchmark', () => {
  it('verifies a family at a size in this process and times its stages', async () => {
    const p = await scalingPoint('barriers', 3, { timeoutMs: 30_000, solver: z3Wasm });
    expect(p).toMatchObject({ family: 'barriers', size: 3, verdict: 'drf', accesses: 7, phases: 4 });
    expect(p.queries).toBeGreaterThanOrEqual(4);
    expect(p.times.parse).toBeGreaterThan(0);
    // each of its queries folds to false in the simplifier: no solver time at all
    expect(p.times.solving).toBe(0);
    expect(outsideSolver(p)).toBe(1);
    // the simplifier decides every DRF family's queries now; a racy twin's witness is made canonical by the solver
    const loops = await scalingPoint('accesses', 3, { timeoutMs: 30_000, solver: z3Wasm, racy: true });
    expect(loops.verdict).toBe('racy');
    expect(loops.times.solving).toBeGreaterThan(0);
    expect(outsideSolver(loops)).toBeGreaterThan(0);
    expect(outsideSolver(loops)).toBeLessThan(1);
  });

  it("verifies a family's racy twin and reports it apart", async () => {
    const twin = await scalingPoint('sync-loops', 2, { timeoutMs: 30_000, solver: z3Wasm, racy: true });
    expect(twin).toMatchObject({ family: 'sync-loops', size: 2, verdict: 'racy' });
    const report = racyTwinsReport([{ ...twin, totalMs: 12.34 }]);
    expect(report).toContain('## Racy twins');
    expect(report).toMatch(/^\| sync-loops \| 2 \| racy \| \d+ \| 12\.3 \| /m);
    expect(racyTwinsReport([])).toBe('');
  });

  it("sets faial-ts beside issue 29's Faial v1 times, with the ratio and goal 1", () => {
    // every family the issue measured has a family of ours: its six and the CAV experiment's unsync-loops
    for (const r of V1_REFERENCE) expect(FAMILIES).toContain(r.family);
    expect(v1Reference('accesses', 50)).toBe(35);
    expect(v1Reference('seq-sync-loops', 50)).toBe(82);
    expect(v1Reference('accesses', 7)).toBeNull();
    expect(goalMs(35, 82)).toBe(167);
    const sizes = [1, 10, 50];
    const points = [point('accesses', 1, 40, 0), point('accesses', 10, 60, 0), { ...point('accesses', 50, 100, 0), processMs: 150 }, { ...point('barriers', 50, 90, 0), processMs: 300 }];
    const inProcess = v1Report(points.map(({ processMs: _p, ...p }) => p), { sizes });
    expect(inProcess).toContain('| accesses | 50 | 100.0 | — | 35 | 2.9× | — | — |');
    expect(inProcess).toContain('Goal 1 not checked');
    const report = v1Report(points, { sizes, nodeStartMs: 82 });
    // 150 ms ≤ 35 + 82 + 50; 300 ms > 45 + 82 + 50
    expect(report).toContain('| accesses | 50 | 100.0 | 150 | 35 | 4.3× | 167 | yes |');
    expect(report).toContain('| barriers | 50 | 90.0 | 300 | 45 | 6.7× | 177 | no |');
    expect(report).toContain('| accesses | 10 | 60.0 | — | — | — | — | — |');
    expect(report).toContain('met at 1 of 2');
    expect(scalingCsv(points).split('\n')[3]).toMatch(/,150,35$/);
  });

  it('keeps the median of repeated measurements', () => {
    const runs = [point('accesses', 1, 30, 20), point('accesses', 1, 10, 5), point('accesses', 1, 20, 15)];
    expect(medianPoint(runs).totalMs).toBe(20);
    expect(medianPoint(runs.slice(0, 2)).totalMs).toBe(10);
    expect(() => medianPoint([])).toThrow();
  });

  it('writes one CSV line per point with its share outside the solver', () => {
    const text = scalingCsv([point('accesses', 1, 10, 8), point('accesses', 2, 20, 19)]);
    const lines = text.trim().split('\n');
    expect(lines[0]).toBe('family,size,verdict,accesses,phases,queries,parse_ms,typing_ms,phases_ms,encoding_ms,solving_ms,witnesses_ms,total_ms,outside_solver,process_ms,v1_ms');
    // no process time measured; issue 29 gives v1's time at one access
    expect(lines[1]).toBe('accesses,1,drf,1,1,1,1,0,0,1,8,0,10,0.2,,27');
    expect(lines[2]!.endsWith(',20,0.05,,')).toBe(true);
  });

  it('draws one line per family, with a legend', () => {
    const svg = scalingSvg([point('accesses', 1, 10, 8), point('accesses', 2, 20, 19), point('sync-loops', 1, 5, 4), point('sync-loops', 2, 50, 49)]);
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.match(/<polyline /g)).toHaveLength(2);
    expect(svg.match(/<circle /g)).toHaveLength(4);
    expect(svg).toContain('>accesses</text>');
    expect(svg).toContain('>sync-loops</text>');
    expect(svg.trim().endsWith('</svg>')).toBe(true);
  });

  it('reports the growth of each family and checks the goals', () => {
    const sizes = Array.from({ length: 20 }, (_, i) => i + 1);
    const points = [...sizes.map((n) => point('barriers', n, 10 + 5 * n, 9 + 5 * n)), ...sizes.map((n) => point('sync-loops', n, 3 * 1.3 ** n, 3 * 1.3 ** n * 0.7))];
    const report = scalingReport(points, { version: '9.9.9', solver: 'z3-wasm', timeoutMs: 1000, sizes, runs: 3, wallMs: 1234 });
    expect(report).toContain('# Scaling: the synthetic families at sizes 1…20 (20 sizes)');
    expect(report).toMatch(/^\| barriers \| 20\/20 \| 15\.0 \| 60\.0 \| 110\.0 \| linear \| 10\.00 \+ 5\.00·n \|/m);
    expect(report).toMatch(/^\| sync-loops \| 20\/20 \| .* \| exponential \(×1\.300 per size step\) \|/m);
    expect(report).toContain('* Every size of every family verified DRF: yes.');
    expect(report).toContain('* No family grows exponentially (best fit): no: sync-loops.');
    expect(report).toMatch(/\* Time outside the solver under 20% at every size: no, at 20 of 40 points \(largest: 30\.0%, sync-loops n=\d+\)/);
  });

  it('names the growth of a power law after its exponent', () => {
    expect(growthText({ model: 'power', a: 1, b: 1.1, r2: 1, adjustedR2: 1 })).toBe('linear (n^1.10)');
    expect(growthText({ model: 'power', a: 1, b: 2.2, r2: 1, adjustedR2: 1 })).toBe('polynomial (n^2.20)');
    expect(growthText({ model: 'power', a: 1, b: 0.5, r2: 1, adjustedR2: 1 })).toBe('sublinear (n^0.50)');
    expect(growthText(null)).toBe('not enough sizes to fit');
  });
});

describe('SVG', () => {
  it('picks round ticks that cover the data', () => {
    expect(ticks(50)).toEqual([0, 10, 20, 30, 40, 50]);
    expect(ticks(2788)).toEqual([0, 1000, 2000, 3000]);
    expect(ticks(0.37)).toEqual([0, 0.1, 0.2, 0.3, 0.4]);
    expect(ticks(0)).toEqual([0]);
  });

  it('escapes text', () => {
    expect(escapedXml('a < b & "c"')).toBe('a &lt; b &amp; &quot;c&quot;');
    expect(lineChartSvg({ title: 'x<y', xLabel: 'n', yLabel: 'ms', series: [] })).toContain('>x&lt;y</text>');
  });
});
