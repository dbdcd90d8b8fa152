/**
 * A recording stub of the model APIs, listening on 127.0.0.1 only. Every request is
 * kept (method, path, headers, decoded body) and answered with the minimal valid reply
 * of the first wire format (src/lib/wire) that answers it — Anthropic Messages (SSE or
 * JSON) on /v1/messages, OpenAI Responses (SSE or JSON) on /v1/responses — and with a
 * 404 JSON error otherwise.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync, inflateSync, zstdDecompressSync } from 'node:zlib';
import { WIRE_FORMATS, type StubReply, type WireFormat, type WireRequest } from '../../../src/lib/wire/index.ts';
import { pathOf } from '../../../src/lib/wire/shared.ts';

export interface RecordedRequest extends WireRequest {
  /** Order of arrival, from 0. */
  index: number;
  /** The body as text after undoing any content-encoding. */
  text: string;
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

/** The reply of the first of `formats` that answers `req`, else a 404 JSON error. */
export function stubReplyTo(
  req: RecordedRequest,
  formats: readonly WireFormat[] = Object.values(WIRE_FORMATS),
): StubReply {
  const path = pathOf(req.url);
  for (const format of formats) {
    const reply = format.stubReply({ method: req.method, path, json: req.json });
    if (reply) return reply;
  }
  return {
    status: 404,
    contentType: 'application/json',
    body: JSON.stringify({
      type: 'error',
      error: { type: 'not_found_error', message: `stub: no ${req.method} ${path}` },
    }),
  };
}

/**
 * Answers a request in place of the default reply (a scripted tool call, say); undefined
 * leaves the request to the default reply of its wire format.
 */
export type Answer = (req: RecordedRequest) => StubReply | undefined;

function reply(req: RecordedRequest, res: ServerResponse, answer?: Answer): void {
  const { status, contentType, body } = answer?.(req) ?? stubReplyTo(req);
  res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** One request as the stub keeps it: header values joined, the body decoded, and parsed when it is JSON. */
function recordOf(incoming: IncomingMessage, raw: Buffer, index: number): RecordedRequest {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(incoming.headers))
    if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
  let text: string;
  try {
    text = decodeBody(raw, headers['content-encoding']).toString('utf8');
  } catch (error) {
    text = `<undecodable body: ${(error as Error).message}>`;
  }
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { index, method: incoming.method ?? '', url: incoming.url ?? '', headers, text, json };
}

type Waiter = { predicate: (r: RecordedRequest) => boolean; resolve: (r: RecordedRequest) => void };

/** Resolves, and forgets, every waiter that `rec` satisfies. */
function resolveWaiters(waiters: Waiter[], rec: RecordedRequest): void {
  for (const w of [...waiters]) {
    if (w.predicate(rec)) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve(rec);
    }
  }
}

/** Starts the stub; `answer`, when given, is asked first for each request's reply. */
export async function startStub(answer?: Answer): Promise<Stub> {
  const requests: RecordedRequest[] = [];
  const waiters: Waiter[] = [];
  const server: Server = createServer((incoming: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (c: Buffer) => chunks.push(c));
    incoming.on('end', () => {
      const rec = recordOf(incoming, Buffer.concat(chunks), requests.length);
      requests.push(rec);
      // A waiter hears of a request once its reply has been sent in full.
      res.on('finish', () => resolveWaiters(waiters, rec));
      reply(rec, res, answer);
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
