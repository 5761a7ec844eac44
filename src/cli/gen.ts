/**
 * `faial-ts gen FAMILY --size N [--racy] [-o FILE]`: print (or write) a
 * kernel of one of the synthetic families of the scalability experiment;
 * `gen --list` names the families.
 */
import { writeFile } from 'node:fs/promises';
import { FAMILIES, familyDescription, generatedKernel, isFamily, racyDefect } from '../gen/families.js';
import type { CliIO } from './main.js';
import { EXIT_DRF } from './exit.js';
import { UsageError, naturalOf } from './options.js';

export interface GenFlags {
  size?: string;
  racy?: boolean;
  list?: boolean;
  output?: string;
}

// the descriptions in one column, after the longest name
const familyList = (): string => {
  const width = Math.max(...FAMILIES.map((f) => f.length));
  return FAMILIES.map((f) => `${f.padEnd(width)} ${familyDescription(f)}; racy: ${racyDefect(f)}`).join('\n');
};

export async function genCommand(family: string | undefined, flags: GenFlags, io: CliIO): Promise<number> {
  if (flags.list) {
    io.out(`${familyList()}\n`);
    return EXIT_DRF;
  }
  const hint = `the families are: ${FAMILIES.join(', ')} (gen --list describes them)`;
  if (family === undefined) throw new UsageError('gen: which family? name one', [hint]);
  if (!isFamily(family)) throw new UsageError(`gen: no family named '${family}'`, [hint]);
  if (flags.size === undefined) throw new UsageError('gen: --size N is required', ['N is the number of accesses, barriers, conditionals or loops, at least 1']);
  const size = naturalOf(flags.size, '--size', 1);
  const { source } = generatedKernel(family, size, flags.racy === true);
  if (flags.output === undefined) {
    io.out(source);
    return EXIT_DRF;
  }
  try {
    await writeFile(flags.output, source);
  } catch (e) {
    throw new UsageError(`cannot write ${flags.output}: ${e instanceof Error ? e.message : String(e)}`);
  }
  io.out(`${flags.output}\n`);
  return EXIT_DRF;
}
