/**
 * The sandbox's HTTP server: loopback only, token auth, the rolling-window rate limit,
 * latency and fault injection, then the JSON:API routes.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { SimClock } from './clock';
import type { FaultInjector } from './faults';
import { HttpError, JSON_API, type ApiError, type Reply, type RouteContext } from './http';
import type { BucketedRateLimits } from './rate-limit';
import { serveDocumentFile } from './routes/documents';
import { matchRoute } from './routes/index';
import type { SandboxShape } from './serialize';
import type { SandboxStore } from './store';

export interface SandboxStats {
  requests: number;
  byStatus: Record<string, number>;
  rateLimited: number;
  faults: number;
}

export interface ServerDeps {
  store: SandboxStore;
  clock: SimClock;
  apiKeys: ReadonlySet<string>;
  limiter: BucketedRateLimits;
  faults: FaultInjector;
  /** Milliseconds the next answer waits (0: none). */
  latency: () => number;
  /** The answers' shape (SandboxOptions.shape). */
  shape: SandboxShape;
  realNow: () => number;
  log?: (line: string) => void;
}

const maxBodyBytes = 1024 * 1024;

function errorReply(status: number, errors: ApiError[], headers: Record<string, string> = {}): Reply {
  return { status, body: { errors }, headers };
}

export function createSandboxServer(deps: ServerDeps): { server: Server; stats: SandboxStats; sockets: Set<Socket> } {
  const stats: SandboxStats = { requests: 0, byStatus: {}, rateLimited: 0, faults: 0 };
  const sockets = new Set<Socket>();

  function send(request: IncomingMessage, response: ServerResponse, reply: Reply, started: number, raw?: string): void {
    stats.byStatus[reply.status] = (stats.byStatus[reply.status] ?? 0) + 1;
    const headers: Record<string, string> = { ...reply.headers };
    let text = raw;
    if (text === undefined && reply.body !== undefined) text = JSON.stringify(reply.body);
    if (text !== undefined) headers['content-type'] = JSON_API;
    response.writeHead(reply.status, headers);
    response.end(text);
    deps.log?.(`${request.method} ${request.url} ${reply.status} ${Math.round(performance.now() - started)}ms`);
  }

  async function handle(request: IncomingMessage, response: ServerResponse, bodyText: string): Promise<void> {
    const started = performance.now();
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    // A document's presigned download link: storage, not the API (no key, no API latency or
    // limit, not counted); its signature is the permission.
    if (serveDocumentFile(deps.store, deps.clock.now(), url, request, response)) {
      deps.log?.(`${request.method} ${url.pathname} ${response.statusCode} (file)`);
      return;
    }
    stats.requests++;
    const delay = deps.latency();
    // Unref'd: a delay still running when the sandbox closes keeps no process alive.
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay).unref());
    const origin = `http://${request.headers.host ?? '127.0.0.1'}`;

    // `Token <key>` as the reference says; the live service also takes `Bearer <key>`.
    const auth = /^(?:Token|Bearer)\s+(.+)$/i.exec(request.headers.authorization ?? '');
    const key = auth?.[1]?.trim();
    if (!key || !deps.apiKeys.has(key)) {
      send(
        request,
        response,
        errorReply(401, [{ status: '401', title: 'Unauthorized', detail: 'Invalid or missing API token.' }]),
        started,
      );
      return;
    }
    const admitted = deps.limiter.take(key, request.method ?? 'GET', url.pathname, deps.realNow());
    if (!admitted.ok) {
      stats.rateLimited++;
      const windowSeconds = Math.round(admitted.windowMs / 1000);
      send(
        request,
        response,
        errorReply(
          429,
          [
            {
              status: '429',
              title: 'Too Many Requests',
              detail: `You've hit the limit of ${admitted.limit} requests per ${windowSeconds} seconds. Please try again in ${admitted.retryAfterSeconds} seconds.`,
            },
          ],
          { 'retry-after': String(admitted.retryAfterSeconds) },
        ),
        started,
      );
      return;
    }

    const fault = deps.faults.next(url.pathname, request.method);
    if (fault) stats.faults++;
    if (fault === 'reset') {
      request.socket.destroy();
      deps.log?.(`${request.method} ${request.url} reset`);
      return;
    }
    if (fault === 'timeout') {
      deps.log?.(`${request.method} ${request.url} hangs`);
      return; // never answered; close() ends the socket
    }
    if (fault === '500' || fault === '502' || fault === '503') {
      const titles = { '500': 'Internal Server Error', '502': 'Bad Gateway', '503': 'Service Unavailable' };
      send(request, response, errorReply(Number(fault), [{ status: fault, title: titles[fault] }]), started);
      return;
    }

    let reply: Reply;
    try {
      reply = route(request.method ?? 'GET', url, origin, bodyText, request.headers['content-type']);
    } catch (error) {
      if (error instanceof HttpError) reply = errorReply(error.status, error.errors, error.headers);
      else {
        deps.log?.(`sandbox error: ${(error as Error).stack ?? String(error)}`);
        reply = errorReply(500, [{ status: '500', title: 'Internal Server Error' }]);
      }
    }
    if (fault === 'malformed' && reply.body !== undefined) {
      const text = JSON.stringify(reply.body);
      send(
        request,
        response,
        { ...reply, status: 200 },
        started,
        text.slice(0, Math.max(1, Math.floor(text.length / 2))),
      );
      return;
    }
    send(request, response, reply, started);
  }

  function route(method: string, url: URL, origin: string, bodyText: string, contentType: string | undefined): Reply {
    const matched = matchRoute(method, url.pathname);
    if (matched === 'not_found') throw new HttpError(404, [{ status: '404', title: 'Not Found' }]);
    if (matched === 'method_not_allowed') {
      throw new HttpError(405, [
        { status: '405', title: 'Method Not Allowed', detail: `${method} is not allowed on ${url.pathname}` },
      ]);
    }
    let body: unknown = undefined;
    // Actions such as stop_tracking carry no body, and need no content type.
    if ((method === 'POST' || method === 'PATCH') && bodyText.trim() !== '') {
      const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
      if (type !== JSON_API && type !== 'application/json') {
        throw new HttpError(415, [
          {
            status: '415',
            title: 'Unsupported Media Type',
            detail: `Send the body as ${JSON_API} or application/json`,
          },
        ]);
      }
      if (bodyText.trim() !== '') {
        try {
          body = JSON.parse(bodyText);
        } catch {
          throw new HttpError(400, [
            { status: '400', title: 'Bad Request', detail: 'The request body is not valid JSON' },
          ]);
        }
      }
    }
    const context: RouteContext = {
      method,
      url,
      origin,
      params: matched.params,
      body,
      store: deps.store,
      ctx: { now: deps.clock.now(), account: deps.store.world.account, shape: deps.shape, origin },
    };
    return matched.route.handler(context);
  }

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBodyBytes) tooLarge = true;
      else chunks.push(chunk);
    });
    request.on('end', () => {
      if (tooLarge) {
        send(request, response, errorReply(413, [{ status: '413', title: 'Payload Too Large' }]), performance.now());
        return;
      }
      handle(request, response, Buffer.concat(chunks).toString('utf8')).catch((error: unknown) => {
        deps.log?.(`sandbox error: ${String(error)}`);
        if (!response.headersSent)
          send(request, response, errorReply(500, [{ status: '500', title: 'Internal Server Error' }]), 0);
      });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return { server, stats, sockets };
}
