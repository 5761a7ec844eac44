/**
 * Text from the command line or a file, escaped before the CLI echoes it in
 * a message: a control character (an ANSI escape, a line break) would act on
 * the terminal or split the message instead of being read.
 */
export function escapedText(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\\]/g, (c) => {
    if (c === '\\') return '\\\\';
    const named: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
    return named[c] ?? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`;
  });
}
