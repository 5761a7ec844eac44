/**
 * The CUDA front end: a .cu file's text → core program, with the kernels it
 * rejects and the notices about what it read and did not model. Parsing
 * needs the grammar, loaded once (parse.ts); the rest is synchronous.
 */
import { sourceFile } from '../../core/source.js';
import { parseCuda, type CudaGrammar } from './parse.js';
import { lowerUnit, type LoweredUnit } from './unit.js';

export type { LoweredUnit, RejectedKernel } from './unit.js';

export function lowerCuda(grammar: CudaGrammar, path: string, text: string): LoweredUnit {
  const file = sourceFile(path, text);
  const tree = parseCuda(grammar, text);
  try {
    return lowerUnit(file, tree);
  } finally {
    tree.delete();
  }
}
