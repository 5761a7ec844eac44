/**
 * Some tests run programs from Debian packages (the z3 and cvc5 solvers,
 * patch). CI installs them (.ci/run) and must run those tests, so under CI
 * they always run and fail if a program is missing; on a developer's machine
 * without them they are skipped, and the run says which programs to install.
 */
import { execFileSync } from 'node:child_process';

function installed(name: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export function hasPrograms(...names: string[]): boolean {
  const missing = names.filter((n) => !installed(n));
  if (missing.length === 0 || process.env['CI']) return true;
  console.warn(`skipping tests that need ${missing.join(', ')}: apt-get install ${missing.join(' ')}`);
  return false;
}
