/**
 * The GitHub Action (action.yml, scripts/action/run.js, src/cli/action.ts),
 * its example workflow, and the pre-commit hook: the script run here as the
 * action runs it, on fixture kernels, with GitHub's files in a temporary
 * folder; the YAML files read as the services read them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import AjvModule from 'ajv-draft-04';
import formatsModule from 'ajv-formats';
import type { Log } from 'sarif';
import { parse } from 'yaml';
import { SUMMARY_REPORT_LIMIT, actionInputsOf, annotations, docsUrlOf, gateOf, summaryMarkdown, verifyArgs, type ActionInputs } from '../../src/cli/action.js';

const run = promisify(execFile);
const Ajv = AjvModule.default;
const addFormats = formatsModule.default;
// as test/report/sarif.test.ts: the schema's `language` pattern is not valid with the u flag
const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
addFormats(ajv);
const validate = ajv.compile(JSON.parse(readFileSync('test/fixtures/sarif-schema-2.1.0.json', 'utf8')) as object);

async function mtime(path: string): Promise<number | null> {
  try {
    return (await stat(path)).mtimeMs;
  } catch {
    return null;
  }
}

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'faial-action-'));
  // the script runs dist/, as the action does after npm ci: rebuilt here when older than its sources
  const built = Math.min(...(await Promise.all(['dist/bundle/cli.cjs', 'dist/cli/action.js'].map(mtime))).map((t) => t ?? 0));
  const sources = await Promise.all(['src/cli/action.ts', 'src/cli/main.ts', 'src/cli/commands.ts', 'src/report/sarif.ts'].map(mtime));
  if (sources.some((s) => s !== null && s > built)) {
    await run('npx', ['tsc', '-p', 'tsconfig.build.json']).catch(() => undefined);
    await run('node', ['scripts/bundle.js']);
  }
}, 300_000);
afterAll(async () => {
  if (dir !== '') await rm(dir, { recursive: true, force: true });
});

interface ActionRun {
  readonly code: number;
  readonly stdout: string;
  readonly summary: string;
  readonly outputs: Record<string, string>;
  readonly sarif: string;
}

let runs = 0;
/** scripts/action/run.js with the action's inputs as action.yml passes them, and GitHub's files. */
async function action(inputs: Record<string, string>): Promise<ActionRun> {
  const n = ++runs;
  const summary = join(dir, `summary-${n}.md`);
  const output = join(dir, `output-${n}.txt`);
  const sarif = join(dir, `out-${n}`, 'faial.sarif');
  await writeFile(summary, '');
  await writeFile(output, '');
  const env = { ...process.env, GITHUB_STEP_SUMMARY: summary, GITHUB_OUTPUT: output, FAIAL_SARIF: sarif, FAIAL_DOCS_URL: 'https://example.org/faial-ts/blob/v1/docs/', ...inputs };
  let code = 0;
  let stdout = '';
  try {
    stdout = (await run('node', ['scripts/action/run.js'], { env, maxBuffer: 64 << 20 })).stdout;
  } catch (e) {
    const failed = e as { code: number; stdout: string };
    code = failed.code;
    stdout = failed.stdout;
  }
  const outputs = Object.fromEntries(
    (await readFile(output, 'utf8'))
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
  return { code, stdout, summary: await readFile(summary, 'utf8'), outputs, sarif };
}

describe('scripts/action/run.js', () => {
  it('fails on a confirmed race by default, writes a valid SARIF log, the summary, the outputs, and annotates when not uploading', async () => {
    const r = await action({ FAIAL_PATHS: 'test/fixtures/action', FAIAL_UPLOAD: 'false' });
    expect(r.code).toBe(1);
    expect(r.outputs).toEqual({ sarif: r.sarif, 'exit-code': '1', result: 'fail' });
    const log = JSON.parse(await readFile(r.sarif, 'utf8')) as Log;
    expect(validate(log) ? [] : validate.errors).toEqual([]);
    const results = log.runs[0]!.results ?? [];
    expect(results.filter((x) => x.ruleId === 'faial/data-race').map((x) => [x.level, x.properties?.['kernel']])).toEqual([['error', 'shift']]);
    expect(log.runs[0]!.tool.driver.rules?.[0]?.helpUri).toBe('https://example.org/faial-ts/blob/v1/docs/rules.md#data-race');
    expect(r.summary).toMatch(/^## faial-ts: failed\n\n1 confirmed alarm\n/);
    expect(r.summary).toContain('| error | `faial/data-race` | 1 |');
    // the text report, both kernels
    expect(r.summary).toMatch(/```text\n[^]*✓ own \(test\/fixtures\/action\/drf\.cu\): DRF[^]*✗ shift \(test\/fixtures\/action\/racy\.cu\): racy[^]*\n```\n/);
    expect(r.stdout).toMatch(/^::error file=test\/fixtures\/action\/racy\.cu,line=5,col=\d+,title=faial\/data-race::Data race on A\[/m);
    expect(r.stdout).toContain('faial-ts: failed: 1 confirmed alarm');
  }, 120_000);

  it('passes with fail-on never, and does not annotate what it uploads', async () => {
    const r = await action({ FAIAL_PATHS: 'test/fixtures/action', FAIAL_FAIL_ON: 'never', FAIAL_UPLOAD: 'true' });
    expect(r.code).toBe(0);
    expect(r.outputs['result']).toBe('pass');
    expect(r.outputs['exit-code']).toBe('1');
    expect(r.summary).toMatch(/^## faial-ts: passed\n\nfail-on: never/);
    expect(r.stdout).not.toContain('::error');
  }, 120_000);

  it('fails on a possible race only with fail-on possible', async () => {
    const paths = 'test/fixtures/action-possible.cu test/fixtures/action/drf.cu';
    const confirmed = await action({ FAIAL_PATHS: paths });
    expect([confirmed.code, confirmed.outputs['result'], confirmed.outputs['exit-code']]).toEqual([0, 'pass', '1']);
    expect(confirmed.summary).toContain('| warning | `faial/data-race` | 1 |');
    const possible = await action({ FAIAL_PATHS: paths, FAIAL_FAIL_ON: 'possible' });
    expect([possible.code, possible.outputs['result']]).toEqual([1, 'fail']);
  }, 120_000);

  it('rejects a wrong input by name, before running anything', async () => {
    const r = await action({ FAIAL_PATHS: 'test/fixtures/action', FAIAL_FAIL_ON: 'sometimes' });
    expect(r.code).toBe(1);
    expect(r.outputs).toEqual({});
  });
});

describe('the action’s decisions', () => {
  const log = (levels: readonly [string, string][]): Log => ({ version: '2.1.0', runs: [{ tool: { driver: { name: 'faial-ts' } }, results: levels.map(([ruleId, level]) => ({ ruleId, level: level as 'error', message: { text: 'm' } })) }] });
  const none = log([]);

  it('gate: each fail-on against each exit code of verify', () => {
    const fails = (failOn: 'confirmed' | 'possible' | 'never', code: number, l: Log | null): boolean => gateOf(failOn, code, l).fail;
    // confirmed: a proved alarm (an error-level race or divergence), bad input, a vacuous kernel
    expect(fails('confirmed', 1, log([['faial/barrier-divergence', 'error']]))).toBe(true);
    expect(fails('confirmed', 1, log([['faial/data-race', 'warning']]))).toBe(false);
    expect(fails('confirmed', 2, log([['faial/input-error', 'error']]))).toBe(true);
    expect(fails('confirmed', 4, log([['faial/vacuous', 'error']]))).toBe(true);
    expect(fails('confirmed', 3, log([['faial/unknown', 'warning']]))).toBe(false);
    expect(fails('confirmed', 0, log([['faial/data-race', 'note']]))).toBe(false);
    // possible: anything not proved
    for (const code of [1, 2, 3, 4]) expect(fails('possible', code, none)).toBe(true);
    expect(fails('possible', 0, log([['faial/redundant-barrier', 'warning']]))).toBe(false);
    // never: only when faial-ts gave no report
    for (const code of [0, 1, 2, 3, 4]) expect(fails('never', code, none)).toBe(false);
    expect(gateOf('never', 2, null)).toEqual({ fail: true, reason: 'faial-ts stopped without a report (exit code 2)' });
    expect(fails('never', 134, none)).toBe(true);
    // exit code 2 only from files without kernels (E0606: a header, host code): judged by the other results
    const kernelLess = (more: readonly [string, string][]): Log => {
      const l = log(more);
      l.runs[0]!.results!.push({ ruleId: 'faial/input-error', level: 'error', message: { text: 'E0606: no __global__ kernel in this file' }, properties: { code: 'E0606' } });
      return l;
    };
    expect(fails('confirmed', 2, kernelLess([]))).toBe(false);
    expect(fails('possible', 2, kernelLess([]))).toBe(false);
    expect(fails('confirmed', 2, kernelLess([['faial/data-race', 'error']]))).toBe(true);
    expect(fails('confirmed', 2, kernelLess([['faial/data-race', 'warning']]))).toBe(false);
    expect(fails('possible', 2, kernelLess([['faial/unknown', 'warning']]))).toBe(true);
    expect(fails('confirmed', 2, kernelLess([['faial/input-error', 'error']]))).toBe(true);
  });

  it('inputs: defaults, lists split on white space, wrong values named', () => {
    expect(actionInputsOf({ FAIAL_PATHS: ' src/a.cu\n  kernels ' })).toEqual({ paths: ['src/a.cu', 'kernels'], compileCommands: null, failOn: 'confirmed', extraArgs: [], sarifPath: 'faial-ts.sarif', upload: true });
    expect(actionInputsOf({ FAIAL_PATHS: 'k', FAIAL_UPLOAD: 'yes' })).toEqual({ error: "upload: 'yes' is neither true nor false" });
    expect(actionInputsOf({})).toEqual({ error: 'give paths (files or directories) or compile-commands' });
    const inputs: ActionInputs = { paths: ['-odd.cu'], compileCommands: 'build/compile_commands.json', failOn: 'never', extraArgs: ['--block-dim', '256'], sarifPath: 'x', upload: false };
    // paths after `--`: a file named like an option stays a file
    expect(verifyArgs(inputs, 'sarif', 'https://h/docs/')).toEqual(['verify', '--sarif', '--sarif-help-url', 'https://h/docs/', '--compile-commands', 'build/compile_commands.json', '--block-dim', '256', '--', '-odd.cu']);
    expect(verifyArgs({ ...inputs, paths: [] }, 'text', null)).toEqual(['verify', '--compile-commands', 'build/compile_commands.json', '--block-dim', '256']);
  });

  it('docs URL: given, the action’s repository at its ref, the workflow’s own repository for uses: ./, or none', () => {
    const github = { GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: 'me/app', GITHUB_SHA: 'abc', GITHUB_WORKSPACE: '/w/app' };
    expect(docsUrlOf({ ...github, FAIAL_DOCS_URL: 'https://d/' }, '/x')).toBe('https://d/');
    expect(docsUrlOf({ ...github, FAIAL_ACTION_REPOSITORY: 'o/faial-ts', FAIAL_ACTION_REF: 'v1' }, '/home/runner/work/_actions/o/faial-ts/v1')).toBe('https://github.com/o/faial-ts/blob/v1/docs/');
    expect(docsUrlOf(github, '/w/app')).toBe('https://github.com/me/app/blob/abc/docs/');
    expect(docsUrlOf(github, '/home/runner/work/_actions/o/faial-ts/v1')).toBeNull();
    expect(docsUrlOf(github, '/w/application')).toBeNull();
  });

  it('summary and annotations escape what the report holds', () => {
    const md = summaryMarkdown({ fail: false, reason: 'r' }, none, 'a ``` fence\n');
    expect(md).toContain('````text\na ``` fence\n````');
    const cut = summaryMarkdown({ fail: false, reason: 'r' }, none, 'x'.repeat(SUMMARY_REPORT_LIMIT + 10));
    expect(cut.length).toBeLessThan(SUMMARY_REPORT_LIMIT + 1000);
    expect(cut).toContain("x\n… (cut here: the whole report is in the step's log)\n```");
    const l: Log = {
      version: '2.1.0',
      runs: [
        {
          tool: { driver: { name: 'faial-ts' } },
          results: [{ ruleId: 'faial/data-race', level: 'warning', message: { text: '50% a,b\nc' }, locations: [{ physicalLocation: { artifactLocation: { uri: 'a%20b/k:1.cu' }, region: { startLine: 3, startColumn: 4 } } }] }],
        },
      ],
    };
    expect(annotations(l, 10)).toEqual(['::warning file=a b/k%3A1.cu,line=3,col=4,title=faial/data-race::50%25 a,b%0Ac']);
  });
});

describe('the workflow and the hook', () => {
  it('action.yml: a composite action with the inputs, the script, the upload, and the gate after it', () => {
    const spec = parse(readFileSync('action.yml', 'utf8')) as { inputs: Record<string, { default?: string }>; runs: { using: string; steps: { id?: string; uses?: string; run?: string; if?: string; env?: Record<string, string> }[] } };
    expect(spec.runs.using).toBe('composite');
    expect(Object.keys(spec.inputs)).toEqual(expect.arrayContaining(['paths', 'compile-commands', 'fail-on', 'args', 'sarif', 'upload']));
    expect(spec.inputs['fail-on']?.default).toBe('confirmed');
    const steps = spec.runs.steps;
    const verify = steps.findIndex((s) => s.id === 'verify');
    expect(steps[verify]?.run).toContain('scripts/action/run.js');
    // every input reaches the script through the environment
    for (const name of ['paths', 'compile-commands', 'fail-on', 'args', 'sarif', 'upload']) expect(Object.values(steps[verify]?.env ?? {})).toContain(`\${{ inputs.${name} }}`);
    const upload = steps.findIndex((s) => s.uses?.startsWith('github/codeql-action/upload-sarif@') === true);
    expect(upload).toBeGreaterThan(verify);
    expect(steps[upload]?.if).toContain("inputs.upload == 'true'");
    expect(steps.findIndex((s) => s.if?.includes("steps.verify.outcome == 'failure'") === true)).toBeGreaterThan(upload);
  });

  it('.github/workflows/example.yml: uses the action on examples/ and uploads with code-scanning permission', () => {
    const flow = parse(readFileSync('.github/workflows/example.yml', 'utf8')) as { permissions: Record<string, string>; jobs: Record<string, { steps: { uses?: string; run?: string; with?: Record<string, string | boolean> }[] }> };
    expect(flow.permissions['security-events']).toBe('write');
    const steps = Object.values(flow.jobs).flatMap((j) => j.steps);
    const uses = steps.filter((s) => s.uses === './');
    expect(uses.length).toBeGreaterThan(0);
    expect(uses.every((s) => s.with?.['upload'] === true)).toBe(true);
    expect(steps.some((s) => s.run?.includes('ls -d examples/*/') === true)).toBe(true);
    expect(uses.some((s) => String(s.with?.['compile-commands']).startsWith('examples/'))).toBe(true);
  });

  it('.pre-commit-hooks.yaml: its entry verifies the files it is given, and it takes .cu, .cuh and .bcu files', async () => {
    const hooks = parse(readFileSync('.pre-commit-hooks.yaml', 'utf8')) as { id: string; entry: string; files: string; language: string }[];
    expect(hooks.map((h) => h.id)).toEqual(['faial-ts']);
    const hook = hooks[0]!;
    expect(hook.language).toBe('node');
    const files = new RegExp(hook.files);
    expect(['k.cu', 'src/k.cuh', 'k.bcu'].every((f) => files.test(f))).toBe(true);
    expect(['k.cpp', 'k.cu.txt', 'k.h'].some((f) => files.test(f))).toBe(false);
    // pre-commit runs the entry with the staged files appended; `faial-ts` is the package's bin
    const [command, ...args] = hook.entry.split(' ');
    expect(command).toBe('faial-ts');
    const entry = async (file: string): Promise<{ code: number; stdout: string }> => {
      try {
        return { code: 0, stdout: (await run('node', ['bin/faial-ts.js', ...args, file])).stdout };
      } catch (e) {
        return e as { code: number; stdout: string };
      }
    };
    const racy = await entry('test/fixtures/action/racy.cu');
    expect(racy.code).toBe(1);
    expect(racy.stdout).toContain('✗ shift (test/fixtures/action/racy.cu): racy');
    expect((await entry('test/fixtures/action/drf.cu')).code).toBe(0);
  }, 120_000);
});
