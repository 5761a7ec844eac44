/**
 * vitest globalSetup: the tests run the TypeScript sources, which import the
 * grammar's generated bundle (`npm run grammar`, run by `npm ci` and `npm run
 * build`). After an edit of the .ohm file without a build the bundle would be
 * stale and the tests would check the old grammar, so it is made again here
 * when it is missing or older than its grammar.
 */
import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';

function mtime(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return -Infinity;
  }
}

export default function setup(): void {
  const grammar = new URL('../../grammar/babycuda.ohm', import.meta.url).pathname;
  if (mtime(grammar.replace(/\.ohm$/, '.ohm-bundle.js')) >= mtime(grammar)) return;
  execFileSync('npm', ['run', '--silent', 'grammar'], { cwd: new URL('../..', import.meta.url).pathname, stdio: 'inherit' });
}
