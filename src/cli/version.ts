/** The package's version, from its package.json (two folders up, from src/cli and from dist/cli alike). */
import { readFileSync } from 'node:fs';

export function version(): string {
  try {
    const pkg: unknown = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    if (typeof pkg === 'object' && pkg !== null && 'version' in pkg && typeof pkg.version === 'string') return pkg.version;
  } catch {
    // a missing package.json must not break --version
  }
  return 'unknown';
}
