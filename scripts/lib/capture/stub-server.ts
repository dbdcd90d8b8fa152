/**
 * A recording stub of the two model APIs, listening on 127.0.0.1 only. Every request is
 * kept (method, path, headers, decoded body) and answered with a minimal valid reply:
 * Anthropic Messages (SSE or JSON) on /v1/messages, OpenAI Responses (SSE) on
 * /v1/responses, a 404 JSON error elsewhere.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync, inflateSync, zstdDecompressSync } from 'node:zlib';
import { anthropicMessageJson, anthropicMessageSse, openaiResponseEvents, openaiResponseSse } from './sse.ts';

export interface RecordedRequest {
  /** Order of arrival, from 0. */
  index: number;
  method: string;
  /** Path and query as sent, e.g. `/v1/messages?beta=true`. */
  url: string;
  headers: Record<string, string>;
  /** The body as text after undoing any content-encoding. */
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: unknown;
}

export interface Stub {
  port: number;
  requests: RecordedRequest[];
  /** Resolves once a request matching `predicate` has been answered completely. */
  waitFor(predicate: (r: RecordedRequest) => boolean): Promise<RecordedRequest>;
  close(): Promise<void>;
}

export function decodeBody(raw: Buffer, encoding: string | undefined): Buffer {
  switch ((encoding ?? '').trim().toLowerCase()) {
    case '':
    case 'identity':
      return raw;
    case 'gzip':
      return gunzipSync(raw);
    case 'deflate':
      return inflateSync(raw);
    case 'br':
      return brotliDecompressSync(raw);
    case 'zstd':
      return zstdDecompressSync(raw);
    default:
      throw new Error(`unsupported content-encoding ${encoding}`);
  }
}

function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

function modelOf(json: unknown): string {
  const m = (json as { model?: unknown } | undefined)?.model;
  return typeof m === 'string' ? m : 'stub-model';
}

function reply(req: RecordedRequest, res: ServerResponse): void {
  const path = pathOf(req.url);
  const json = req.json as { stream?: unknown } | undefined;
  const send = (status: number, type: string, body: string): void => {
    res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };
  if (req.method === 'POST' && path === '/v1/messages/count_tokens') {
    send(200, 'application/json', JSON.stringify({ input_tokens: 1 }));
  } else if (req.method === 'POST' && path === '/v1/messages') {
    if (json?.stream === true) send(200, 'text/event-stream', anthropicMessageSse(modelOf(json)));
    else send(200, 'application/json', JSON.stringify(anthropicMessageJson(modelOf(json))));
  } else if (req.method === 'POST' && path === '/v1/responses') {
    if (json?.stream === false) {
      const completed = openaiResponseEvents(modelOf(json)).at(-1)![1] as { response: unknown };
      send(200, 'application/json', JSON.stringify(completed.response));
    } else send(200, 'text/event-stream', openaiResponseSse(modelOf(json)));
  } else {
    send(404, 'application/json', JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: `stub: no ${req.method} ${path}` } }));
  }
}

export async function startStub(): Promise<Stub> {
  const requests: RecordedRequest[] = [];
  const waiters: { predicate: (r: RecordedRequest) => boolean; resolve: (r: RecordedRequest) => void }[] = [];
  const server: Server = createServer((incoming: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (c: Buffer) => chunks.push(c));
    incoming.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(incoming.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
      let text: string;
      try {
        text = decodeBody(Buffer.concat(chunks), headers['content-encoding']).toString('utf8');
      } catch (error) {
        text = `<undecodable body: ${(error as Error).message}>`;
      }
      let json: unknown;
      try {
        json = text === '' ? undefined : JSON.parse(text);
      } catch {
        json = undefined;
      }
      const rec: RecordedRequest = { index: requests.length, method: incoming.method ?? '', url: incoming.url ?? '', headers, text, json };
      requests.push(rec);
      res.on('finish', () => {
        for (const w of [...waiters]) {
          if (w.predicate(rec)) {
            waiters.splice(waiters.indexOf(w), 1);
            w.resolve(rec);
          }
        }
      });
      reply(rec, res);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    requests,
    waitFor(predicate) {
      const seen = requests.find(predicate);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve) => waiters.push({ predicate, resolve }));
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
