/** The playground's pure pieces, in Node: permalinks, the parameters field, the server's paths. */
import { describe, expect, it } from 'vitest';
import { fileOf } from '../../scripts/playground/serve.js';
import { languageOfPath } from '../../web/languages.js';
import { DEFAULT_OPTIONS, fragmentOf, safeName, stateOf } from '../../web/permalink.js';
import { paramItems } from '../../web/protocol.js';

describe('permalinks', () => {
  it('give back the file name, the text and the options', async () => {
    const state = { path: 'racy.cu', text: 'kernel k(N) {\n  shared A;\n  A[tid] := 1 // é ✓\n}\n', options: { ...DEFAULT_OPTIONS, blockDim: '16,16', params: 'N=4', warpSize: '32', replay: false } };
    const fragment = await fragmentOf(state);
    expect(fragment).toMatch(/^#file=racy\.cu&block=16%2C16&params=N%3D4&warp=32&replay=0&code=[\w-]+$/);
    await expect(stateOf(fragment)).resolves.toEqual(state);
  });

  it('name the version that made them when given, and read one without', async () => {
    const fragment = await fragmentOf({ path: 'k.bcu', text: 'x', options: DEFAULT_OPTIONS, version: '0.1.0' });
    expect(fragment).toMatch(/^#file=k\.bcu&v=0\.1\.0&code=[\w-]+$/);
    await expect(stateOf(fragment)).resolves.toEqual({ path: 'k.bcu', text: 'x', options: DEFAULT_OPTIONS, version: '0.1.0' });
  });

  it('leave options at their defaults out', async () => {
    const fragment = await fragmentOf({ path: 'k.bcu', text: 'x', options: DEFAULT_OPTIONS });
    expect(fragment).toMatch(/^#file=k\.bcu&code=[\w-]+$/);
    await expect(stateOf(fragment)).resolves.toEqual({ path: 'k.bcu', text: 'x', options: DEFAULT_OPTIONS });
  });

  it('read a link made before the warp size field as independent threads', async () => {
    // the fields of the older links, and no `warp`
    const old = await fragmentOf({ path: 'k.bcu', text: 'x', options: { ...DEFAULT_OPTIONS, blockDim: '32' } });
    expect(old).toMatch(/^#file=k\.bcu&block=32&code=[\w-]+$/);
    await expect(stateOf(old)).resolves.toMatchObject({ options: { blockDim: '32', warpSize: '' } });
  });

  it('hold no state when the fragment has no code or damaged code', async () => {
    await expect(stateOf('')).resolves.toBeNull();
    await expect(stateOf('#file=k.bcu')).resolves.toBeNull();
    await expect(stateOf('#code=AAAA')).resolves.toBeNull();
  });

  it('never name a path: only a plain file name', () => {
    expect(safeName('../../etc/passwd')).toBe('passwd');
    expect(safeName('a b<script>.bcu')).toBe('kernel.bcu');
    expect(safeName('..')).toBe('kernel.bcu');
    expect(safeName('transpose.cu')).toBe('transpose.cu');
  });
});

describe('the parameters field', () => {
  it('takes NAME=VALUE items separated by commas, semicolons, lines or spaces', () => {
    expect(paramItems('N=4, M = 2;K=1\nL=3 P=5')).toEqual(['N=4', 'M = 2', 'K=1', 'L=3', 'P=5']);
    expect(paramItems('  ')).toEqual([]);
    // what is not NAME=VALUE is left whole, for -p's own error
    expect(paramItems('N=four')).toEqual(['N=four']);
  });
});

describe('the language of a file name', () => {
  it('is CUDA for .cu and .cuh, BabyCUDA otherwise', () => {
    expect(languageOfPath('a.cu')).toBe('cu');
    expect(languageOfPath('a.cuh')).toBe('cu');
    expect(languageOfPath('a.bcu')).toBe('bcu');
    expect(languageOfPath('a.cuda.bcu')).toBe('bcu');
  });
});

describe('the playground server', () => {
  it('serves files inside its folder only', () => {
    expect(fileOf('/srv/site', '/')).toBe('/srv/site/index.html');
    expect(fileOf('/srv/site', '/main.js?v=1')).toBe('/srv/site/main.js');
    expect(fileOf('/srv/site', '/../package.json')).toBeNull();
    expect(fileOf('/srv/site', '/..%2Fpackage.json')).toBeNull();
    expect(fileOf('/srv/site', '/%E0%A4%A')).toBeNull();
    expect(fileOf('/srv/site', '/a%00b')).toBeNull();
  });
});
