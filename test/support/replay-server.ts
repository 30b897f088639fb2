/**
 * A local HTTP server that replays a service's answers and records every request: the server behind
 * `sourceFake` (the source tests) and the plugin benches, which run outside vitest (so no test hooks here).
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the fake received. */
export interface SeenRequest {
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** `GET`, `POST`, … */
  method: string;
  /** The request body as UTF-8 text (`''` without one): a form or JSON a source POSTs. */
  body: string;
}

/**
 * The fake's answer: status, content type, a body (a string or bytes — a cover picture — are sent as they are,
 * anything else as JSON), and extra response headers if any (`retry-after` on a 429).
 */
export type FakeAnswer = [status: number, contentType: string, body: unknown, headers?: Record<string, string>];

/**
 * `answer` gets the path and query, and the whole request (method, headers, body) for a source whose answer
 * depends on them (a token endpoint checking its Basic credentials); it may return a promise (a slow answer).
 */
export type ReplayAnswer = (path: string, query: URLSearchParams, request: SeenRequest) => FakeAnswer | Promise<FakeAnswer>;

export interface ReplayServer {
  /** Every request so far, oldest first. */
  readonly seen: SeenRequest[];
  /** `http://127.0.0.1:<port>`. */
  readonly baseUrl: string;
  close(): Promise<void>;
}

/** Starts the server on a free loopback port. */
export async function startReplayServer(answer: ReplayAnswer, seen: SeenRequest[] = []): Promise<ReplayServer> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request: SeenRequest = { path: url.pathname, query: url.searchParams, headers: req.headers, method: req.method ?? 'GET', body: Buffer.concat(chunks).toString('utf8') };
      seen.push(request);
      void Promise.resolve(answer(url.pathname, url.searchParams, request)).then(([status, type, body, headers]) => {
        if (!res.destroyed) res.writeHead(status, { ...headers, 'content-type': type }).end(typeof body === 'string' || body instanceof Uint8Array ? body : JSON.stringify(body));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    seen,
    baseUrl: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
