/**
 * A line chart as a standalone SVG document: axes from zero with round
 * ticks, one polyline (with a dot per point) per series, and a legend.
 */
import type { Point } from './fit.js';

export interface Series {
  readonly name: string;
  readonly points: readonly Point[];
}

export interface Chart {
  readonly title: string;
  readonly xLabel: string;
  readonly yLabel: string;
  readonly series: readonly Series[];
}

const WIDTH = 760;
const HEIGHT = 460;
const MARGIN = { left: 70, right: 190, top: 40, bottom: 55 };
/** Tableau 10: tells lines apart, also for most colour-blind readers. */
const COLOURS = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#bab0ac'];

export function escapedXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** A round step (1, 2 or 5 times a power of ten) that cuts [0, max] into about `count` intervals. */
export function tickStep(max: number, count = 5): number {
  if (!(max > 0)) return 1;
  const raw = max / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const unit = [1, 2, 5, 10].find((m) => m * power >= raw) ?? 10;
  return unit * power;
}

/** Ticks 0, step, 2·step, … up to the first at or beyond max. */
export function ticks(max: number, count = 5): number[] {
  const step = tickStep(max, count);
  const out = [0];
  while (out.at(-1)! < max) out.push(Number((out.length * step).toPrecision(12)));
  return out;
}

const coordinate = (v: number): string => v.toFixed(1);

/** The opening of a chart: the SVG element, a white background, the title centred at titleX. */
function canvas(height: number, titleX: number, title: string): string[] {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="${WIDTH}" height="${height}" fill="white"/>`,
    `<text x="${titleX}" y="22" text-anchor="middle" font-size="15">${escapedXml(title)}</text>`,
  ];
}

export function lineChartSvg(chart: Chart): string {
  const all = chart.series.flatMap((s) => s.points);
  const xTicks = ticks(Math.max(1, ...all.map((p) => p.x)));
  const yTicks = ticks(Math.max(0, ...all.map((p) => p.y)));
  const xMax = xTicks.at(-1)!;
  const yMax = yTicks.at(-1)!;
  const plotW = WIDTH - MARGIN.left - MARGIN.right;
  const plotH = HEIGHT - MARGIN.top - MARGIN.bottom;
  const sx = (x: number): number => MARGIN.left + (x / xMax) * plotW;
  const sy = (y: number): number => MARGIN.top + plotH - (y / yMax) * plotH;
  const bottom = MARGIN.top + plotH;

  const parts = canvas(HEIGHT, MARGIN.left + plotW / 2, chart.title);
  for (const t of yTicks) {
    parts.push(`<line x1="${MARGIN.left}" y1="${coordinate(sy(t))}" x2="${MARGIN.left + plotW}" y2="${coordinate(sy(t))}" stroke="#e5e5e5"/>`);
    parts.push(`<text x="${MARGIN.left - 6}" y="${coordinate(sy(t) + 4)}" text-anchor="end">${t}</text>`);
  }
  for (const t of xTicks) {
    parts.push(`<line x1="${coordinate(sx(t))}" y1="${bottom}" x2="${coordinate(sx(t))}" y2="${bottom + 5}" stroke="black"/>`);
    parts.push(`<text x="${coordinate(sx(t))}" y="${bottom + 18}" text-anchor="middle">${t}</text>`);
  }
  parts.push(`<line x1="${MARGIN.left}" y1="${bottom}" x2="${MARGIN.left + plotW}" y2="${bottom}" stroke="black"/>`);
  parts.push(`<line x1="${MARGIN.left}" y1="${MARGIN.top}" x2="${MARGIN.left}" y2="${bottom}" stroke="black"/>`);
  parts.push(`<text x="${MARGIN.left + plotW / 2}" y="${HEIGHT - 12}" text-anchor="middle">${escapedXml(chart.xLabel)}</text>`);
  parts.push(`<text transform="translate(18 ${MARGIN.top + plotH / 2}) rotate(-90)" text-anchor="middle">${escapedXml(chart.yLabel)}</text>`);

  chart.series.forEach((s, i) => {
    const colour = COLOURS[i % COLOURS.length]!;
    const points = [...s.points].sort((a, b) => a.x - b.x);
    const path = points.map((p) => `${coordinate(sx(p.x))},${coordinate(sy(p.y))}`).join(' ');
    parts.push(`<g stroke="${colour}" fill="${colour}"><title>${escapedXml(s.name)}</title>`);
    parts.push(`<polyline points="${path}" fill="none" stroke-width="2"/>`);
    for (const p of points) parts.push(`<circle cx="${coordinate(sx(p.x))}" cy="${coordinate(sy(p.y))}" r="2"/>`);
    parts.push('</g>');
    const ly = MARGIN.top + 10 + i * 20;
    const lx = MARGIN.left + plotW + 20;
    parts.push(`<line x1="${lx}" y1="${ly}" x2="${lx + 24}" y2="${ly}" stroke="${colour}" stroke-width="3"/>`);
    parts.push(`<text x="${lx + 30}" y="${ly + 4}">${escapedXml(s.name)}</text>`);
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}

export interface StackedBar {
  readonly label: string;
  /** where the label links to, e.g. `#kernel-3` */
  readonly href: string | null;
  /** one value per part, in the chart's part order */
  readonly values: readonly number[];
}

