/**
 * The page's state in the URL's fragment, so that a link reproduces a
 * result: the file name (its extension picks the language), the kernel text
 * (deflated, base64url) and the options. The fragment never reaches a
 * server; a link made before an option existed holds that option's default.
 */
import type { OptionsText } from './protocol.js';

export interface PageState {
  readonly path: string;
  readonly text: string;
  readonly options: OptionsText;
  /** the faial-ts version that made the link, when it says (a link of another version may verify differently) */
  readonly version?: string;
}

export const DEFAULT_OPTIONS: OptionsText = { blockDim: '', gridDim: '', params: '', timeout: '10000', maxRaces: '20', warpSize: '', replay: true };

async function streamed(bytes: Uint8Array<ArrayBuffer>, stream: CompressionStream | DecompressionStream): Promise<Uint8Array<ArrayBuffer>> {
  const out = new Response(new Blob([bytes]).stream().pipeThrough(stream));
  return new Uint8Array(await out.arrayBuffer());
}

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64url(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

const OPTION_KEYS = { blockDim: 'block', gridDim: 'grid', params: 'params', timeout: 'timeout', maxRaces: 'races', warpSize: 'warp' } as const;

/** `#file=k.bcu&block=32&v=0.1.0&code=…`: options at their defaults are left out. */
export async function fragmentOf(state: PageState): Promise<string> {
  const code = base64url(await streamed(new TextEncoder().encode(state.text), new CompressionStream('deflate-raw')));
  const q = new URLSearchParams({ file: state.path });
  for (const [field, key] of Object.entries(OPTION_KEYS) as [keyof typeof OPTION_KEYS, string][]) {
    if (state.options[field] !== DEFAULT_OPTIONS[field]) q.set(key, state.options[field]);
  }
  if (!state.options.replay) q.set('replay', '0');
  if (state.version !== undefined) q.set('v', state.version);
  q.set('code', code);
  return `#${q.toString()}`;
}

/** The state a fragment holds, or null when it holds none (or a damaged one). */
export async function stateOf(fragment: string): Promise<PageState | null> {
  const q = new URLSearchParams(fragment.replace(/^#/, ''));
  const code = q.get('code');
  if (code === null) return null;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(await streamed(fromBase64url(code), new DecompressionStream('deflate-raw')));
  } catch {
    return null;
  }
  const options = { ...DEFAULT_OPTIONS };
  for (const [field, key] of Object.entries(OPTION_KEYS) as [keyof typeof OPTION_KEYS, string][]) {
    const value = q.get(key);
    if (value !== null) options[field] = value;
  }
  options.replay = q.get('replay') !== '0';
  const version = q.get('v');
  return { path: safeName(q.get('file') ?? 'kernel.bcu'), text, options, ...(version === null ? {} : { version }) };
}

/** A file name for reports: the last component only, nothing that looks like a path. */
export function safeName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  return /^[\w.-]{1,80}$/.test(base) && base !== '.' && base !== '..' ? base : 'kernel.bcu';
}
