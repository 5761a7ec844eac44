/**
 * '/'-separated path helpers for include resolution. The preprocessor runs in
 * browsers too, so it cannot use Node's `path`; files are named by the strings
 * the caller's `readFile` understands, and two spellings of one file are the
 * same file exactly when these helpers normalise them to the same string.
 */

/** `a/b/../c/./d` → `a/c/d`; a leading `/` is kept, leading `..` of a relative path too. */
export function normalisePath(path: string): string {
  const absolute = path.startsWith('/');
  const out: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length > 0 && out[out.length - 1] !== '..') out.pop();
      else if (!absolute) out.push('..');
      continue;
    }
    out.push(part);
  }
  const body = out.join('/');
  return absolute ? `/${body}` : body === '' ? '.' : body;
}

/** The directory part of a path: `a/b/k.cu` → `a/b`, `k.cu` → `.`, `/k.cu` → `/`. */
export function dirname(path: string): string {
  const normal = normalisePath(path);
  const slash = normal.lastIndexOf('/');
  if (slash < 0) return '.';
  return slash === 0 ? '/' : normal.slice(0, slash);
}

/** `dir` joined with `name`; an absolute `name` stands alone. The result is normalised. */
export function joinPath(dir: string, name: string): string {
  if (name.startsWith('/')) return normalisePath(name);
  return normalisePath(dir === '' || dir === '.' ? name : `${dir}/${name}`);
}