export interface StackedBarChart {
  readonly title: string;
  readonly xLabel: string;
  readonly parts: readonly string[];
  readonly bars: readonly StackedBar[];
}

const BAR = 16;
const BAR_GAP = 6;

/** Horizontal bars split into coloured parts (the line chart's colours, axis and legend), one labelled bar a row. */
export function stackedBarsSvg(chart: StackedBarChart): string {
  const labelWidth = Math.min(320, 12 + 7 * Math.max(4, ...chart.bars.map((b) => b.label.length)));
  const margin = { ...MARGIN, left: labelWidth };
  const plotW = WIDTH - margin.left - margin.right;
  const plotH = chart.bars.length * (BAR + BAR_GAP);
  const height = margin.top + plotH + margin.bottom;
  const xTicks = ticks(Math.max(0, ...chart.bars.map((b) => b.values.reduce((s, v) => s + v, 0))));
  const xMax = xTicks.at(-1)!;
  const sx = (x: number): number => margin.left + (x / xMax) * plotW;
  const bottom = margin.top + plotH;
  const parts = canvas(height, margin.left + plotW / 2, chart.title);
  for (const t of xTicks) {
    parts.push(`<line x1="${coordinate(sx(t))}" y1="${margin.top}" x2="${coordinate(sx(t))}" y2="${bottom}" stroke="#e5e5e5"/>`);
    parts.push(`<text x="${coordinate(sx(t))}" y="${bottom + 18}" text-anchor="middle">${t}</text>`);
  }
  chart.bars.forEach((bar, i) => {
    const y = margin.top + i * (BAR + BAR_GAP) + BAR_GAP / 2;
    const label = `<text x="${margin.left - 6}" y="${coordinate(y + BAR - 4)}" text-anchor="end">${escapedXml(bar.label)}</text>`;
    parts.push(bar.href === null ? label : `<a href="${escapedXml(bar.href)}">${label}</a>`);
    let x = 0;
    bar.values.forEach((v, p) => {
      if (v <= 0) return;
      parts.push(
        `<rect x="${coordinate(sx(x))}" y="${coordinate(y)}" width="${coordinate(sx(x + v) - sx(x))}" height="${BAR}" fill="${COLOURS[p % COLOURS.length]!}"><title>${escapedXml(`${bar.label}: ${chart.parts[p]} ${v.toFixed(1)}`)}</title></rect>`,
      );
      x += v;
    });
  });
  parts.push(`<line x1="${margin.left}" y1="${bottom}" x2="${margin.left + plotW}" y2="${bottom}" stroke="black"/>`);
  parts.push(`<line x1="${margin.left}" y1="${margin.top}" x2="${margin.left}" y2="${bottom}" stroke="black"/>`);
  parts.push(`<text x="${margin.left + plotW / 2}" y="${height - 12}" text-anchor="middle">${escapedXml(chart.xLabel)}</text>`);
  chart.parts.forEach((name, i) => {
    const ly = margin.top + 10 + i * 20;
    const lx = margin.left + plotW + 20;
    parts.push(`<rect x="${lx}" y="${ly - 6}" width="24" height="12" fill="${COLOURS[i % COLOURS.length]!}"/>`);
    parts.push(`<text x="${lx + 30}" y="${ly + 4}">${escapedXml(name)}</text>`);
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}
