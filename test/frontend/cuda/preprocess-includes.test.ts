import { describe, expect, it } from 'vitest';
import { MAX_INCLUDED_CHARS, type FileRefusal } from '../../../src/frontend/cuda/preprocess/index.js';
import { dirname, joinPath, normalisePath } from '../../../src/frontend/cuda/preprocess/paths.js';
import { codeLines, diagnosticsOf, locateText, pp, where } from './preprocess-helpers.js';

describe('paths', () => {
  it('normalises . and .., keeping a leading / and leading .. of relative paths', () => {
    expect(normalisePath('a/./b/../c//d')).toBe('a/c/d');
    expect(normalisePath('../x/../../y')).toBe('../../y');
    expect(normalisePath('/a/../../b')).toBe('/b');
    expect(normalisePath('./')).toBe('.');
    expect(dirname('k.cu')).toBe('.');
    expect(dirname('/k.cu')).toBe('/');
    expect(dirname('src/kernels/k.cu')).toBe('src/kernels');
    expect(joinPath('.', 'a.h')).toBe('a.h');
    expect(joinPath('src/k', '../inc/a.h')).toBe('src/inc/a.h');
    expect(joinPath('src', '/abs/a.h')).toBe('/abs/a.h');
  });
});

describe('#include', () => {
  it('puts the file where the directive was, and records every file read once', () => {
    const r = pp('before\n#include "a.h"\n#include "a.h"\nafter\n', { files: { 'a.h': 'in_a\n' } });
    expect(codeLines(r)).toEqual(['before', 'in_a', 'in_a', 'after']);
    expect(r.files.map((f) => f.path)).toEqual(['k.cu', '<built-in>', '<command line>', 'a.h']);
  });

  it('searches the including file\'s directory, then the -I directories in order', () => {
    const files = {
      'src/k.cu': '',
      'src/common.h': 'src_common',
      'inc1/common.h': 'inc1_common',
      'inc1/only1.h': 'inc1_only1',
      'inc2/only1.h': 'inc2_only1',
      'inc2/only2.h': '#include "sub/deep.h"',
      'inc2/sub/deep.h': 'deep #include_relative_to_deep\n#include "sibling.h"',
      'inc2/sub/sibling.h': 'sibling',
    };
    const r = pp('#include "common.h"\n#include "only1.h"\n#include "only2.h"\n', { files, includeDirs: ['inc1', 'inc2'] }, 'src/k.cu');
    expect(codeLines(r)).toEqual(['src_common', 'inc1_only1', 'deep #include_relative_to_deep', 'sibling']);
    expect(r.files.slice(3).map((f) => f.path)).toEqual(['src/common.h', 'inc1/only1.h', 'inc2/only2.h', 'inc2/sub/deep.h', 'inc2/sub/sibling.h']);
  });

  it('a header in a subdirectory includes relative to itself, not to the main file', () => {
    const files = { 'lib/a.h': '#include "b.h"', 'lib/b.h': 'lib_b', 'b.h': 'top_b' };
    expect(codeLines(pp('#include "lib/a.h"\n', { files }))).toEqual(['lib_b']);
  });

  it('a missing file is an error at its name, listing where it was looked for', () => {
    const r = pp('int a;\n#include "nope.h"\nint b;\n', { includeDirs: ['inc'] }, 'src/k.cu');
    expect(diagnosticsOf(r)).toEqual(["E0510 src/k.cu:2:10 'nope.h' not found"]);
    expect(r.diagnostics[0]!.hints[0]).toBe('searched: src/nope.h, inc/nope.h');
    expect(codeLines(r)).toEqual(['int a;', 'int b;']);
  });

  it('<…> headers are looked for in -I directories only, and recorded (not read) when not found there', () => {
    const files = { 'inc/mine.h': 'mine', 'cuda_runtime.h': 'never read' };
    const r = pp('#include <cuda_runtime.h>\n#include <mine.h>\n#include <sys/types.h>\n', { files, includeDirs: ['inc'] });
    expect(codeLines(r)).toEqual(['mine']);
    expect(r.systemIncludes.map((s) => `${s.name} ${where(r, s.at)}`)).toEqual([
      "cuda_runtime.h k.cu:1:1 '#include <cuda_runtime.h>'",
      "sys/types.h k.cu:3:1 '#include <sys/types.h>'",
    ]);
    expect(r.diagnostics).toEqual([]);
  });

  it('a quoted system header not found beside the file or under -I falls back to the system search: recorded, not read', () => {
    const names = ['cuda_runtime.h', 'cuda.h', 'stdio.h', 'math.h', 'cuda_fp16.h', 'cooperative_groups.h', 'thrust/device_vector.h', 'cstdio'];
    const r = pp(`${names.map((n) => `#include "${n}"`).join('\n')}\nint k;\n`, { includeDirs: ['inc'] }, 'src/k.cu');
    expect(r.diagnostics).toEqual([]);
    expect(r.systemIncludes.map((s) => s.name)).toEqual(names);
    expect(codeLines(r)).toEqual(['int k;']);
  });

  it('a quoted system header found beside the file is read, as in C', () => {
    const r = pp('#include "math.h"\n', { files: { 'math.h': 'mine' } });
    expect(codeLines(r)).toEqual(['mine']);
    expect(r.systemIncludes).toEqual([]);
  });

  it('an unknown <…> header not found is recorded with a warning: its macros are unknown', () => {
    const r = pp('#include <project/config.h>\n#include <vector>\n');
    expect(diagnosticsOf(r)).toEqual(['W0509 k.cu:1:10 <project/config.h> is not read: it was not found in any -I directory and is not a header the front end knows']);
    expect(r.systemIncludes.map((s) => s.name)).toEqual(['project/config.h', 'vector']);
  });

  it('a missing quoted project header stays an error, saying how to take it as a system header', () => {
    const r = pp('#include "config.h"\n');
    expect(diagnosticsOf(r)).toEqual(["E0510 k.cu:1:10 'config.h' not found"]);
    expect(r.diagnostics[0]!.hints[1]).toContain('#include <config.h>');
  });

  it('the file name may come from a macro', () => {
    const files = { 'cfg/v2.h': 'v2', 'sys.h': 'never' };
    const r = pp('#define VERSION_HEADER "cfg/v2.h"\n#include VERSION_HEADER\n#define SYS <sys.h>\n#include SYS\n', { files });
    expect(codeLines(r)).toEqual(['v2']);
    expect(r.systemIncludes.map((s) => s.name)).toEqual(['sys.h']);
  });

  it('a malformed #include is an error', () => {
    const r = pp('#include\n#include foo\n#include <a.h\n#include ""\n#include "a.h" junk\n', { files: { 'a.h': 'a' } });
    expect(diagnosticsOf(r)).toEqual([
      'E0513 k.cu:1:1 #include expects "FILE" or <FILE>',
      'E0513 k.cu:2:10 #include expects "FILE" or <FILE>',
      'E0513 k.cu:3:10 #include expects "FILE" or <FILE>',
      'E0513 k.cu:4:10 empty file name in #include',
      'W0503 k.cu:5:16 extra tokens at the end of #include',
    ]);
    expect(codeLines(r)).toEqual(['a']);
  });

  it('include guards and #pragma once include a header once; readFile is asked once per path', () => {
    let reads = 0;
    const files: Record<string, string> = {
      'guarded.h': '// comment\n#ifndef GUARDED_H\n#define GUARDED_H\nguarded\n#endif // GUARDED_H\n',
      'guarded2.h': '#if !defined(G2)\n#define G2\nguarded2\n#endif\n',
      'once.h': '#pragma once\nonce\n',
      'unguarded.h': 'unguarded\n',
    };
    const readFile = (p: string): string | null => {
      reads++;
      return files[p] ?? null;
    };
    const text = ['guarded', 'guarded2', 'once', 'unguarded'].flatMap((n) => [`#include "${n}.h"`, `#include "${n}.h"`]).join('\n');
    const r = pp(`${text}\n`, { readFile });
    expect(codeLines(r)).toEqual(['// comment', 'guarded', 'guarded2', 'once', 'unguarded', 'unguarded']);
    expect(reads).toBe(4);
  });

  it('a guard undefined between includes lets the header in again', () => {
    const files = { 'g.h': '#ifndef G\n#define G\ng\n#endif\n' };
    expect(codeLines(pp('#include "g.h"\n#undef G\n#include "g.h"\n#include "g.h"\n', { files }))).toEqual(['g', 'g']);
  });

  it('text after the guard\'s #endif makes it no guard', () => {
    const files = { 'g.h': '#ifndef G\n#define G\ng\n#endif\nafter\n' };
    expect(codeLines(pp('#include "g.h"\n#include "g.h"\n', { files }))).toEqual(['g', 'after', 'after']);
  });

  it('guarded headers may include each other', () => {
    const files = {
      'a.h': '#ifndef A_H\n#define A_H\n#include "b.h"\na\n#endif\n',
      'b.h': '#ifndef B_H\n#define B_H\n#include "a.h"\nb\n#endif\n',
    };
    const r = pp('#include "a.h"\n#include "b.h"\n', { files });
    expect(codeLines(r)).toEqual(['b', 'a']);
    expect(r.diagnostics).toEqual([]);
  });

  it('an unguarded include cycle is an error at the include that closes it', () => {
    const files = { 'a.h': 'a\n#include "b.h"\n', 'b.h': 'b\n#include "a.h"\n' };
    const r = pp('#include "a.h"\n', { files });
    expect(diagnosticsOf(r)).toEqual(['E0511 b.h:2:10 #include cycle: a.h → b.h → a.h']);
    expect(codeLines(r)).toEqual(['a', 'b']);
  });

  it('the main file including itself is a cycle', () => {
    expect(diagnosticsOf(pp('#include "k.cu"\n', {}, 'k.cu'))).toEqual(['E0511 k.cu:1:10 #include cycle: k.cu → k.cu']);
  });

  it('includes nested more than 200 deep are an error', () => {
    const readFile = (p: string): string | null => {
      const n = /^h(\d+)\.h$/.exec(p);
      return n === null ? null : `#include "h${Number(n[1]) + 1}.h"\n`;
    };
    const r = pp('#include "h1.h"\n', { readFile });
    expect(diagnosticsOf(r)).toEqual(['E0511 h200.h:1:10 #include nested more than 200 levels deep']);
  });

  it('headers including each other twice, unguarded, stop at the bound on included text', () => {
    // h0 includes h1 twice, …, h29 the 1 MiB leaf twice: 2^30 MiB unbounded
    const leaf = `int leaf;${' '.repeat(1024 * 1024)}\n`;
    const readFile = (p: string): string | null => {
      const n = /^h(\d+)\.h$/.exec(p);
      if (n === null) return null;
      const k = Number(n[1]);
      return k === 30 ? leaf : `#include "h${k + 1}.h"\n#include "h${k + 1}.h"\n`;
    };
    const r = pp('#include "h0.h"\n', { readFile });
    expect(diagnosticsOf(r)).toEqual([
      `E0519 h29.h:2:10 including 'h30.h' passes the bound of ${MAX_INCLUDED_CHARS / (1024 * 1024)} MiB of included text in this file: no more files are included`,
    ]);
    expect(codeLines(r).length).toBe(Math.floor(MAX_INCLUDED_CHARS / leaf.length));
  });

  it('#include inside a macro call\'s arguments is an error', () => {
    const r = pp('#define F(x) x\nF(1\n#include "a.h"\n)\n', { files: { 'a.h': 'a' } });
    expect(diagnosticsOf(r)).toEqual(['E0513 k.cu:3:1 #include inside the arguments of a macro call']);
    expect(codeLines(r)).toEqual(['1']);
  });

  it('a file readFile fails on is an error, not an exception', () => {
    const r = pp('#include "a.h"\n', {
      readFile: () => {
        throw new Error('permission denied');
      },
    });
    expect(diagnosticsOf(r)).toEqual(["E0516 k.cu:1:10 cannot read 'a.h': permission denied"]);
  });

  it('a file the reader refuses is an error naming the include, never its text; __has_include says it is not there', () => {
    const readFile = (p: string): string | FileRefusal | null =>
      p === 'up/secret.h' ? { refused: 'outsideRoots' } : p === 'dir' ? { refused: 'directory' } : p === 'big.h' ? { refused: 'tooLarge', limitBytes: 4 * 1024 * 1024 } : null;
    const r = pp('#if __has_include("up/secret.h")\nyes\n#endif\n#include "up/secret.h"\n#include "dir"\n#include "big.h"\n', { readFile });
    expect(diagnosticsOf(r)).toEqual([
      "E0518 k.cu:4:10 'up/secret.h' is outside the include roots: not read",
      "E0516 k.cu:5:10 cannot read 'dir': dir is a directory",
      "E0516 k.cu:6:10 cannot read 'big.h': big.h is larger than 4 MiB",
    ]);
    expect(codeLines(r)).toEqual([]);
  });

  it('a macro defined in a header is known after the #include, and maps to its use in the main file', () => {
    const r = pp('#include "tile.h"\nint t = TILE;\n', { files: { 'tile.h': '#define TILE 32\n' } });
    expect(codeLines(r)).toEqual(['int t = 32;']);
    const loc = locateText(r, '32');
    expect(where(r, loc)).toBe("k.cu:2:9 'TILE' in TILE@2:9");
    expect(loc.spelling && where(r, { ...loc.spelling, expansions: [] })).toBe("tile.h:1:14 '32'");
  });

  it('text of an included file maps to that file', () => {
    const r = pp('#include "a.h"\nint b;\n', { files: { 'a.h': '\n  int a;\n' } });
    expect(where(r, locateText(r, 'int a;'))).toBe("a.h:2:3 'int a;'");
    expect(where(r, locateText(r, 'int b;'))).toBe("k.cu:2:1 'int b;'");
  });
});
