/**
 * The language server's settings, as a client sends them (the
 * `initializationOptions` of `initialize`, then the `faial-ts` section of
 * `workspace/configuration`): the command line's launch, warp, preprocessor
 * and solver options, and when to verify. A field of the wrong type or value
 * is left at its default and named in a problem the server shows the user;
 * it never stops the server.
 */
import { dimOf, naturalOf, UsageError } from '../api/options.js';
import { DEFAULT_RLIMIT, DEFAULT_TIMEOUT_MS, SOLVER_NAMES, type SolverName } from '../solve/solver.js';

export interface LspSettings {
  /** `N`, `X,Y,Z` or `[X,Y,Z]`, as `--block-dim` takes it; null: every size */
  readonly blockDim: string | null;
  readonly gridDim: string | null;
  /** lockstep warps of this many threads (`--warp-size`, pre-sm_70); null: independent threads */
  readonly warpSize: number | null;
  /** -D, -U, -I for CUDA files; -I relative to the workspace */
  readonly define: readonly string[];
  readonly undefine: readonly string[];
  readonly include: readonly string[];
  /** a compile_commands.json whose entry for a file gives its flags; relative to the workspace */
  readonly compileCommands: string | null;
  readonly solver: SolverName;
  readonly rlimit: number;
  readonly timeoutMs: number;
  readonly maxRaces: number;
  /** also prove, for each barrier of a DRF kernel, whether removing it keeps the kernel DRF (`verify --barriers`) */
  readonly barriers: boolean;
  /** how long typing must pause before a changed document is verified */
  readonly debounceMs: number;
  /** a document longer than this (in UTF-16 code units) is verified on open and save only, not as it changes */
  readonly maxChangeSize: number;
}

export const DEFAULT_SETTINGS: LspSettings = {
  blockDim: null,
  gridDim: null,
  warpSize: null,
  define: [],
  undefine: [],
  include: [],
  compileCommands: null,
  solver: 'portfolio',
  rlimit: DEFAULT_RLIMIT,
  timeoutMs: DEFAULT_TIMEOUT_MS,
  maxRaces: 20,
  barriers: false,
  debounceMs: 400,
  maxChangeSize: 200_000,
};

type Field = keyof LspSettings;

/** The settings `raw` gives over `base`, and what was wrong with the fields that were left as they were. */
export function settingsOf(raw: unknown, base: LspSettings = DEFAULT_SETTINGS): { readonly settings: LspSettings; readonly problems: readonly string[] } {
  if (raw === null || raw === undefined) return { settings: base, problems: [] };
  if (typeof raw !== 'object' || Array.isArray(raw)) return { settings: base, problems: ['faial-ts settings: expected an object'] };
  const given = raw as Partial<Record<Field, unknown>>;
  const problems: string[] = [];
  const out: Record<string, unknown> = { ...base };
  const take = (field: Field, read: (v: unknown) => unknown): void => {
    const v = given[field];
    if (v === undefined) return;
    try {
      out[field] = read(v);
    } catch (e) {
      problems.push(`faial-ts settings: ${field}: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
  const dim = (option: string) => (v: unknown): string | null => {
    if (v === null || v === '') return null;
    const text = Array.isArray(v) ? `[${v.join(',')}]` : typeof v === 'number' ? String(v) : stringOf(v);
    dimOf(text, option);
    return text;
  };
  take('blockDim', dim('blockDim'));
  take('gridDim', dim('gridDim'));
  take('warpSize', (v) => (v === null ? null : naturalOf(String(v), 'warpSize', 1)));
  take('define', stringsOf);
  take('undefine', stringsOf);
  take('include', stringsOf);
  take('compileCommands', (v) => (v === null || v === '' ? null : stringOf(v)));
  take('solver', (v) => {
    const name = SOLVER_NAMES.find((s) => s === v);
    if (name === undefined) throw new UsageError(`expected one of ${SOLVER_NAMES.join(', ')}`);
    return name;
  });
  take('rlimit', (v) => naturalOf(String(v), 'rlimit', 1));
  take('timeoutMs', (v) => naturalOf(String(v), 'timeoutMs', 1));
  take('maxRaces', (v) => naturalOf(String(v), 'maxRaces', 1));
  take('barriers', (v) => {
    if (typeof v !== 'boolean') throw new UsageError('expected true or false');
    return v;
  });
  take('debounceMs', (v) => naturalOf(String(v), 'debounceMs', 0));
  take('maxChangeSize', (v) => naturalOf(String(v), 'maxChangeSize', 0));
  return { settings: out as unknown as LspSettings, problems };
}

function stringOf(v: unknown): string {
  if (typeof v !== 'string') throw new UsageError('expected a string');
  return v;
}

function stringsOf(v: unknown): string[] {
  if (!Array.isArray(v)) throw new UsageError('expected a list of strings');
  return v.map(stringOf);
}
