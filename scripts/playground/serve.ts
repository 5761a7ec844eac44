/**
 * A static file server for the built playground, on loopback, with the
 * cross-origin isolation headers on every response (Z3 needs them).
 */
import { createServer, type Server } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { ISOLATION_HEADERS } from './build.js';

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

/**
 * Serves `dir` on `host:port` (port 0: any free port); resolves once
 * listening. `isolated: false` leaves the isolation headers out, as a host
 * that was not told about them would (the page must say what is wrong).
 */
export function servePlayground(dir: string, port: number, host = '127.0.0.1', isolated = true): Promise<Server> {
  const server = createServer((req, res) => {
    const headers = { ...(isolated ? ISOLATION_HEADERS : {}), 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff' };
    const path = fileOf(dir, req.url ?? '/');
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { ...headers, Allow: 'GET, HEAD' }).end();
      return;
    }
    if (path === null) {
      res.writeHead(400, headers).end('bad path');
      return;
    }
    void stat(path)
      .then(async (info) => {
        if (!info.isFile()) throw new Error('not a file');
        const body = await readFile(path);
        res.writeHead(200, { ...headers, 'Content-Type': TYPES[extname(path)] ?? 'application/octet-stream', 'Content-Length': String(body.length) });
        res.end(req.method === 'HEAD' ? undefined : body);
      })
      .catch(() => res.writeHead(404, { ...headers, 'Content-Type': 'text/plain' }).end('not found'));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}
