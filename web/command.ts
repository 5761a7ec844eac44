/**
 * The command line that verifies what the page verifies: the file (saved
 * under the page's name), `--replay` as the page asks, and the options as
 * the CLI spells them.
 */
import { DEFAULT_OPTIONS } from './permalink.js';
import { paramItems, type OptionsText } from './protocol.js';

/** A word for a POSIX shell: as is when it is safe, else in single quotes. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

export function commandLine(path: string, o: OptionsText): string {
  const words = ['npx', 'faial-ts', 'verify'];
  if (o.replay) words.push('--replay');
  for (const p of paramItems(o.params)) words.push('-p', p.replace(/\s+/g, ''));
  if (o.blockDim.trim() !== '') words.push('--block-dim', o.blockDim.trim());
  if (o.gridDim.trim() !== '') words.push('--grid-dim', o.gridDim.trim());
  // the page's timeout is not the CLI's default (a longer safety net): always given
  words.push('--timeout', o.timeout.trim());
  if (o.maxRaces.trim() !== DEFAULT_OPTIONS.maxRaces) words.push('--max-races', o.maxRaces.trim());
  // the page's warp size means lockstep, which the CLI allows only before sm_70
  if (o.warpSize.trim() !== '') words.push('--arch', 'sm_60', '--warp-size', o.warpSize.trim());
  words.push(path);
  return words.map(shellWord).join(' ');
}
