/**
 * File paths as URIs, for reports read on other machines (SARIF). Pure
 * string functions, the same in Node and in a browser and whatever system
 * made the path: `/` and `\` both separate directories, so Windows paths
 * (`C:\src\k.bcu`, `\\server\share\k.bcu`) and POSIX ones are read alike
 * (a POSIX file name with a backslash in it is read as two names).
 */
const DRIVE = /^[A-Za-z]:[\\/]/;
// `//a` is `/a` on POSIX systems, so only backslashes open a UNC path
const UNC = /^\\\\[^\\/]/;

export function isAbsolutePath(path: string): boolean {
  return path.startsWith('/') || path.startsWith('\\') || DRIVE.test(path);
}

function segments(path: string): string[] {
  return path.split(/[\\/]/);
}

function encoded(names: readonly string[]): string {
  return names.map(encodeURIComponent).join('/');
}

/** The names of an absolute path below its root, with `.`, `..` and empty names resolved as the file system does. */
function resolved(names: readonly string[]): string[] {
  const out: string[] = [];
  for (const n of names) {
    if (n === '..') out.pop();
    else if (n !== '.' && n !== '') out.push(n);
  }
  return out;
}

/** The `file:` URI of an absolute path: `file:///home/a/k.bcu`, `file:///C:/src/k.bcu`, `file://server/share/k.bcu`. */
export function fileUri(path: string): string {
  if (UNC.test(path)) {
    const [host, ...rest] = segments(path.slice(2));
    return `file://${encodeURIComponent(host!)}/${encoded(resolved(rest))}`;
  }
  if (DRIVE.test(path)) return `file:///${path.slice(0, 2)}/${encoded(resolved(segments(path.slice(3))))}`;
  return `file:///${encoded(resolved(segments(path)))}`;
}

/** A relative path as a relative URI reference: each name percent-encoded, joined by `/`. */
export function relativeUri(path: string): string {
  return encoded(segments(path));
}
