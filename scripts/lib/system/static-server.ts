/**
 * A tiny static server for a built site on 127.0.0.1, at a port the system picks:
 * independent of Astro, with gzip when the browser asks for it (as any real host
 * would; Lighthouse's simulated network counts wire bytes). The end-to-end tests
 * serve their builds with it, and the benchmark (scripts/bench.ts) both of its
 * sites.
 */
import { createServer, type Server } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import { gzipSync } from 'node:zlib';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.xml': 'application/xml',
  '.txt': 'text/plain; charset=utf-8',
  '.wasm': 'application/wasm',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};
/** Worth compressing; Pagefind's index files are gzipped already. */
const TEXT = /^(text\/|application\/(json|xml)|image\/svg)/;

/** The file a URL path names inside `root`, or undefined when it would leave it. */
export function fileFor(root: string, urlPath: string): string | undefined {
  let path: string;
  try {
    path = decodeURIComponent(urlPath.split('?')[0]!);
  } catch {
    return undefined;
  }
  if (path.endsWith('/')) path += 'index.html';
  const file = resolve(root, `.${path}`);
  return file === root || file.startsWith(root + sep) ? file : undefined;
}

export interface StaticServer {
  base: string;
  close(): Promise<void>;
}

export async function serveStatic(dir: string): Promise<StaticServer> {
  const root = resolve(dir);
  const server: Server = createServer((req, res) => {
    void (async () => {
      const wanted = fileFor(root, req.url ?? '/');
      if (wanted && (await stat(wanted).catch(() => undefined))?.isDirectory()) {
        res.writeHead(301, { location: `${req.url}/` }).end();
        return;
      }
      const found = wanted ? await readFile(wanted).catch(() => undefined) : undefined;
      const status = found ? 200 : 404;
      const file = found && wanted ? wanted : join(root, '404.html');
      let body = found ?? (await readFile(file).catch(() => Buffer.from('not found')));
      const type = TYPES[extname(file)] ?? 'application/octet-stream';
      const gzip = TEXT.test(type) && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
      if (gzip) body = gzipSync(body);
      res.writeHead(status, {
        'content-type': type,
        'content-length': body.length,
        'cache-control': 'no-cache',
        ...(gzip ? { 'content-encoding': 'gzip', vary: 'accept-encoding' } : {}),
      });
      res.end(req.method === 'HEAD' ? undefined : body);
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', ok);
  });
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('static server has no port');
  return {
    base: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
