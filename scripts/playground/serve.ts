/**
 * A static file server for the built playground, on loopback, with the
 * cross-origin isolation headers on every response (Z3 needs them), each
 * file compressed (brotli or gzip, as the browser accepts) and validated by
 * its ETag, so that a second visit downloads nothing that did not change; the
 * content-hashed assets are kept by the browser without asking again.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { promisify } from 'node:util';
import { ASSETS_DIR, IMMUTABLE, ISOLATION_HEADERS } from './build.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/** The file a URL path names inside `dir`, or null for a path that leaves it. */
export function fileOf(dir: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath.split('?')[0]!.split('#')[0]!);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const path = normalize(join(dir, decoded.endsWith('/') ? `${decoded}index.html` : decoded));
  const root = normalize(dir.endsWith(sep) ? dir : dir + sep);
  return path.startsWith(root) ? path : null;
}

export type Encoding = 'br' | 'gzip' | 'identity';

/** The encoding to send for an Accept-Encoding header: brotli, else gzip, else none (q=0 refuses one). */
export function encodingFor(accept: string | undefined): Encoding {
  const q = new Map<string, number>();
  for (const part of (accept ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (name === undefined || name === '') continue;
    const weight = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((w) => w !== undefined);
    q.set(name, weight === undefined ? 1 : Number(weight));
  }
  const accepted = (e: string): boolean => (q.get(e) ?? q.get('*') ?? 0) > 0;
  return accepted('br') ? 'br' : accepted('gzip') ? 'gzip' : 'identity';
}

interface Entry {
  readonly mtimeMs: number;
  readonly size: number;
  readonly etag: string;
  readonly bodies: Map<Encoding, Promise<Buffer>>;
  readonly raw: Buffer;
}

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** Compressed once per file version and kept; brotli at a middle quality (11 takes seconds on Z3's 30 MB). */
function encoded(entry: Entry, encoding: Encoding): Promise<Buffer> {
  let body = entry.bodies.get(encoding);
  if (body === undefined) {
    body =
      encoding === 'br'
        ? brotli(entry.raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 6, [constants.BROTLI_PARAM_SIZE_HINT]: entry.raw.length } })
        : encoding === 'gzip'
          ? gzipped(entry.raw, { level: 6 })
          : Promise.resolve(entry.raw);
    entry.bodies.set(encoding, body);
  }
  return body;
}

/** True when the request's If-None-Match names this ETag (or `*`). */
function notModified(req: IncomingMessage, etag: string): boolean {
  const header = req.headers['if-none-match'];
  if (header === undefined) return false;
  return header.split(',').some((t) => {
    const tag = t.trim().replace(/^W\//, '');
    return tag === '*' || tag === etag;
  });
}

/**
 * Serves `dir` on `host:port` (port 0: any free port); resolves once
 * listening. `isolated: false` leaves the isolation headers out, as a host
 * that was not told about them would (the page's service worker adds them).
 */
export function servePlayground(dir: string, port: number, host = '127.0.0.1', isolated = true): Promise<Server> {
  const cache = new Map<string, Entry>();
  const entryOf = async (path: string): Promise<Entry> => {
    const info = await stat(path);
    if (!info.isFile()) throw new Error('not a file');
    const known = cache.get(path);
    if (known !== undefined && known.mtimeMs === info.mtimeMs && known.size === info.size) return known;
    const raw = await readFile(path);
    const entry: Entry = { mtimeMs: info.mtimeMs, size: info.size, raw, etag: `"${createHash('sha256').update(raw).digest('base64url').slice(0, 22)}"`, bodies: new Map() };
    cache.set(path, entry);
    return entry;
  };
  const assets = normalize(join(dir, ASSETS_DIR, sep));
  const server = createServer((req, res) => {
    const path = fileOf(dir, req.url ?? '/');
    // a content-hashed asset never changes; anything else (index.html, sw.js) the browser keeps and asks again with its ETag (a 304 when unchanged)
    const caching = path?.startsWith(assets) === true ? IMMUTABLE : 'no-cache';
    const headers = { ...(isolated ? ISOLATION_HEADERS : {}), 'Cache-Control': caching, 'X-Content-Type-Options': 'nosniff' };
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { ...headers, Allow: 'GET, HEAD' }).end();
      return;
    }
    if (path === null) {
      res.writeHead(400, headers).end('bad path');
      return;
    }
    void entryOf(path)
      .then(async (entry) => {
        const encoding = encodingFor(req.headers['accept-encoding']);
        // one ETag per representation: the bytes differ with the encoding
        const etag = `${entry.etag.slice(0, -1)}-${encoding}"`;
        const common = { ...headers, ETag: etag, Vary: 'Accept-Encoding' };
        if (notModified(req, etag)) {
          res.writeHead(304, common).end();
          return;
        }
        const body = await encoded(entry, encoding);
        res.writeHead(200, {
          ...common,
          'Content-Type': TYPES[extname(path)] ?? 'application/octet-stream',
          'Content-Length': String(body.length),
          ...(encoding === 'identity' ? {} : { 'Content-Encoding': encoding }),
        });
        res.end(req.method === 'HEAD' ? undefined : body);
      })
      .catch(() => {
        if (!res.headersSent) res.writeHead(404, { ...headers, 'Content-Type': 'text/plain' }).end('not found');
      });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}
