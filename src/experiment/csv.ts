/**
 * CSV as RFC 4180 reads it: a header line, one line per record, fields quoted
 * when they hold a comma, a quote or a line break (quotes doubled). An
 * absent value is an empty field.
 */
export type CsvValue = string | number | boolean | null;

export function csvField(value: CsvValue): string {
  if (value === null) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvText(header: readonly string[], records: readonly (readonly CsvValue[])[]): string {
  return [header, ...records].map((r) => `${r.map(csvField).join(',')}\n`).join('');
}
