/**
 * A unified diff of two texts (the `diff -u` format that `patch` and
 * `git apply` read), from a longest common subsequence of their lines.
 * Kernel files are small, so the quadratic table is fine.
 */

type Edit = { readonly kind: ' ' | '-' | '+'; readonly line: string };

function linesOf(text: string): string[] {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function editsOf(a: readonly string[], b: readonly string[]): Edit[] {
  const n = a.length;
  const m = b.length;
  // lcs[i][j]: length of an LCS of a[i..] and b[j..]
  const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  }
  const out: Edit[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      out.push({ kind: ' ', line: a[i]! });
      i++;
      j++;
    } else if (i < n && (j === m || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) {
      // a deletion before an insertion, as diff prints a changed line
      out.push({ kind: '-', line: a[i]! });
      i++;
    } else {
      out.push({ kind: '+', line: b[j]! });
      j++;
    }
  }
  return out;
}

/** `@@ -1,3 +1,4 @@`: a hunk of no lines starts at the line before it. */
function rangeText(start: number, count: number): string {
  return `${count === 0 ? start - 1 : start},${count}`;
}

/** Empty when the texts are equal. */
export function unifiedDiff(before: string, after: string, beforeName: string, afterName: string, context = 3): string {
  if (before === after) return '';
  const edits = editsOf(linesOf(before), linesOf(after));
  const changed = edits.flatMap((e, k) => (e.kind === ' ' ? [] : [k]));
  // hunks: runs of changes less than 2*context+1 unchanged lines apart, with their context
  const hunks: [number, number][] = [];
  for (const k of changed) {
    const last = hunks[hunks.length - 1];
    if (last !== undefined && k - last[1] <= 2 * context + 1) last[1] = k;
    else hunks.push([k, k]);
  }
  const out = [`--- ${beforeName}`, `+++ ${afterName}`];
  for (const [first, last] of hunks) {
    const from = Math.max(0, first - context);
    const to = Math.min(edits.length - 1, last + context);
    const before = edits.slice(0, from);
    const oldStart = before.filter((e) => e.kind !== '+').length + 1;
    const newStart = before.filter((e) => e.kind !== '-').length + 1;
    const body = edits.slice(from, to + 1);
    const oldCount = body.filter((e) => e.kind !== '+').length;
    const newCount = body.filter((e) => e.kind !== '-').length;
    out.push(`@@ -${rangeText(oldStart, oldCount)} +${rangeText(newStart, newCount)} @@`);
    out.push(...body.map((e) => `${e.kind}${e.line}`));
  }
  return `${out.join('\n')}\n`;
}
