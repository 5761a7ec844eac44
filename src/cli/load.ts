/**
 * Loads the command line's bundle (dist/bundle/cli.cjs, built by
 * scripts/bundle.js) with V8's code cache (cli.cjs.cache next to it).
 *
 * Compiling the bundle was about a third of a small kernel's run beyond
 * Node's own start-up: V8 parses the whole file, then compiles each function
 * the first time it runs. The build runs the command line once on a few
 * small kernels and keeps the bytecode V8 made (scripts/code-cache.js), so a
 * run deserialises it instead. V8 takes the cache only for the same V8
 * version, flags and source, and otherwise compiles as if there were none:
 * an old or foreign cache costs time, never correctness. Only a classic
 * script takes a cache in Node 20 (an ES module does not), hence one
 * CommonJS bundle run in a function wrapper, as Node runs a CommonJS module.
 *
 * The build makes this module twice: dist/bundle/load.cjs, which
 * bin/faial-ts.js requires (a CommonJS entry spares Node its ES module
 * loader), and dist/bundle/load.js, which scripts/code-cache.js and the tests
 * import.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Script } from 'node:vm';

export type CommandLine = typeof import('./main.js');

export interface LoadedCommandLine {
  readonly cli: CommandLine;
  /** the script, whose createCachedData() the build keeps */
  readonly script: Script;
  /** whether V8 refused the cache; undefined when there was none to offer */
  readonly cacheRejected: boolean | undefined;
}

/** The bundle and its cache, next to this module in dist/bundle/. */
export function bundlePaths(): { readonly bundle: string; readonly cache: string } {
  const bundle = join(dirname(fileURLToPath(import.meta.url)), 'cli.cjs');
  return { bundle, cache: `${bundle}.cache` };
}

/** The command line, compiled with the cache unless `withCache` is false (the build's own run, which makes it). */
export function loadCommandLine(withCache = true): LoadedCommandLine {
  const { bundle, cache } = bundlePaths();
  const source = readFileSync(bundle, 'latin1'); // ASCII (scripts/bundle.js), read the fastest way
  const cachedData = withCache ? cacheBytes(cache) : undefined;
  // `__faialUrl` stands for the bundle's import.meta.url (esbuild's define)
  const script = new Script(`(function (exports, require, module, __filename, __dirname, __faialUrl) {${source}\n})`, {
    filename: bundle,
    ...(cachedData === undefined ? {} : { cachedData }),
  });
  const module = { exports: {} as CommandLine };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run(module.exports, createRequire(bundle), module, bundle, dirname(bundle), pathToFileURL(bundle).href);
  return { cli: module.exports, script, cacheRejected: cachedData === undefined ? undefined : script.cachedDataRejected === true };
}

function cacheBytes(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch {
    return undefined; // not built (a build without it still runs, compiling the bundle)
  }
}
