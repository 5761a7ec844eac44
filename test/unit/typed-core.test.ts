/**
 * The core's machine-integer forms through names, typing and MAP inference,
 * the MAP printer and the phase split, on kernels built with the test builder.
 */
import { describe, expect, it } from 'vitest';
import * as b from '../support/core.js';
import { typeOf, usesMachineIntegers } from '../../src/core/types.js';
import { showKernel } from '../../src/core/print.js';
import { spanText } from '../../src/core/source.js';
import { wellFormednessErrors } from '../../src/names/check.js';
import { showMap } from '../../src/map/print.js';
import { isWellTyped } from '../../src/map/infer.js';
import { splitPhases } from '../../src/phases/split.js';
import { showPhases } from '../../src/phases/print.js';

const tid = b.tidAs('i32');

describe('typeOf', () => {
  it('is structural: naturals, typed constants and variables, casts, conditionals', () => {
    expect(typeOf(b.nat(3))).toBe('nat');
    expect(typeOf(b.tid)).toBe('nat');
    expect(typeOf(b.add(b.tid, b.nat(1)))).toBe('nat');
    expect(typeOf(b.i32(-1))).toBe('i32');
    expect(typeOf(b.v('x', 'u64'))).toBe('u64');
    expect(typeOf(b.add(b.v('x', 'i64'), b.i64(1)))).toBe('i64');
    expect(typeOf(b.cast('u32', b.i32(-1)))).toBe('u32');
    expect(typeOf(b.ite(b.TRUE, b.i32(1), b.i32(2)))).toBe('i32');
  });

  it('tells kernels with machine integers from BabyCUDA ones', () => {
    expect(usesMachineIntegers(b.kernel('k', { arrays: [b.shared('A')] }, [b.write('A', [b.tid], b.nat(1))]))).toBe(false);
    expect(usesMachineIntegers(b.kernel('k', { params: [b.param('n', 'i32')] }, [b.skip]))).toBe(true);
    expect(usesMachineIntegers(b.kernel('k', { arrays: [b.shared('A')] }, [b.write('A', [tid], b.nat(1))]))).toBe(true);
    expect(usesMachineIntegers(b.kernel('k', {}, [b.havoc('h', 'u32', b.unknownValue('a float'))]))).toBe(true);
  });
});

describe('names and types of core programs', () => {
  it('binds a havoc like a let, for the rest of its block', () => {
    const ok = b.program(b.kernel('k', { arrays: [b.shared('A')] }, [b.havoc('h', 'i32', b.unknownValue('a float'), b.write('A', [b.v('h', 'i32')], b.i32(0)))]));
    expect(wellFormednessErrors(ok)).toEqual([]);
    const twice = b.program(b.kernel('k', { arrays: [b.shared('A')] }, [b.havoc('h', 'i32', b.unknownValue('a float'), b.havoc('h', 'i32', b.unknownValue('a float')))]));
    expect(wellFormednessErrors(twice).map((d) => d.code)).toEqual(['E0102']);
  });

  it('reports a core program that breaks the type rules (a front end bug) at its place', () => {
    const p = b.program(
      b.kernel('k', { params: [b.param('n', 'i32')], arrays: [b.shared('A')] }, [
        // an i32 operator with a u32 operand, a variable used with another type than its binder's
        b.write('A', [b.add(b.v('n', 'i32'), b.u32(1))], b.i32(0)),
        b.write('A', [b.v('n', 'u32')], b.i32(0)),
        b.forLoop('i', { type: 'i32', from: b.nat(0), to: b.i32(4) }, [b.skip]),
      ]),
    );
    const errors = wellFormednessErrors(p);
    expect(errors.map((d) => d.code)).toEqual(['E0109', 'E0109', 'E0109']);
    expect(errors.map((d) => d.message)).toEqual([
      "type error in the core program: the right operand of '+' is of type u32, expected i32",
      "type error in the core program: 'n' is of type i32, used as u32",
      "type error in the core program: the loop's first bound is of type nat, expected i32",
    ]);
    expect(errors.map((d) => spanText(p.file, d.span))).toEqual(['1', 'n', '0']);
  });

  it('allows any type for a shift count, and checks typed constants are in range', () => {
    const shift = b.program(b.kernel('k', { arrays: [b.shared('A')] }, [b.write('A', [b.bin('<<', b.i64(1), b.u32(3))], b.i32(0))]));
    expect(wellFormednessErrors(shift)).toEqual([]);
    const big = b.program(b.kernel('k', { arrays: [b.shared('A')] }, [b.write('A', [b.i32(2n ** 31n)], b.i32(0))]));
    expect(wellFormednessErrors(big).map((d) => d.message)).toEqual(["type error in the core program: the constant 2147483648 is outside i32's range"]);
  });
});

