/**
 * The documentation holds together: every relative link and anchor in
 * README.md, docs/*.md and the other READMEs resolves, every command line in a ```sh runnable
 * fence exits with the code written after it (`# exit N`), and CI still runs
 * the README's test command.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliResult } from '../../src/cli/main.js';

const ROOT = resolve(import.meta.dirname, '../..');
const DOCS = [
  join(ROOT, 'README.md'),
  ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => join(ROOT, 'docs', f)),
  // the other Markdown files of the repository, which the docs link to
  ...['examples/cuda/README.md', 'proofs/README.md', 'test/fixtures/README.md'].map((f) => join(ROOT, f)),
];

/** Links that leave the repository on purpose: the BabyCUDA contract beside the checkout (relative to the root). */
const OUTSIDE = new Set(['../shared/spec/babycuda.md']);

interface Link {
  readonly file: string;
  readonly line: number;
  readonly target: string;
}

/** The text without fenced code blocks and code spans (their brackets are not links), line numbers kept. */
function prose(text: string): string {
  let inFence = false;
  return text
    .split('\n')
    .map((line) => {
      if (/^\s*```/.test(line)) {
        inFence = !inFence;
        return '';
      }
      return inFence ? '' : line.replace(/`[^`]*`/g, '``');
    })
    .join('\n');
}

export function linksOf(file: string, text: string): Link[] {
  const links: Link[] = [];
  prose(text)
    .split('\n')
    .forEach((line, i) => {
      for (const m of line.matchAll(/\]\(([^()\s]+)\)/g)) links.push({ file, line: i + 1, target: m[1]! });
    });
  return links;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
export function slugOf(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/ /g, '-');
}

function anchorsOf(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  let inFence = false;
  for (const line of text.split('\n')) {
    if (/^\s*```/.test(line)) inFence = !inFence;
    const m = inFence ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (m === null) continue;
    const base = slugOf(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** Why the link does not resolve, or null. */
function brokenBecause(link: Link): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(link.target)) return null; // https:, mailto:: not checked here
  const [path, anchor] = link.target.split('#', 2) as [string, string | undefined];
  const target = path === '' ? link.file : resolve(dirname(link.file), decodeURIComponent(path));
  const fromRoot = relative(ROOT, target);
  if (fromRoot.startsWith('..')) return OUTSIDE.has(fromRoot) ? null : `leaves the repository (${fromRoot})`;
  if (!existsSync(target)) return `no file ${fromRoot}`;
  if (anchor === undefined) return null;
  if (!target.endsWith('.md')) return `an anchor into ${fromRoot}, which is not Markdown`;
  return anchorsOf(readFileSync(target, 'utf8')).has(anchor) ? null : `no heading #${anchor} in ${fromRoot}`;
}

interface Runnable {
  readonly file: string;
  readonly line: number;
  readonly command: string;
}

/** The lines of ```sh runnable fences. */
function runnablesOf(file: string, text: string): Runnable[] {
  const found: Runnable[] = [];
  let runnable = false;
  let inFence = false;
  text.split('\n').forEach((line, i) => {
    if (/^\s*```/.test(line)) {
      runnable = !inFence && /^\s*```sh runnable\s*$/.test(line);
      inFence = !inFence;
      return;
    }
    if (runnable && line.trim() !== '') found.push({ file, line: i + 1, command: line.trim() });
  });
  return found;
}

const ALL_LINKS = DOCS.flatMap((f) => linksOf(f, readFileSync(f, 'utf8')));
const RUNNABLE = DOCS.flatMap((f) => runnablesOf(f, readFileSync(f, 'utf8')));
const where = (x: { file: string; line: number }): string => `${relative(ROOT, x.file)}:${x.line}`;

describe('documentation links', () => {
  it('finds the links (README.md and docs/ link each other)', () => {
    expect(ALL_LINKS.length).toBeGreaterThan(50);
    expect(ALL_LINKS.some((l) => l.file.endsWith('README.md') && l.target.startsWith('docs/'))).toBe(true);
  });

  it('every relative link and anchor resolves', () => {
    const broken = ALL_LINKS.flatMap((l) => {
      const why = brokenBecause(l);
      return why === null ? [] : [`${where(l)}: (${l.target}) ${why}`];
    });
    expect(broken).toEqual([]);
  });

  it('a wrong anchor or file is caught', () => {
    const readme = join(ROOT, 'README.md');
    expect(brokenBecause({ file: readme, line: 1, target: 'docs/cli.md#no-such-heading' })).toMatch(/no heading/);
    expect(brokenBecause({ file: readme, line: 1, target: 'docs/no-such-file.md' })).toMatch(/no file/);
    expect(brokenBecause({ file: readme, line: 1, target: '../../etc/passwd' })).toMatch(/leaves the repository/);
    expect(brokenBecause({ file: readme, line: 1, target: 'docs/cli.md#faial-ts-verify' })).toBeNull();
  });

  it("slugs are GitHub's", () => {
    expect(slugOf('A project: compile_commands.json')).toBe('a-project-compile_commandsjson');
    expect(slugOf('Repairing kernels: `fix` and redundant barriers')).toBe('repairing-kernels-fix-and-redundant-barriers');
  });
});

describe('runnable command lines', () => {
  it('finds them', () => {
    expect(RUNNABLE.length).toBeGreaterThanOrEqual(5);
  });

  it.each(RUNNABLE.map((r) => [where(r), r] as const))('%s exits with its documented code', async (_, r) => {
    const m = /^\.\/bin\/faial-ts\.js\s+([^#'"`|;&<>$\\]+?)\s+#\s*exit\s+(\d+)\b/.exec(r.command);
    expect(m, `${where(r)}: a runnable line is './bin/faial-ts.js ARGS  # exit N', without quotes or shell syntax`).not.toBeNull();
    const result = await cliResult(m![1]!.split(/\s+/));
    expect({ exitCode: result.exitCode, stderr: result.exitCode === Number(m![2]) ? '' : result.stderr }).toEqual({ exitCode: Number(m![2]), stderr: '' });
  });
});

describe('the test command', () => {
  it('CI runs the README\'s test command', () => {
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).toContain('```sh\nnpm test\n```');
    expect(readFileSync(join(ROOT, '.ci/run'), 'utf8')).toMatch(/^npm test\b/m);
  });
});
