#!/usr/bin/env node
// Writes the large inputs that time the parser from outside, as whole
// `faial-ts verify` processes: a kernel after a block comment of 100 KB, 1 MB
// and 10 MB, and kernels of about 100 KB and 1 MB of dense code (the most the
// parser takes is 1 MiB of code), each followed by a stray `}`: the syntax
// error at its end makes verify parse all of it and stop there, so the time
// is the front end's (and the process's start-up), not the solver's.
// Usage: node bench/large-inputs.js DIR
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2];
if (dir === undefined) {
  console.error('usage: node bench/large-inputs.js DIR');
  process.exit(2);
}
mkdirSync(dir, { recursive: true });

const kernel = 'kernel k() {\n  shared A;\n  A[tid] := 1\n}\n';
const comment = (bytes) => `/*${'x'.repeat(bytes - 4)}*/\n${kernel}`;
// one statement per line, each writing its own element: DRF, one phase
const code = (bytes) => {
  const lines = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const line = `  A[tid * 100000 + ${i}] := ${i};`;
    lines.push(line);
    size += line.length - 2 + 1; // indentation and the line break collapse into one space
  }
  return `kernel k() {\n  shared A;\n${lines.join('\n')}\n  skip\n}\n}\n`;
};

const files = {
  'comment-100k.bcu': comment(100_000),
  'comment-1m.bcu': comment(1_000_000),
  'comment-10m.bcu': comment(10_000_000),
  'code-100k.bcu': code(100_000),
  'code-1m.bcu': code(1_000_000),
};
for (const [name, text] of Object.entries(files)) {
  writeFileSync(join(dir, name), text);
  console.log(join(dir, name));
}
