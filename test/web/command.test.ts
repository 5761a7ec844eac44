/** The playground's command line and its server's choice of encoding, in Node. */
import { describe, expect, it } from 'vitest';
import { encodingFor } from '../../scripts/playground/serve.js';
import { commandLine, shellWord } from '../../web/command.js';
import { DEFAULT_OPTIONS } from '../../web/permalink.js';

describe('the command line the page copies', () => {
  it('is verify --replay with the page timeout, and the file', () => {
    expect(commandLine('figure3.bcu', DEFAULT_OPTIONS)).toBe('npx faial-ts verify --replay --timeout 10000 figure3.bcu');
  });

  it('spells each option as the CLI does, and lockstep warps with an architecture that allows them', () => {
    const o = { ...DEFAULT_OPTIONS, blockDim: '16,16', gridDim: '4', params: 'N=64, M = 2', maxRaces: '3', warpSize: '32', replay: false };
    expect(commandLine('k.cu', o)).toBe('npx faial-ts verify -p N=64 -p M=2 --block-dim 16,16 --grid-dim 4 --timeout 10000 --max-races 3 --arch sm_60 --warp-size 32 k.cu');
  });

  it('quotes what a shell would read otherwise', () => {
    expect(shellWord('[16,16]')).toBe("'[16,16]'");
    expect(shellWord("it's")).toBe("'it'\\''s'");
    expect(shellWord('a.cu')).toBe('a.cu');
  });
});

describe('the dev server encoding', () => {
  it('prefers brotli, then gzip, and honours q=0', () => {
    expect(encodingFor('gzip, deflate, br')).toBe('br');
    expect(encodingFor('gzip, br;q=0')).toBe('gzip');
    expect(encodingFor('*')).toBe('br');
    expect(encodingFor('identity')).toBe('identity');
    expect(encodingFor(undefined)).toBe('identity');
    expect(encodingFor('gzip;q=0, br;q=0')).toBe('identity');
  });
});
