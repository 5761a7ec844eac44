/** Small kernels written to a temporary directory, and the CLI run in-process on them. */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { isRight } from 'fp-ts/lib/Either.js';
import { VerifyReport } from '../../src/report/json.js';

export { cliResult } from '../../src/cli/main.js';

export const KERNELS: Record<string, string> = {
  'racy.bcu': `kernel racy(N) requires N >= 1 {
  shared A;
  let v = A[tid + 1] in
  A[tid] := v
}
`,
  // DRF (two threads' squares differ) by a proof only a solver finds: neither the simplifier nor the search for a model by evaluation decides it
  'squares.bcu': `kernel squares(M) {
  shared A;
  if (M > 0) {
    A[tid * tid] := 1
  }
}
`,
  'drf.bcu': `kernel drf() {
  shared A;
  A[tid] := 1
}
`,
  'diverge.bcu': `kernel diverge() {
  shared A;
  if (tid < 1) {
    sync
  }
}
`,
  'syntax.bcu': `kernel broken() {
  shared A
  A[0] := 1
}
`,
  'names.bcu': `kernel names() {
  shared A;
  A[y] := 1
}
`,
  'two.bcu': `kernel first(M) {
  shared A;
  A[M] := tid
}
kernel second() {
  shared B;
  B[tid] := 0
}
`,
  'global.bcu': `kernel blocks() {
  global G;
  G[tid] := blockIdx.x
}
`,
  'tree/a.bcu': `kernel a() { shared A; A[tid] := 1 }
`,
  'tree/sub/b.bcu': `kernel b() { shared A; A[0] := tid }
`,
  'tree/notes.txt': `not a kernel
`,
};

export async function kernelDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'faial-cli-'));
  for (const [name, text] of Object.entries(KERNELS)) {
    await mkdir(dirname(join(dir, name)), { recursive: true });
    await writeFile(join(dir, name), text);
  }
  return dir;
}

export async function removeDir(dir: string): Promise<void> {
  if (dir !== '') await rm(dir, { recursive: true, force: true });
}

/** Any ANSI escape (CSI). */
export const ANSI = /\u001b\[/;

/** The CLI's JSON output, decoded with the report's codec (which is the point: it must match). */
export function decoded(stdout: string): VerifyReport {
  const result = VerifyReport.decode(JSON.parse(stdout));
  if (!isRight(result)) throw new Error(`the JSON report does not match its codec: ${stdout}`);
  return result.right;
}
