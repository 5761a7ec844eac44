import { describe, expect, it } from 'vitest';
import { htmlPage, markdownHtml } from '../../src/experiment/html.js';

describe('the HTML reports', () => {
  it('turn the Markdown the text reports use into HTML, escaped', () => {
    const md = ['# Title <b>', '', 'one `a < b` line', 'two', '', '| k | ms |', '|---|---:|', '| <x> | 1.5 |', '', '* item `c`', '', '![chart](c.svg)', ''].join('\n');
    expect(markdownHtml(md, { 'c.svg': '<svg/>' })).toBe(
      [
        '<h1>Title &lt;b&gt;</h1>',
        '<p>one <code>a &lt; b</code> line<br>\ntwo</p>',
        '<table><thead><tr><th>k</th><th class="num">ms</th></tr></thead><tbody><tr><td>&lt;x&gt;</td><td class="num">1.5</td></tr></tbody></table>',
        '<ul><li>item <code>c</code></li></ul>',
        '<svg/>',
      ].join('\n'),
    );
  });

  it('make one page with no script and no outside resource', () => {
    const page = htmlPage('a & b', '<p>x</p>');
    expect(page).toContain('<title>a &amp; b</title>');
    expect(page).not.toMatch(/<script|<link|src=|@import/);
  });
});
