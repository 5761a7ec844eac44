/**
 * `faial-ts verify --sarif` on real kernels, validated against the published
 * SARIF 2.1.0 schema (vendored: test/fixtures/README.md says from where).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import AjvModule from 'ajv-draft-04';
import formatsModule from 'ajv-formats';
import type { Log, Result } from 'sarif';
import { cliResult } from '../../src/cli/main.js';
import { RULE_IDS, codeText, sarifLog } from '../../src/report/sarif.js';
import { verifyText } from '../../src/api/verify.js';
import { KERNELS as CLI_KERNELS, decoded } from '../cli/helpers.js';
import { z3Wasm } from '../../src/solve/z3.js';
import { verifyKernel } from '../../src/verify/verify.js';
import * as core from '../support/core.js';

// CommonJS modules whose TypeScript types name the class as `default`
const Ajv = AjvModule.default;
const addFormats = formatsModule.default;

const schema: unknown = JSON.parse(readFileSync('test/fixtures/sarif-schema-2.1.0.json', 'utf8'));
// The schema's `language` pattern has a stray `]`: valid as a plain RegExp, not with the u flag.
const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
addFormats(ajv);
const validate = ajv.compile(schema as object);

function valid(log: unknown): string[] {
  return validate(log) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`);
}

// the CLI tests' kernels where they serve, and the ones SARIF needs besides
const KERNELS: Record<string, string> = {
  'racy.bcu': CLI_KERNELS['racy.bcu']!,
  'diverge.bcu': CLI_KERNELS['diverge.bcu']!,
  'own.bcu': `kernel own() {
  shared s;
  s[tid] := 1;
  sync;
  let x = s[tid] in
  s[tid] := x + 1
}
`,
  'vacuous.bcu': `kernel last() {
  shared A;
  assume tid + 1 < blockDim.x;
  A[tid] := 1
}
`,
  'syntax.bcu': CLI_KERNELS['syntax.bcu']!,
  'names.bcu': CLI_KERNELS['names.bcu']!,
  'two arrays.bcu': `kernel two() {
  shared A, B;
  A[0] := tid;
  B[tid] := 1;
  let x = B[0] in
  A[1] := x
}
`,
};

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'faial-sarif-'));
  for (const [name, text] of Object.entries(KERNELS)) await writeFile(join(dir, name), text);
});
afterAll(async () => {
  if (dir !== '') await rm(dir, { recursive: true, force: true });
});

const file = (name: string): string => join(dir, name);

function logOf(stdout: string): Log {
  return JSON.parse(stdout) as Log;
}

function results(log: Log): Result[] {
  return log.runs[0]?.results ?? [];
}

describe('verify --sarif', () => {
  it('is valid SARIF 2.1.0 for races, divergence, input errors and redundant barriers, with the usual exit code', async () => {
    const r = await cliResult(['verify', '--sarif', '--barriers', ...Object.keys(KERNELS).map(file)]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe('');
    const log = logOf(r.stdout);
    expect(valid(log)).toEqual([]);
    expect(log.version).toBe('2.1.0');
    expect(log.runs).toHaveLength(1);
    const rules = new Set(results(log).map((x) => x.ruleId));
    // faial/scope: the kernels' own requires, which their verdicts hold under
    expect(rules).toEqual(new Set(['faial/data-race', 'faial/barrier-divergence', 'faial/vacuous', 'faial/input-error', 'faial/redundant-barrier', 'faial/scope']));
    const driver = log.runs[0]!.tool.driver;
    for (const x of results(log)) expect(driver.rules?.[x.ruleIndex!]?.id).toBe(x.ruleId);
    // every file given is an artifact, with the space in a name encoded
    expect(log.runs[0]!.artifacts?.map((a) => a.location?.uri).some((u) => u?.endsWith('/two%20arrays.bcu'))).toBe(true);
  });

  it('reports a kernel whose assumptions exclude every launch as faial/vacuous, an error, with exit code 4; text and JSON say vacuous', async () => {
    const args = [file('vacuous.bcu')];
    const r = await cliResult(['verify', '--sarif', ...args]);
    expect(r.exitCode).toBe(4);
    const log = logOf(r.stdout);
    expect(valid(log)).toEqual([]);
    expect(results(log).map((x) => [x.ruleId, x.level])).toEqual([['faial/vacuous', 'error']]);
    expect(results(log)[0]!.message.text).toContain("Kernel last: no launch satisfies the kernel's assumptions");
    const text = await cliResult(['verify', ...args]);
    expect(text.exitCode).toBe(4);
    expect(text.stdout).toMatch(/^! last \(.*vacuous\.bcu\): vacuous — no launch satisfies the kernel's assumptions/m);
    expect(text.stdout).toContain('1 kernel: 1 vacuous');
    const json = JSON.parse((await cliResult(['verify', '--json', ...args])).stdout) as { kernels: { status: string }[]; summary: Record<string, number> };
    expect(json.kernels.map((k) => k.status)).toEqual(['vacuous']);
    expect(json.summary).toMatchObject({ kernels: 1, vacuous: 1, drf: 0 });
  });

  it('gives a race both accesses, as the location and as related locations 1 and 2, and the witness', async () => {
    const r = await cliResult(['verify', '--sarif', file('racy.bcu')]);
    expect(r.exitCode).toBe(1);
    const log = logOf(r.stdout);
    expect(valid(log)).toEqual([]);
    const [race] = results(log);
    expect(race?.ruleId).toBe('faial/data-race');
    expect(race?.level).toBe('error');
    expect(race?.message.text).toMatch(/^Data race on A\[\d+\] in kernel racy \(read-write\): thread 1 \[(read|write)s\]\(1\) A\[tid( \+ 1)?\] and thread 2 \[(read|write)s\]\(2\)/);
    expect(race?.message.text).toContain('Confirmed: the witness depends only on');
    const related = race?.relatedLocations ?? [];
    expect(related.map((l) => l.id)).toEqual([1, 2]);
    const at = related.map((l) => `${l.physicalLocation?.region?.startLine}:${l.physicalLocation?.region?.startColumn} ${l.message?.text?.split(' by ')[0]}`);
    expect([...at].sort()).toEqual(['3:11 read', '4:3 write']);
    expect(related.map((l) => l.message?.text?.split(' by ')[1])).toEqual(['thread 1', 'thread 2']);
    expect(race?.locations?.[0]?.physicalLocation?.region).toEqual(related[0]?.physicalLocation?.region);
    expect(related[1]?.physicalLocation?.region?.snippet?.text).toMatch(/^A\[tid( \+ 1)?\]$/);
    const props = race?.properties ?? {};
    expect(props['kernel']).toBe('racy');
    expect(props['confidence']).toBe('confirmed');
    expect(props['witness']).toMatchObject({ parameters: { N: expect.any(Number) }, threads: [expect.any(Object), expect.any(Object)] });
  });

  it('lists every racing pair, each once, grouped by array in the text report', async () => {
    const sarif = logOf((await cliResult(['verify', '--sarif', file('two arrays.bcu')])).stdout);
    const json = JSON.parse((await cliResult(['verify', '--json', file('two arrays.bcu')])).stdout) as { kernels: { races: { array: string; accesses: { line: number; column: number }[] }[] }[] };
    const text = (await cliResult(['verify', file('two arrays.bcu')])).stdout;
    const pairs = (xs: { array: string; at: string[] }[]): string[] => xs.map((x) => `${x.array} ${[...x.at].sort().join(' ')}`).sort();
    const fromJson = pairs(json.kernels[0]!.races.map((x) => ({ array: x.array, at: x.accesses.map((a) => `${a.line}:${a.column}`) })));
    const fromSarif = pairs(
      results(sarif).map((x) => ({
        array: String(x.properties?.['array']),
        at: (x.relatedLocations ?? []).map((l) => `${l.physicalLocation?.region?.startLine}:${l.physicalLocation?.region?.startColumn}`),
      })),
    );
    // A[0] and A[1] each written by every thread; B[0] read while thread 0 writes it
    expect(fromJson).toEqual(['A 3:3 3:3', 'A 6:3 6:3', 'B 4:3 5:11']);
    expect(fromSarif).toEqual(fromJson);
    expect(text).toContain('data races on A: 2 access pairs');
    expect(text).toContain('data races on B: 1 access pair');
  });

  it('keeps partialFingerprints the same across runs and distinct across findings', async () => {
    const args = ['verify', '--sarif', file('racy.bcu'), file('two arrays.bcu'), file('diverge.bcu')];
    const prints = (log: Log): string[] => results(log).map((x) => JSON.stringify(x.partialFingerprints));
    const first = prints(logOf((await cliResult(args)).stdout));
    const second = prints(logOf((await cliResult(args)).stdout));
    expect(second).toEqual(first);
    expect(new Set(first).size).toBe(first.length);
  });

  it('makes a possible alarm a warning and a confirmed one an error', async () => {
    const text = `kernel k() {
  shared A;
  global G;
  let v = G[tid] in
  A[v + tid] := tid
}
`;
    const path = file('possible.bcu');
    await writeFile(path, text);
    const log = logOf((await cliResult(['verify', '--sarif', path])).stdout);
    expect(valid(log)).toEqual([]);
    expect(results(log).map((x) => [x.ruleId, x.level, x.properties?.['confidence']])).toEqual([['faial/data-race', 'warning', 'possible']]);
  });

  it('reports a kernel that is not proved as a warning at its first line', async () => {
    const verified = await verifyText('k.bcu', KERNELS['racy.bcu']!.replace('A[tid] := v', 'A[tid] := 0'), {
      launch: { params: new Map(), blockDim: null, gridDim: null },
      timeoutMs: 10_000,
      maxRaces: 20,
      solver: z3Wasm,
    });
    if (!verified.ok) throw new Error('k.bcu should be valid');
    const kernel = verified.kernels[0]!;
    const unknown = { ...kernel, status: 'unknown' as const, races: [], unknowns: [{ query: 'race-A-0', reason: 'timeout' }] };
    const log = sarifLog([{ ok: true, path: 'k.bcu', kernels: [unknown] }], { version: '0.0.0' });
    expect(valid(log)).toEqual([]);
    const [x] = results(log);
    expect(x?.ruleId).toBe('faial/unknown');
    expect(x?.level).toBe('warning');
    expect(x?.message.text).toContain('got no answer (timeout)');
    // SHA-256 of "faial/unknown\0racy", as node:crypto made it before the hash became plain JavaScript, first of its kind in the file: a changed fingerprint re-opens every finding a CI has seen
    const print = '1af26346da58951463b695b485e10c7846a771b1085afc1be7761f6c55cb12af:1';
    expect(x?.partialFingerprints).toEqual({ 'faialFinding/v2': print, primaryLocationLineHash: print });
    expect(x?.locations?.[0]?.physicalLocation?.region).toMatchObject({ startLine: 1, startColumn: 1, endLine: 1 });
    // a relative path stays relative to the checkout
    expect(x?.locations?.[0]?.physicalLocation?.artifactLocation).toEqual({ uri: 'k.bcu', uriBaseId: '%SRCROOT%' });
  });

  it('gives the front end\'s notices as notes, at the lines and with the codes the JSON report has', async () => {
    const cu = file('fenced.cu');
    await writeFile(cu, '__global__ void k(int *A) {\n  __invariant(threadIdx.x < 64);\n  A[threadIdx.x] = 1;\n  __threadfence();\n}\n');
    const log = logOf((await cliResult(['verify', '--sarif', cu])).stdout);
    expect(valid(log)).toEqual([]);
    const notes = results(log).filter((x) => x.ruleId === 'faial/notice');
    expect(notes.map((x) => [x.level, x.properties?.['code'], x.locations?.[0]?.physicalLocation?.region?.startLine])).toEqual([
      ['note', 'N0601', 2],
      ['note', 'N0603', 4],
    ]);
    expect(notes[1]!.message.text).toMatch(/^N0603: .*__threadfence/);
    expect(log.runs[0]!.tool.driver.rules?.[notes[0]!.ruleIndex!]?.defaultConfiguration?.level).toBe('note');
    const json = decoded((await cliResult(['verify', '--json', cu])).stdout);
    expect(json.notices?.map((n) => [n.code, n.line, n.message])).toEqual(notes.map((x) => [x.properties?.['code'], x.locations?.[0]?.physicalLocation?.region?.startLine, x.message.text?.slice(7)]));
  });

  it('rejects a document that breaks the schema (the validator is live)', () => {
    expect(valid({ version: '2.1.0', runs: [{ tool: { driver: {} } }] }).length).toBeGreaterThan(0);
    expect(valid({ version: '2.0.0', runs: [] }).length).toBeGreaterThan(0);
  });

  it('writes relative input paths as relative URIs', async () => {
    const path = relative(process.cwd(), file('own.bcu'));
    const log = logOf((await cliResult(['verify', '--sarif', '--barriers', path])).stdout);
    expect(valid(log)).toEqual([]);
    const [x] = results(log);
    expect(x?.ruleId).toBe('faial/redundant-barrier');
    expect(x?.level).toBe('warning');
    expect(x?.locations?.[0]?.physicalLocation?.region).toMatchObject({ startLine: 4, startColumn: 3, endColumn: 7 });
    expect(x?.message.text).toContain('proved data-race free and free of barrier divergence, for all parameters and launches');
    expect(x?.locations?.[0]?.physicalLocation?.artifactLocation?.uriBaseId).toBe('%SRCROOT%');
  });

  it('states the assumption of a grid of fewer than 2^32 threads along x, which is no CUDA limit, in text, JSON and SARIF', async () => {
    // a file with no launch of its own (saxpy.cu's host launch fixes every dimension)
    const path = 'examples/cuda/helpers/complex-multiply.cu';
    const assumed = 'a grid of fewer than 2^32 threads along x (gridDim.x * blockDim.x < 4294967296, not a CUDA limit: so that neither blockIdx.x * blockDim.x + threadIdx.x nor blockDim.x * gridDim.x wraps around)';
    // the kernel uses the grid along x only: the dimensions it does not use are stated after it
    const unused = 'gridDim.y = gridDim.z = 1 and blockDim.y = blockDim.z = 1, dimensions the kernel does not use (--grid-dim and --block-dim verify other launches)';
    const text = (await cliResult(['verify', path])).stdout;
    expect(text).toContain(`shifts in range (undefined behaviour is outside the scope of verification); assuming ${assumed}; assuming ${unused}\n`);
    const json = decoded((await cliResult(['verify', '--json', path])).stdout);
    expect(json.kernels[0]?.scope).toMatch(new RegExp(`; assuming ${assumed.replace(/[()*^.+]/g, '\\$&')}; assuming ${unused.replace(/[()*^.+]/g, '\\$&')}$`));
    const scope = results(logOf((await cliResult(['verify', '--sarif', path])).stdout)).find((x) => x.ruleId === 'faial/scope');
    expect(scope?.message.text).toMatch(/; assuming a grid of fewer than 2\^32 threads along x .*\)\.$/);
    expect(scope?.properties?.['launchAssumptions']).toEqual([assumed, unused]);
  });

  it('notes the scope of a kernel with machine integers, and each approximation, at their places', async () => {
    const k = core.kernel('typed', { arrays: [core.shared('A')] }, [
      core.havoc('n', 'i32', core.approximation('the trip count of a while loop', 'its condition is not a bound'), core.forLoop('i', { type: 'i32', from: core.i32(0), to: core.v('n', 'i32') }, [core.write('A', [core.v('i', 'i32')], core.tid)])),
    ]);
    const map = core.mapOf(k);
    const result = await verifyKernel(map, { launch: { params: new Map(), blockDim: null, gridDim: null }, timeoutMs: 10_000, maxRaces: 4, solver: z3Wasm });
    const log = sarifLog([{ ok: true, path: 'typed.cu', kernels: [result] }], { version: '0.0.0' });
    expect(valid(log)).toEqual([]);
    const byRule = new Map(results(log).map((x) => [x.ruleId, x]));
    // the race depends on the approximated bound: a warning that names it
    expect(byRule.get('faial/data-race')?.level).toBe('warning');
    expect(byRule.get('faial/data-race')?.message.text).toContain('approximated at 4:16: the trip count of a while loop (its condition is not a bound)');
    const scope = byRule.get('faial/scope');
    expect(scope?.level).toBe('note');
    expect(scope?.message.text).toBe(
      'Kernel typed uses machine integers: its verdict (racy) holds for all parameters and launches, assuming no signed overflow, no unsigned loop counter wrapping around, no division by zero, shifts in range; undefined behaviour is outside the scope of verification.',
    );
    const approximation = byRule.get('faial/approximation');
    expect(approximation?.level).toBe('note');
    expect(approximation?.locations?.[0]?.physicalLocation?.region).toMatchObject({ startLine: 4, startColumn: 16 });
    expect(approximation?.message.text).toBe('Approximated in kernel typed: the trip count of a while loop (its condition is not a bound). Sound: alarms that depend on it are reported as possible.');
    const driver = log.runs[0]!.tool.driver;
    for (const x of results(log)) expect(driver.rules?.[x.ruleIndex!]?.id).toBe(x.ruleId);
  });

  describe('fingerprints', () => {
    const racy = `__global__ void k(int *A, int *B) {
  A[threadIdx.x + 1] = A[threadIdx.x];
  B[0] = threadIdx.x;
}
`;
    // comments and blank lines above the kernel, a comment and a new unrelated access (a read of A[0], racing with nothing) inside it, an index laid out anew
    const edited = `// a comment above the kernel

/* and a block
   comment */

