/**
 * The layering rule of the code style: Node APIs (fs, child_process, path,
 * crypto, the `process` object…) only in src/cli/ and the solver back ends
 * that start processes, so that everything else (front ends to reports, the
 * api) runs in a browser too. The test reads every source file's imports.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative } from 'node:path';

const ALLOWED = [/^src\/cli\//, /^src\/solve\/(process|z3-binary|cvc5|command|members|wasm-process|wasm-worker)\.ts$/];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    return e.isDirectory() ? sources(p) : e.name.endsWith('.ts') ? [p] : [];
  });
}

/** The text without comments, so that prose ("in one process.") is not read as code. */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

const BUILTIN = new Set(builtinModules);

function isNodeModule(specifier: string): boolean {
  return specifier.startsWith('node:') || BUILTIN.has(specifier);
}

/** `import … from 'x'`, `export … from 'x'`, `import 'x'`, `import('x')`, `require('x')`. */
function importedModules(text: string): string[] {
  const patterns = [/\bfrom\s*['"]([^'"]+)['"]/g, /\bimport\s*['"]([^'"]+)['"]/g, /\b(?:import|require)\s*\(\s*['"]([^'"]+)['"]\s*\)/g];
  return patterns.flatMap((p) => [...text.matchAll(p)].map((m) => m[1]!));
}

/** Node's globals, which a browser lacks (types from @types/node count: they only compile beside Node). */
const NODE_GLOBALS = /\b(process\s*\.|Buffer\b|__dirname\b|__filename\b|NodeJS\.)/;

function violations(path: string, text: string): string[] {
  const body = code(text);
  const imports = importedModules(body).filter(isNodeModule).map((m) => `${path} imports ${m}`);
  const globals = body
    .split('\n')
    .flatMap((line, i) => (NODE_GLOBALS.test(line) ? [`${path}:${i + 1} uses a Node global: ${line.trim()}`] : []));
  return [...imports, ...globals];
}

describe('Node APIs', () => {
  it('are used only in src/cli/ and the solver back ends that start processes', () => {
    const root = new URL('../..', import.meta.url).pathname;
    const found = sources(join(root, 'src'))
      .map((p) => relative(root, p))
      .filter((p) => !ALLOWED.some((re) => re.test(p)))
      .flatMap((p) => violations(p, readFileSync(join(root, p), 'utf8')));
    expect(found).toEqual([]);
  });

  it('are found by the scan in every form of import, and in globals, but not in comments', () => {
    const text = [
      "import { readFileSync } from 'node:fs';",
      "import * as path from 'path';",
      "export { spawn } from 'child_process';",
      "import 'fs/promises';",
      "const os = await import('os');",
      "const env = process.env['X'];",
      "import { x } from './local.js'; // from 'node:fs' in a comment",
      '/* the process. Buffer */',
      "import ohm from 'ohm-js';",
    ].join('\n');
    expect(violations('f.ts', text)).toEqual([
      'f.ts imports node:fs',
      'f.ts imports path',
      'f.ts imports child_process',
      'f.ts imports fs/promises',
      'f.ts imports os',
      'f.ts:6 uses a Node global: const env = process.env[\'X\'];',
    ]);
  });
});
