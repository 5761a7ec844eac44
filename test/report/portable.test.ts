/**
 * The report's pure helpers that replaced Node APIs (so reports can be made in
 * a browser): SHA-256 must give node:crypto's digest, so SARIF fingerprints do
 * not change; file URIs must name the same file that Node's own functions do.
 */
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { sha256Hex } from '../../src/util/sha256.js';
import { fileUri, isAbsolutePath, relativeUri } from '../../src/util/file-uri.js';

const nodeSha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

describe('sha256Hex', () => {
  it('gives the published digests', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe('248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1');
  });

  it("equals node:crypto's digest at every padding boundary and on any Unicode text", () => {
    // 55, 56 and 64 bytes are where the length field moves to a second block
    for (let n = 0; n <= 200; n++) expect(sha256Hex('x'.repeat(n))).toBe(nodeSha256('x'.repeat(n)));
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (s) => sha256Hex(s) === nodeSha256(s)));
  });
});

describe('file URIs', () => {
  it('tells absolute paths from relative ones, POSIX and Windows', () => {
    for (const p of ['/a/b.bcu', 'C:\\src\\k.bcu', 'c:/src/k.bcu', '\\\\server\\share\\k.bcu', '\\k.bcu']) expect(isAbsolutePath(p)).toBe(true);
    for (const p of ['k.bcu', 'src/k.bcu', 'src\\k.bcu', './k.bcu', '../k.bcu', 'C:k.bcu']) expect(isAbsolutePath(p)).toBe(false);
  });

  it('names the file Node names for an absolute POSIX path', () => {
    const names = fc.stringMatching(/^[^/\\]{1,6}$/);
    fc.assert(
      fc.property(fc.array(fc.oneof(names, fc.constantFrom('.', '..', '')), { minLength: 1, maxLength: 6 }), (parts) => {
        const path = `/${parts.join('/')}`;
        // the same file: Node's URL of the path decodes to what ours does
        return fileURLToPath(fileUri(path)) === fileURLToPath(pathToFileURL(path)).replace(/(.)\/$/, '$1') && fileURLToPath(fileUri(path)) === posix.resolve(path);
      }),
    );
    expect(fileUri('/home/a b/k#1.bcu')).toBe('file:///home/a%20b/k%231.bcu');
  });

  it('writes Windows drive and UNC paths as file URIs with forward slashes', () => {
    expect(fileUri('C:\\src\\my kernels\\k.bcu')).toBe('file:///C:/src/my%20kernels/k.bcu');
    expect(fileUri('d:/src/../k.bcu')).toBe('file:///d:/k.bcu');
    expect(fileUri('\\\\server\\share\\k.bcu')).toBe('file://server/share/k.bcu');
  });

  it('keeps relative paths relative, with / between names', () => {
    expect(relativeUri('examples/paper/figure3.bcu')).toBe('examples/paper/figure3.bcu');
    expect(relativeUri('src\\my kernels\\k#1.bcu')).toBe('src/my%20kernels/k%231.bcu');
    expect(relativeUri('C:k.bcu')).toBe('C%3Ak.bcu');
  });
});
