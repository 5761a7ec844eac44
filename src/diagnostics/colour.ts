/**
 * Whether and how output is coloured. Apart from the printer (render.ts) so
 * that the command line decides colour without loading code frames.
 */
import pc from 'picocolors';

export type Colors = ReturnType<typeof pc.createColors>;

export function colorsOf(colour: boolean): Colors {
  return pc.createColors(colour);
}

/** Colour only for a terminal, and never when the user opted out (https://no-color.org). */
export function colourWanted(stream: { readonly isTTY?: boolean }, env: Readonly<Record<string, string | undefined>>): boolean {
  const noColor = env['NO_COLOR'];
  return stream.isTTY === true && (noColor === undefined || noColor === '');
}
