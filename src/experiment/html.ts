/**
 * Self-contained HTML reports (no script, no network: styles and charts
 * inline), made from the same Markdown the text reports are: the subset
 * they use (headings, paragraphs, `*` lists, pipe tables, `code`, and images
 * that name an SVG chart given inline).
 */
import { escapedXml } from './svg.js';

const STYLE = `
body { font-family: sans-serif; font-size: 14px; max-width: 1100px; margin: 24px auto; padding: 0 16px; color: #222; }
h1 { font-size: 22px; } h2 { font-size: 17px; margin-top: 28px; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; margin: 8px 0; }
th, td { border: 1px solid #ddd; padding: 2px 8px; text-align: left; }
td.num, th.num { text-align: right; }
code { font-family: ui-monospace, monospace; font-size: 12px; background: #f4f4f4; padding: 0 3px; }
tr:target { background: #fff3c4; }
.drf { color: #2e7d32; } .racy, .divergent, .error { color: #c62828; } .unknown { color: #b26a00; }
svg { max-width: 100%; height: auto; }
`;

/** Text with `code` spans, escaped. */
export function inlineHtml(text: string): string {
  return text
    .split(/(`[^`]*`)/)
    .map((part) => (part.startsWith('`') && part.endsWith('`') && part.length > 1 ? `<code>${escapedXml(part.slice(1, -1))}</code>` : escapedXml(part)))
    .join('');
}

const cells = (line: string): string[] =>
  line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split('|')
    .map((c) => c.trim());

function tableHtml(lines: readonly string[]): string {
  const right = cells(lines[1]!).map((c) => c.endsWith(':'));
  const row = (line: string, tag: 'th' | 'td'): string =>
    `<tr>${cells(line)
      .map((c, i) => `<${tag}${right[i] ? ' class="num"' : ''}>${inlineHtml(c)}</${tag}>`)
      .join('')}</tr>`;
  return `<table><thead>${row(lines[0]!, 'th')}</thead><tbody>${lines.slice(2).map((l) => row(l, 'td')).join('')}</tbody></table>`;
}

/** The Markdown subset as HTML; `![alt](name)` becomes charts[name], inline. */
export function markdownHtml(markdown: string, charts: Readonly<Record<string, string>> = {}): string {
  const out: string[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; ) {
    const line = lines[i]!;
    const take = (test: (l: string) => boolean): string[] => {
      const block: string[] = [];
      while (i < lines.length && test(lines[i]!)) block.push(lines[i++]!);
      return block;
    };
    const heading = /^(#{1,3}) (.*)$/.exec(line);
    const image = /^!\[([^\]]*)\]\(([^)]+)\)$/.exec(line.trim());
    if (line.trim() === '') i++;
    else if (heading !== null) {
      out.push(`<h${heading[1]!.length}>${inlineHtml(heading[2]!)}</h${heading[1]!.length}>`);
      i++;
    } else if (image !== null) {
      out.push(charts[image[2]!] ?? `<p>${inlineHtml(image[1]!)}</p>`);
      i++;
    } else if (line.startsWith('|')) out.push(tableHtml(take((l) => l.startsWith('|'))));
    else if (line.startsWith('* ')) out.push(`<ul>${take((l) => l.startsWith('* ')).map((l) => `<li>${inlineHtml(l.slice(2))}</li>`).join('')}</ul>`);
    else out.push(`<p>${take((l) => l.trim() !== '' && !/^(#|\||\* |!\[)/.test(l)).map(inlineHtml).join('<br>\n')}</p>`);
  }
  return out.join('\n');
}

/** A whole page: the shared style, the title, the body (already HTML). */
export function htmlPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapedXml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
${body}
</body>
</html>
`;
}
