/**
 * `faial-ts smt FILE --out DIR`: every solver query of every kernel as its
 * own standalone SMT-LIB 2 file (fragment comment, logic, declarations,
 * assertions, check-sat, get-value), named kernel.phaseN.ARRAY.PAIR.smt2,
 * kernel.grid.ARRAY.PAIR.smt2 (PAIR: the two accesses' line.column, as
 * 11.13-12.5), kernel.syncN.smt2 and kernel.completesN.smt2 for
 * the loop checks of the phase split, so that an artefact can ship them and
 * any solver can run them.
 */
import { type Launch, launchFor } from '../core/launch.js';
import { join } from 'node:path';
import { EncodingLimit } from '../encode/smtlib.js';
import type { KernelMap } from '../map/map.js';
import { standaloneScript } from '../solve/script.js';
import { z3Wasm } from '../solve/z3.js';
import { queryScripts } from '../verify/scripts.js';
import { DEFAULT_TIMEOUT_MS } from '../verify/verify.js';
import { outputDirectory, writtenWhole } from './output.js';

export interface Written {
  readonly files: readonly string[];
  /** kernels whose queries could not be encoded, with why */
  readonly skipped: readonly string[];
}

export async function writtenQueryFiles(maps: readonly KernelMap[], launch: Launch, dir: string): Promise<Written> {
  await outputDirectory(dir, '--out');
  const files: string[] = [];
  const skipped: string[] = [];
  for (const map of maps) {
    let scripts;
    try {
      scripts = await queryScripts(map, launchFor(map.params, launch), DEFAULT_TIMEOUT_MS, z3Wasm);
    } catch (e) {
      if (!(e instanceof EncodingLimit)) throw e;
      skipped.push(`kernel ${map.name}: queries not written: ${e.message}`);
      continue;
    }
    for (const s of scripts) {
      const path = join(dir, `${s.name}.smt2`);
      await writtenWhole(path, `; query ${s.name}\n${standaloneScript(s.script)}\n`);
      files.push(path);
    }
  }
  return { files, skipped };
}
