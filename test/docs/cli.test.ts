/** docs/cli.md is what `npm run docs:cli` writes from the command definitions: the reference cannot drift from the CLI. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cliDefinition } from '../../src/cli/main.js';
import { cliReference } from '../../scripts/docs/cli-reference.js';

const committed = readFileSync(new URL('../../docs/cli.md', import.meta.url), 'utf8');
const generated = cliReference(cliDefinition());

describe('docs/cli.md', () => {
  it('is the generated reference (run `npm run docs:cli` after changing a command)', () => {
    expect(committed).toBe(generated);
  });

  it('lists every command and every option of each', () => {
    const all = (c: ReturnType<typeof cliDefinition>): ReturnType<typeof cliDefinition>[] => c.commands.flatMap((s) => [s, ...all(s)]);
    const commands = all(cliDefinition());
    expect(commands.map((c) => c.name())).toEqual(expect.arrayContaining(['verify', 'infer', 'lower', 'smt', 'fix', 'run', 'experiment', 'merge', 'gen']));
    for (const c of commands) for (const o of c.options) expect(generated).toContain(`| \`${o.flags.replace(/\|/g, '\\|')}\` |`);
  });

  it("states each command's exit codes", () => {
    for (const c of ['verify', 'infer', 'lower', 'smt', 'fix', 'run', 'experiment', 'experiment merge', 'gen']) {
      const section = generated.split(`## faial-ts ${c}\n`)[1]!.split('\n## ')[0]!;
      expect(section, c).toMatch(/Exit codes?/);
    }
  });
});