__global__ void k(int *A, int *B) {
  int t = A[0];
  // the race on A
  A[ threadIdx.x+1 ] = A[threadIdx.x /* old */];

  B[0] = threadIdx.x + t - t;
}
`;
    const findings = async (name: string, text: string): Promise<Result[]> => {
      const path = file(name);
      await writeFile(path, text);
      return results(logOf((await cliResult(['verify', '--sarif', path])).stdout));
    };
    const summary = (xs: readonly Result[]): string[][] =>
      xs.map((x) => [x.ruleId ?? '', String(x.properties?.['array'] ?? ''), x.partialFingerprints?.['faialFinding/v2'] ?? '', x.partialFingerprints?.['primaryLocationLineHash'] ?? '']);

    it('stay the same when lines, comments and an unrelated access are added around the races, and differ between the two races', async () => {
      const before = await findings('print-before.cu', racy);
      const after = await findings('print-after.cu', edited);
      const races = (xs: readonly Result[]): Result[] => xs.filter((x) => x.ruleId === 'faial/data-race');
      expect(races(before).map((x) => x.properties?.['array'])).toEqual(['A', 'B']);
      // the edit moved every finding down: no line number may be hashed
      expect(races(before).map((x) => x.locations?.[0]?.physicalLocation?.region?.startLine)).toEqual([2, 3]);
      expect(races(after).map((x) => x.locations?.[0]?.physicalLocation?.region?.startLine)).toEqual([9, 11]);
      expect(summary(after)).toEqual(summary(before));
      const [a, b] = races(before).map((x) => x.partialFingerprints?.['faialFinding/v2']);
      expect(a).toMatch(/^[0-9a-f]{64}:1$/);
      expect(b).toMatch(/^[0-9a-f]{64}:1$/);
      expect(a).not.toBe(b);
    });

    it('change when the racing access changes, and number findings alike in source order', async () => {
      const before = await findings('print-before.cu', racy);
      const changed = await findings('print-changed.cu', racy.replace('A[threadIdx.x + 1]', 'A[threadIdx.x + 2]'));
      expect(changed.find((x) => x.properties?.['array'] === 'A')?.partialFingerprints).not.toEqual(before.find((x) => x.properties?.['array'] === 'A')?.partialFingerprints);
      expect(changed.find((x) => x.properties?.['array'] === 'B')?.partialFingerprints).toEqual(before.find((x) => x.properties?.['array'] === 'B')?.partialFingerprints);
      // two copies of one write: each races with itself and with the other, three findings alike numbered in source order
      const twice = (await findings('print-twice.cu', '__global__ void k(int *B) {\n  B[0] = threadIdx.x;\n  B[0] = threadIdx.x;\n}\n')).filter((x) => x.ruleId === 'faial/data-race');
      const at = twice.map((x) => [(x.relatedLocations ?? []).map((l) => l.physicalLocation?.region?.startLine).join('-'), x.partialFingerprints?.['faialFinding/v2']?.split(':')[1]]);
      expect(at).toEqual([
        ['2-2', '1'],
        ['2-3', '2'],
        ['3-3', '3'],
      ]);
      expect(new Set(twice.map((x) => x.partialFingerprints?.['faialFinding/v2']?.split(':')[0])).size).toBe(1);
    });

    it('read source text as tokens: comments and layout do not count, words stay apart', () => {
      expect(codeText('A[ i+1 /* x */ ]')).toBe(codeText('A[i + 1]'));
      expect(codeText('A[i // trailing\n  + 1]')).toBe('A[i+1]');
      expect(codeText('sizeof(unsigned   int)')).toBe('sizeof(unsigned int)');
    });
  });

  describe('rules', () => {
    const url = 'https://example.org/faial-ts/blob/v1/docs/';
    const rules = async (extra: readonly string[]): Promise<NonNullable<Log['runs'][number]['tool']['driver']['rules']>> => {
      const r = await cliResult(['verify', '--sarif', ...extra, file('racy.bcu')]);
      const log = logOf(r.stdout);
      expect(valid(log)).toEqual([]);
      return log.runs[0]!.tool.driver.rules ?? [];
    };

    it('describe every rule the log can use, with help, tags, a default level, and a helpUri into docs/rules.md when given the docs URL', async () => {
      const docs = readFileSync('docs/rules.md', 'utf8');
      const described = await rules(['--sarif-help-url', url]);
      expect(described.map((r) => r.id)).toEqual(RULE_IDS);
      for (const r of described) {
        const anchor = r.id.slice('faial/'.length);
        expect(r.shortDescription?.text.length).toBeGreaterThan(20);
        expect(r.fullDescription?.text.length).toBeGreaterThan(40);
        expect(r.help?.text.length).toBeGreaterThan(40);
        expect(r.help?.markdown).toContain(`(${url}rules.md#${anchor})`);
        expect(r.helpUri).toBe(`${url}rules.md#${anchor}`);
        expect(['error', 'warning', 'note']).toContain(r.defaultConfiguration?.level);
        expect((r.properties?.tags ?? []).length).toBeGreaterThan(0);
        // the section the helpUri names exists, headed by the id without faial/, and names the rule
        expect(docs).toMatch(new RegExp(`^## ${anchor}\\n\\n\`${r.id}\``, 'm'));
      }
    });

    it('have no helpUri without the docs URL, and the docs URL must be absolute', async () => {
      const described = await rules([]);
      expect(described.every((r) => r.helpUri === undefined && (r.help?.text.length ?? 0) > 40)).toBe(true);
      const bad = await cliResult(['verify', '--sarif', '--sarif-help-url', 'docs/', file('racy.bcu')]);
      expect(bad.exitCode).toBe(2);
      expect(bad.stderr).toContain("--sarif-help-url 'docs/' is not an absolute URL");
    });
  });
});
