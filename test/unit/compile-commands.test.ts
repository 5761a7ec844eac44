/** Reading compile_commands.json: both spellings of a command, gcc's/clang's and nvcc's flags, paths from the entry's directory. */
import { posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileDatabaseOf, cudaFilesOf, shellWords, withDatabaseFlags } from '../../src/api/compile-commands.js';
import { UsageError } from '../../src/api/options.js';

const resolvePath = (directory: string, file: string): string => posix.resolve('/work', directory, file);
const db = (entries: unknown): ReturnType<typeof compileDatabaseOf> => compileDatabaseOf('cc.json', JSON.stringify(entries), resolvePath);

describe('compile_commands.json', () => {
  it('reads -I, -D, -U, -include and -std from a command string, with quotes and glued values', () => {
    const d = db([{ directory: '/p/build', file: '../src/k.cu', command: `nvcc -I../include -I "/opt/my lib/include" -DTILE=16 -D 'MSG="a b"' -UNDEBUG -include pre.h -std=c++17 -o k.o -c ../src/k.cu` }]);
    expect([...d.files.keys()]).toEqual(['/p/src/k.cu']);
    expect(d.files.get('/p/src/k.cu')).toEqual({
      directory: '/p/build',
      include: ['/p/include', '/opt/my lib/include'],
      define: ['TILE=16', 'MSG="a b"'],
      undefine: ['NDEBUG'],
      preInclude: ['/p/build/pre.h'],
      std: 'c++17',
    });
  });

  it("reads nvcc's long spellings from an arguments array, with = or a separate value", () => {
    const d = db([{ directory: 'b', file: 'k.cu', arguments: ['nvcc', '--include-path=inc', '--define-macro', 'N=4', '--undefine-macro=M', '--pre-include', 'p.h', '--std', 'c++14', '-c', 'k.cu'] }]);
    expect(d.files.get('/work/b/k.cu')).toMatchObject({ include: ['/work/b/inc'], define: ['N=4'], undefine: ['M'], preInclude: ['/work/b/p.h'], std: 'c++14' });
  });

  it('skips system directories and the values of flags that do not concern the preprocessor', () => {
    const d = db([{ directory: '/b', file: 'k.cu', command: 'nvcc -isystem /usr/local/cuda/include -o -Ifake.o -x cu -arch sm_80 -c k.cu' }]);
    expect(d.files.get('/b/k.cu')).toMatchObject({ include: [], define: [], preInclude: [] });
  });

  it('keeps the first entry of a file listed twice, and lists the .cu files sorted', () => {
    const d = db([
      { directory: '/b', file: 'z.cu', command: 'nvcc -DA -c z.cu' },
      { directory: '/b', file: 'host.cpp', command: 'c++ -c host.cpp' },
      { directory: '/b', file: 'a.cu', command: 'nvcc -c a.cu' },
      { directory: '/b', file: 'z.cu', command: 'nvcc -DB -c z.cu' },
    ]);
    expect(cudaFilesOf(d)).toEqual(['/b/a.cu', '/b/z.cu']);
    expect(d.files.get('/b/z.cu')!.define).toEqual(['A']);
  });

  it('puts the database flags before the command line, so that the command line wins', () => {
    const entry = db([{ directory: '/b', file: 'k.cu', command: 'nvcc -DN=1 -Iinc -c k.cu' }]).files.get('/b/k.cu');
    expect(withDatabaseFlags({ define: ['N=2'], include: ['/cli'] }, entry)).toMatchObject({ define: ['N=1', 'N=2'], include: ['/b/inc', '/cli'] });
    expect(withDatabaseFlags({ define: ['N=2'] }, undefined)).toEqual({ define: ['N=2'] });
  });

  it('says what is wrong with a malformed database, naming the entry', () => {
    expect(() => compileDatabaseOf('cc.json', '{', resolvePath)).toThrow(/cc\.json: not JSON/);
    expect(() => db({})).toThrow(/expected an array/);
    expect(() => db([{ directory: '/b', file: 'k.cu' }])).toThrow(/entry 1: needs "arguments"/);
    expect(() => db([{ directory: '/b', file: 'k.cu', command: 'nvcc -DX' }, { directory: 3, file: 'k.cu' }])).toThrow(/entry 2: "directory" and "file"/);
    expect(() => db([{ directory: '/b', file: 'k.cu', command: 'nvcc -I' }])).toThrow(/-I without a value/);
    expect(() => db([{ directory: '/b', file: 'k.cu', command: 'nvcc "-DX' }])).toThrow(UsageError);
  });

  it('splits shell words as POSIX sh does, without expansion', () => {
    expect(shellWords(`a 'b c' "d \\"e\\" \\$f" g\\ h  i`, 'here')).toEqual(['a', 'b c', 'd "e" $f', 'g h', 'i']);
  });
});
