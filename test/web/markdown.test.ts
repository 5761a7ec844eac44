/** The playground's report as Markdown (web/markdown.ts), in Node: from hand-made views, and from a real verification's. */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { verifyFile } from '../../src/api/verify.js';
import { NO_LAUNCH } from '../../src/core/launch.js';
import { z3Wasm } from '../../src/solve/z3.js';
import { codeSpan, escaped, reportMarkdown, type MarkdownReport } from '../../web/markdown.js';
import type { AlarmView, KernelView } from '../../web/protocol.js';
import { kernelView } from '../../web/views.js';

const TEXT = 'kernel k(N) {\n  shared A;\n  A[tid] := 1;\n  let v = A[0] in\n  skip\n}\n';

const ALARM: AlarmView = {
  kind: 'race',
  title: 'data race on A[0] (read-write, within a block, phase 0)',
  label: 'possible',
  reason: 'the index uses a_b* values',
  marks: [
    { start: TEXT.indexOf('A[tid]'), end: TEXT.indexOf('A[tid]') + 6, label: 'write (thread 1)', thread: 1 },
    { start: TEXT.indexOf('A[0]'), end: TEXT.indexOf('A[0]') + 4, label: 'read (thread 2)', thread: 2 },
  ],
  witness: { caption: 'witness', launch: 'N = 1; blockDim = 2', heads: ['thread 1', 'thread 2'], rows: [['threadIdx', '0', '1'], ['x|y', 'a|b', '2']], names: ['x|y is a name of the lowered program'] },
  solverWitness: null,
  replay: null,
  text: 'the alarm\n```\nwith a fence in it',
};

const KERNEL: KernelView = {
  name: 'k',
  span: { start: 0, end: TEXT.length },
  status: 'racy',
  headline: '✗ k (k.bcu): racy — 1 data race found',
  wellTyped: 'well-typed: no — data-dependent values',
  execution: 'execution: independent threads',
  alarms: [ALARM],
  unknowns: ['query 2: timeout'],
  errors: [],
  text: 'the kernel block\n```\nfenced\n````\n',
};

const REPORT: MarkdownReport = {
  path: 'k.bcu',
  text: TEXT,
  summary: '1 kernel: 1 racy',
  kernels: [KERNEL],
  notices: [],
  internal: [],
  version: '0.1.0',
  command: 'npx faial-ts verify --replay --timeout 10000 k.bcu',
  link: 'https://example.org/play/#file=k.bcu&code=a(b)',
};

describe('the report as Markdown', () => {
  it('gives the summary, the verdict, each alarm with where its accesses are, the witness as a table, and how to reproduce it', () => {
    expect(reportMarkdown(REPORT)).toBe(
      [
        '### faial-ts: `k.bcu`',
        '',
        '**1 kernel: 1 racy**',
        '',
        '#### ✗ k (k.bcu): racy — 1 data race found',
        '',
        '- well-typed: no — data-dependent values',
        '- execution: independent threads',
        '',
        '**possible**: data race on A\\[0\\] (read-write, within a block, phase 0); write (thread 1) at line 3, read (thread 2) at line 4',
        '',
        'why only possible: the index uses a\\_b\\* values',
        '',
        'witness: N = 1; blockDim = 2',
        '',
        '| | thread 1 | thread 2 |',
        '| --- | --- | --- |',
        '| `threadIdx` | 0 | 1 |',
        '| `x\\|y` | a\\|b | 2 |',
        '',
        '- x\\|y is a name of the lowered program',
        '',
        'Not proved (queries without an answer):',
        '',
        '- query 2: timeout',
        '',
        '<details><summary>text report</summary>',
        '',
        '`````text',
        'the kernel block',
        '```',
        'fenced',
        '````',
        '`````',
        '',
        '</details>',
        '',
        'faial-ts 0.1.0 · `npx faial-ts verify --replay --timeout 10000 k.bcu` · [open in the playground](https://example.org/play/#file=k.bcu&code=a%28b%29)',
        '',
      ].join('\n'),
    );
  });

  it('escapes what Markdown would read as markup, and quotes code whatever backticks it holds', () => {
    expect(escaped('a*b_c [d](e) <f> | #1 `g`\nh')).toBe('a\\*b\\_c \\[d\\](e) \\<f\\> \\| \\#1 \\`g\\` h');
    expect(codeSpan('x')).toBe('`x`');
    expect(codeSpan('a `b` c')).toBe('``a `b` c``');
    expect(codeSpan('`b`')).toBe('`` `b` ``');
  });

  it('makes a real verification of Figure 3 into a table per alarm, its lines counted in the text', async () => {
    const text = await readFile('examples/paper/figure3.bcu', 'utf8');
    const file = (await verifyFile('figure3.bcu', text, { kernel: null, launch: NO_LAUNCH, timeoutMs: 10_000, maxRaces: 20, barriers: false, replay: true }, z3Wasm)).file;
    if (!file.ok) throw new Error('figure3.bcu is rejected');
    const md = reportMarkdown({ ...REPORT, path: 'figure3.bcu', text, summary: '1 kernel: 1 racy', kernels: file.kernels.map((k) => kernelView(k, null, 'figure3.bcu')), link: null });
    expect(md).toContain('**confirmed**: data race on A\\[0\\] (read-write, within a block, phase 0); read (thread 1) at line 11, write (thread 2) at line 12');
    expect(md).toContain('**confirmed**: data race on A\\[0\\] (write-write, within a block, phase 0); write (both threads) at line 12');
    expect(md.match(/^\| `threadIdx` \| 0 \| 1 \|$/gm)).toHaveLength(2);
    expect(md).toContain('replayed: the interpreter reproduces it');
    expect(md).not.toContain('open in the playground');
  });
});
