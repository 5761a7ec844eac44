/**
 * How a measured time grows with the size of its input: least-squares fits of
 *   linear       y = a + b·n
 *   quadratic    y = a + b·n + c·n²
 *   power law    y = a·n^b     (linear regression of log y on log n)
 *   exponential  y = a·e^(b·n) (linear regression of log y on n)
 * Every fit's R² is computed on y itself, not on log y, so that they are
 * compared on one scale; the best fit has the largest adjusted R², which
 * charges the quadratic for its extra parameter (otherwise it would never
 * lose to the line).
 */
import { assertNever } from '../util/assert.js';

export interface Point {
  readonly x: number;
  readonly y: number;
}

export type Model = 'linear' | 'quadratic' | 'power' | 'exponential';

export type Curve =
  | { readonly model: 'linear' | 'power' | 'exponential'; readonly a: number; readonly b: number }
  | { readonly model: 'quadratic'; readonly a: number; readonly b: number; readonly c: number };

export type Fit = Curve & {
  /** coefficient of determination on the original scale; 1 is a perfect fit, it may be negative */
  readonly r2: number;
  /** R² adjusted for the number of parameters; null with too few points */
  readonly adjustedR2: number | null;
};

/** Intercept and slope of the least-squares line through the points; null without two distinct x. */
function line(points: readonly Point[]): { intercept: number; slope: number } | null {
  if (points.length < 2) return null;
  const mx = points.reduce((s, p) => s + p.x, 0) / points.length;
  const my = points.reduce((s, p) => s + p.y, 0) / points.length;
  const sxx = points.reduce((s, p) => s + (p.x - mx) ** 2, 0);
  if (sxx === 0) return null;
  const slope = points.reduce((s, p) => s + (p.x - mx) * (p.y - my), 0) / sxx;
  return { intercept: my - slope * mx, slope };
}

/** a, b, c of the least-squares parabola, from the normal equations; null without three distinct x. */
function parabola(points: readonly Point[]): { a: number; b: number; c: number } | null {
  if (new Set(points.map((p) => p.x)).size < 3) return null;
  // x is centred and scaled so that the 3×3 system stays well conditioned
  const mx = points.reduce((s, p) => s + p.x, 0) / points.length;
  const sx = Math.max(...points.map((p) => Math.abs(p.x - mx)));
  const us = points.map((p) => ({ u: (p.x - mx) / sx, y: p.y }));
  const moment = (k: number): number => us.reduce((s, p) => s + p.u ** k, 0);
  const target = (k: number): number => us.reduce((s, p) => s + p.u ** k * p.y, 0);
  const m = [
    [moment(0), moment(1), moment(2), target(0)],
    [moment(1), moment(2), moment(3), target(1)],
    [moment(2), moment(3), moment(4), target(2)],
  ];
  for (let col = 0; col < 3; col++) {
    const pivot = m.slice(col).reduce((best, row) => (Math.abs(row[col]!) > Math.abs(best[col]!) ? row : best));
    m.splice(m.indexOf(pivot), 1);
    m.splice(col, 0, pivot);
    if (Math.abs(pivot[col]!) < 1e-12) return null;
    for (let r = 0; r < 3; r++) {
      if (r === col) continue;
      const f = m[r]![col]! / pivot[col]!;
      for (let k = col; k < 4; k++) m[r]![k]! -= f * pivot[k]!;
    }
  }
  const [p0, p1, p2] = [m[0]![3]! / m[0]![0]!, m[1]![3]! / m[1]![1]!, m[2]![3]! / m[2]![2]!];
  // y = p0 + p1·u + p2·u² with u = (x − mx)/sx, expanded in x
  const c = p2 / sx ** 2;
  const b = p1 / sx - (2 * p2 * mx) / sx ** 2;
  const a = p0 - (p1 * mx) / sx + (p2 * mx ** 2) / sx ** 2;
  return { a, b, c };
}

export function predicted(curve: Curve, x: number): number {
  switch (curve.model) {
    case 'linear':
      return curve.a + curve.b * x;
    case 'quadratic':
      return curve.a + curve.b * x + curve.c * x * x;
    case 'power':
      return curve.a * x ** curve.b;
    case 'exponential':
      return curve.a * Math.exp(curve.b * x);
    default:
      return assertNever(curve);
  }
}

/** Predictors besides the constant. */
function predictors(model: Model): number {
  return model === 'quadratic' ? 2 : 1;
}

function fitOf(points: readonly Point[], curve: Curve): Fit {
  const my = points.reduce((s, p) => s + p.y, 0) / points.length;
  const total = points.reduce((s, p) => s + (p.y - my) ** 2, 0);
  const residual = points.reduce((s, p) => s + (p.y - predicted(curve, p.x)) ** 2, 0);
  const r2 = total === 0 ? (residual === 0 ? 1 : 0) : 1 - residual / total;
  const dof = points.length - predictors(curve.model) - 1;
  return { ...curve, r2, adjustedR2: dof <= 0 ? null : 1 - ((1 - r2) * (points.length - 1)) / dof };
}

/** The fits the points allow: log fits need positive values (and x for the power law). */
export function growthFits(points: readonly Point[]): Fit[] {
  const fits: Fit[] = [];
  const straight = line(points);
  if (straight) fits.push(fitOf(points, { model: 'linear', a: straight.intercept, b: straight.slope }));
  const curved = parabola(points);
  if (curved) fits.push(fitOf(points, { model: 'quadratic', ...curved }));
  const positive = points.filter((p) => p.y > 0);
  const logLog = line(positive.filter((p) => p.x > 0).map((p) => ({ x: Math.log(p.x), y: Math.log(p.y) })));
  if (logLog) fits.push(fitOf(points, { model: 'power', a: Math.exp(logLog.intercept), b: logLog.slope }));
  const logLinear = line(positive.map((p) => ({ x: p.x, y: Math.log(p.y) })));
  if (logLinear) fits.push(fitOf(points, { model: 'exponential', a: Math.exp(logLinear.intercept), b: logLinear.slope }));
  return fits;
}

/** The fit with the largest adjusted R² (R² when too few points to adjust), null when there is none. */
export function bestFit(fits: readonly Fit[]): Fit | null {
  const score = (f: Fit): number => f.adjustedR2 ?? f.r2;
  return fits.reduce<Fit | null>((best, f) => (best === null || score(f) > score(best) ? f : best), null);
}

const num = (v: number): string => (Math.abs(v) >= 100 ? v.toFixed(0) : Math.abs(v) >= 1 ? v.toFixed(2) : v.toPrecision(2));
const signed = (v: number): string => `${v < 0 ? '−' : '+'} ${num(Math.abs(v))}`;

/** The fitted formula in n, e.g. `3.1 + 0.52·n`, `2.0·n^1.10`, `4.1·1.07^n`. */
export function formulaText(curve: Curve): string {
  switch (curve.model) {
    case 'linear':
      return `${num(curve.a)} ${signed(curve.b)}·n`;
    case 'quadratic':
      return `${num(curve.a)} ${signed(curve.b)}·n ${signed(curve.c)}·n²`;
    case 'power':
      return `${num(curve.a)}·n^${curve.b.toFixed(2)}`;
    case 'exponential':
      return `${num(curve.a)}·${Math.exp(curve.b).toFixed(3)}^n`;
    default:
      return assertNever(curve);
  }
}