describe('typing and MAP inference of machine integers', () => {
  const kernel = b.kernel('k', { params: [b.param('n', 'i32')], arrays: [b.shared('A')] }, [
    b.let_(
      'i',
      b.sub(tid, b.i32(1)),
      b.havoc(
        'h',
        'u32',
        b.unknownValue('a texture fetch'),
        b.havoc('c', 'i32', b.approximation('a counter updated in a while loop', 'its updates are not a step the front end solves'), b.write('A', [b.ite(b.cmp('<', b.v('i', 'i32'), b.v('n', 'i32')), b.v('i', 'i32'), b.v('c', 'i32'))], b.cast('i32', b.v('h', 'u32')))),
      ),
    ),
  ]);

  it('keeps havocked values out of V: a violation names what the value is and where', () => {
    const m = b.mapOf(kernel);
    expect(isWellTyped(m)).toBe(false);
    expect(m.violations.map((v) => [v.variable, v.use, 'kind' in v.origin ? v.origin.kind : 'read', spanText(m.file, v.span)])).toEqual([['c', 'index', 'approximation', 'i < n ? i : c']]);
    expect(m.vars.get('h')).toMatchObject({ kind: 'unknown', type: 'u32', origin: { kind: 'value', what: 'a texture fetch' } });
  });

  it('collects the approximations on the map', () => {
    const m = b.mapOf(kernel);
    expect(m.approximations.map((a) => [a.what, a.why])).toEqual([['a counter updated in a while loop', 'its updates are not a step the front end solves']]);
    expect(m.machineIntegers).toBe(true);
  });

  it('prints types where they matter, casts, conditionals, havoc, and the scope', () => {
    const m = b.mapOf(kernel);
    expect(showMap(m)).toBe(
      [
        'kernel k(n: i32)',
        '  shared A (1 dimension)',
        '  data-dependent: h: u32 (a texture fetch at 5:16)',
        '  data-dependent: c: i32 (approximated: a counter updated in a while loop, its updates are not a step the front end solves at 6:16)',
        '  scope: assuming no signed overflow, no unsigned loop counter wrapping around, no division by zero, shifts in range',
        '  protocol:',
        '    defined (i32) tid - 1',
        '    havoc h',
        '    havoc c',
        '    wr A[(i32) tid - 1 < n ? (i32) tid - 1 : c]',
      ].join('\n'),
    );
  });

  it("keeps the definedness of a let's and a written value, which the protocol drops", () => {
    const m = b.mapOf(
      b.kernel('k', { params: [b.param('n', 'i32')], arrays: [b.shared('A')] }, [
        b.let_('unused', b.mul(b.v('n', 'i32'), b.i32(2)), b.write('A', [b.cast('i32', b.tid)], b.bin('/', b.i32(100), b.v('n', 'i32')))),
      ]),
    );
    expect(showMap(m).split('\n').slice(-3)).toEqual(['    defined n * 2', '    defined 100 / n', '    wr A[(i32) tid]']);
  });

  it('leaves BabyCUDA maps as they were: no defined steps, no scope line', () => {
    const m = b.mapOf(b.kernel('k', { params: [b.param('n')], arrays: [b.shared('A')] }, [b.let_('x', b.bin('-', b.tid, b.nat(1)), b.write('A', [b.v('x')], b.nat(1)))]));
    expect(showMap(m)).toBe(['kernel k(n)', '  shared A (1 dimension)', '  protocol:', '    wr A[tid - 1]'].join('\n'));
  });
});

describe('the core printer', () => {
  it('prints typed binders, casts, conditionals and havoc in BabyCUDA syntax', () => {
    const text = showKernel(
      b.kernel('k', { params: [b.param('n', 'i32'), b.param('m')], arrays: [b.shared('A', [b.nat(8)])] }, [
        b.forLoop('i', { type: 'i32', from: b.v('n', 'i32'), to: b.i32(0), down: true }, [
          b.havoc('h', 'i32', b.unknownValue('a warp shuffle'), b.write('A', [b.ite(b.cmp('>', b.v('h', 'i32'), b.i32(-1)), b.v('i', 'i32'), b.i32(0))], b.cast('u32', b.v('h', 'i32')))),
        ]),
      ]),
    );
    expect(text).toBe(
      [
        'kernel k(n: i32, m)',
        '{',
        '  shared A[8];',
        '  for i: i32 in n downto 0 {',
        '    havoc h: i32 /* a warp shuffle */ in',
        '    A[h > -1 ? i : 0] := (u32) h',
        '  }',
        '}',
        '',
      ].join('\n'),
    );
  });

  it('re-spans every node into the printed text', () => {
    const p = b.program(b.kernel('k', { arrays: [b.shared('A')] }, [b.read('x', 'A', [b.sub(tid, b.i32(2))], b.write('A', [b.v('x', 'i32')], b.i32(1)))]));
    const read = p.kernels[0]!.body[0]!;
    if (read.kind !== 'read') throw new Error('a read');
    expect(spanText(p.file, read.source)).toBe('A[(i32) tid - 2]');
    expect(spanText(p.file, read.index[0]!.span)).toBe('(i32) tid - 2');
    if (read.index[0]!.kind !== 'binary') throw new Error('a binary');
    expect(spanText(p.file, read.index[0]!.right.span)).toBe('2');
    expect(spanText(p.file, read.body.span)).toBe('A[x] := 1');
  });
});

describe('phases of typed loops', () => {
  it('aligns a typed loop with barriers and shows its type', async () => {
    const m = b.mapOf(
      b.kernel('k', { params: [b.param('n', 'i32')], arrays: [b.shared('A')] }, [
        b.forLoop('i', { type: 'i32', from: b.v('n', 'i32'), to: b.i32(0), down: true }, [b.write('A', [b.v('i', 'i32')], b.i32(1)), b.sync]),
      ]),
    );
    const text = showPhases(m, await splitPhases(m));
    expect(text).toContain('shared i: i32 ∈ [n downto 0] step - 1, any iteration {');
    expect(text).toContain('shared i~3: i32 ∈ [n downto 0] step - 1, the iteration after i {');
  });
});
