/**
 * Where a worker's entry module is: beside the module whose URL is given,
 * as an ES module of dist/ or of dist/bundle/ (the bundle, cli.cjs, runs
 * with that URL for each of its modules), or as TypeScript run through tsx
 * when the caller runs from the sources (tests). The CLI's process pool, the
 * language server's threads and the z3-wasm process all find theirs so.
 */
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface WorkerEntry {
  readonly path: string;
  /** run from the sources: the module is TypeScript, and a worker needs tsx's loader */
  readonly fromSources: boolean;
  /** what a child process needs to run it */
  readonly execArgv: string[];
}

export function workerEntryBeside(moduleUrl: string, name: string): WorkerEntry {
  const here = fileURLToPath(moduleUrl);
  const fromSources = extname(here) === '.ts';
  return { path: join(dirname(here), `${name}${fromSources ? '.ts' : '.js'}`), fromSources, execArgv: fromSources ? ['--import', 'tsx'] : [] };
}
