import { describe, expect, it } from 'vitest';
import { bestFit, formulaText, growthFits, predicted, type Fit, type Model, type Point } from '../../src/experiment/fit.js';

const sizes = Array.from({ length: 50 }, (_, i) => i + 1);
const sampled = (f: (n: number) => number): Point[] => sizes.map((x) => ({ x, y: f(x) }));
/** Deterministic ±5% wobble, as measured times have. */
const noisy = (f: (n: number) => number): Point[] => sizes.map((x) => ({ x, y: f(x) * (1 + 0.05 * Math.sin(x * 12.9898)) }));
const fitOf = (fits: readonly Fit[], model: Model): Fit => fits.find((f) => f.model === model)!;

describe('growth fits', () => {
  it('recovers a line exactly and prefers it', () => {
    const fits = growthFits(sampled((n) => 12 + 3 * n));
    const linear = fitOf(fits, 'linear');
    expect(linear.a).toBeCloseTo(12, 9);
    expect(linear.b).toBeCloseTo(3, 9);
    expect(linear.r2).toBeCloseTo(1, 12);
    expect(fitOf(fits, 'quadratic')).toMatchObject({ model: 'quadratic', c: expect.closeTo(0, 9) });
    expect(['linear', 'quadratic']).toContain(bestFit(fits)!.model);
    expect(fitOf(fits, 'exponential').r2).toBeLessThan(0.99);
  });

  it('recovers a parabola', () => {
    const quadratic = fitOf(growthFits(sampled((n) => 5 - 2 * n + 0.5 * n * n)), 'quadratic');
    expect(quadratic.model).toBe('quadratic');
    if (quadratic.model !== 'quadratic') return;
    expect([quadratic.a, quadratic.b, quadratic.c].map((v) => Number(v.toFixed(6)))).toEqual([5, -2, 0.5]);
  });

  it('finds the exponent of a power law', () => {
    const fits = growthFits(sampled((n) => 4 * n ** 2.5));
    const power = fitOf(fits, 'power');
    expect(power.a).toBeCloseTo(4, 9);
    expect(power.b).toBeCloseTo(2.5, 9);
    expect(bestFit(fits)!.model).toBe('power');
  });

  it('tells exponential growth from polynomial growth, with noise', () => {
    const exp = growthFits(noisy((n) => 2 * 1.15 ** n));
    expect(bestFit(exp)!.model).toBe('exponential');
    expect(Math.exp(fitOf(exp, 'exponential').b)).toBeCloseTo(1.15, 2);
    expect(bestFit(growthFits(noisy((n) => 30 + 4 * n)))!.model).not.toBe('exponential');
    expect(bestFit(growthFits(noisy((n) => 10 + n * n)))!.model).not.toBe('exponential');
  });

  it('computes R² on the times, so that a bad fit scores low', () => {
    const points = sampled((n) => (n % 2 === 0 ? 100 : 1));
    for (const f of growthFits(points)) expect(f.r2).toBeLessThan(0.2);
  });

  it('needs two sizes to fit a line and three for a parabola; log fits skip zero times', () => {
    expect(growthFits([{ x: 1, y: 3 }])).toEqual([]);
    expect(growthFits([{ x: 1, y: 3 }, { x: 2, y: 5 }]).map((f) => f.model)).toEqual(['linear', 'power', 'exponential']);
    const withZero = growthFits([{ x: 1, y: 0 }, { x: 2, y: 8 }, { x: 3, y: 12 }]);
    expect(fitOf(withZero, 'power').b).toBeCloseTo(1, 9);
    expect(bestFit([])).toBeNull();
  });

  it('prints the fitted formulas and predicts from them', () => {
    expect(formulaText({ model: 'linear', a: 3.14159, b: -0.5 })).toBe('3.14 − 0.50·n');
    expect(formulaText({ model: 'quadratic', a: 120.4, b: 2, c: 0.031 })).toBe('120 + 2.00·n + 0.031·n²');
    expect(formulaText({ model: 'power', a: 2, b: 1.1 })).toBe('2.00·n^1.10');
    expect(formulaText({ model: 'exponential', a: 4.1, b: Math.log(1.07) })).toBe('4.10·1.070^n');
    expect(predicted({ model: 'exponential', a: 3, b: Math.log(2) }, 4)).toBeCloseTo(48, 9);
    expect(predicted({ model: 'power', a: 3, b: 2 }, 4)).toBe(48);
  });
});
