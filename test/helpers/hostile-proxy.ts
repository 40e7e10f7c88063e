/**
 * A hostile service for tests: an HTTP server on 127.0.0.1 in front of a sandbox (or of nothing),
 * which can answer a request itself, or forward it and rewrite the sandbox's answer. Items of
 * hardening tests drive the real core through it: looping `links.next`, bad dates, long
 * `Retry-After`, huge bodies, events left out of an include.
 *
 * Every request is recorded (method, path with query, headers) so a test can count what the
 * client sent and check what it sent it with.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';

/**
 * The requests that went to the API, not the document files a sync fetches through their
 * presigned links (without the key, and not counted as API requests).
 */
export function apiRequests(requests: readonly ProxiedRequest[]): ProxiedRequest[] {
  return requests.filter((r) => !r.url.startsWith('/files/'));
}

export interface ProxiedRequest {
  method: string;
  /** Path and query as the client sent them, e.g. "/v2/shipments?page%5Bsize%5D=100". */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** An answer the proxy sends instead of (or after rewriting) the upstream one. */
export interface ProxyAnswer {
  status: number;
  headers?: Record<string, string>;
  /** A string or an object (sent as JSON:API JSON); a function streams it chunk by chunk. */
  body?: string | object | ((res: ServerResponse) => void);
}

export interface ProxyUpstreamAnswer {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** The parsed JSON body, when the upstream sent JSON. */
  json: unknown;
}

export interface HostileProxyOptions {
  /** The sandbox's base URL (with /v2), or null for a proxy that answers everything itself. */
  upstream: string | null;
  /** Answer without asking upstream; return undefined to forward. */
  intercept?: (request: ProxiedRequest) => ProxyAnswer | undefined | Promise<ProxyAnswer | undefined>;
  /** Change upstream's answer; return undefined to pass it through as it was. */
  rewrite?: (
    request: ProxiedRequest,
    answer: ProxyUpstreamAnswer,
  ) => ProxyAnswer | undefined | Promise<ProxyAnswer | undefined>;
}

export interface HostileProxy {
  /** The base URL to give the client, e.g. http://127.0.0.1:5123/v2 (same path as upstream). */
  url: string;
  /** The proxy's origin, e.g. http://127.0.0.1:5123, for absolute links a test writes. */
  origin: string;
  requests: ProxiedRequest[];
  /** Swap the hooks between phases of a test. */
  set(hooks: Pick<HostileProxyOptions, 'intercept' | 'rewrite'>): void;
  close(): Promise<void>;
}

const JSON_API = 'application/vnd.api+json';

export async function startHostileProxy(options: HostileProxyOptions): Promise<HostileProxy> {
  let hooks: Pick<HostileProxyOptions, 'intercept' | 'rewrite'> = options;
  const upstream = options.upstream === null ? null : new URL(options.upstream);
  const requests: ProxiedRequest[] = [];
  let origin = '';

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(599, { 'content-type': 'text/plain' });
      res.end(`hostile proxy failed: ${String(error)}`);
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const request: ProxiedRequest = {
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      headers: req.headers,
      body: Buffer.concat(chunks).toString('utf8'),
    };
    requests.push(request);
    const own = await hooks.intercept?.(request);
    if (own) return send(res, own);
    if (!upstream) return send(res, { status: 404, body: { errors: [{ status: '404', title: 'Not Found' }] } });

    const target = new URL(request.url, upstream.origin);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined || name === 'host' || name === 'content-length') continue;
      headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    const response = await fetch(target, {
      method: request.method,
      headers,
      body: request.method === 'GET' || request.method === 'HEAD' ? undefined : request.body,
    });
    // Links the sandbox writes point at itself; a client following them must come back here.
    const text = (await response.text()).split(upstream.origin).join(origin);
    const answerHeaders: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      if (name !== 'content-length' && name !== 'content-encoding' && name !== 'transfer-encoding') {
        answerHeaders[name] = value;
      }
    });
    let json: unknown;
    try {
      json = text === '' ? undefined : JSON.parse(text);
    } catch {
      json = undefined;
    }
    const upstreamAnswer: ProxyUpstreamAnswer = { status: response.status, headers: answerHeaders, text, json };
    const changed = await hooks.rewrite?.(request, upstreamAnswer);
    send(res, changed ?? { status: response.status, headers: answerHeaders, body: text });
  }

  function send(res: ServerResponse, answer: ProxyAnswer): void {
    const headers: Record<string, string> = { ...answer.headers };
    const body = answer.body;
    if (typeof body === 'function') {
      res.writeHead(answer.status, { 'content-type': JSON_API, ...headers });
      body(res);
      return;
    }
    const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
    if (typeof body === 'object') headers['content-type'] ??= JSON_API;
    res.writeHead(answer.status, headers);
    res.end(text);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}${upstream ? upstream.pathname.replace(/\/$/, '') : '/v2'}`,
    origin,
    requests,
    set(next) {
      hooks = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A proxy for the whole file, started once and closed at the end. */
export function useHostileProxy(options: () => HostileProxyOptions): { get: () => HostileProxy } {
  let proxy: HostileProxy | undefined;
  beforeAll(async () => {
    proxy = await startHostileProxy(options());
  });
  afterAll(async () => {
    await proxy?.close();
  });
  return {
    get: () => {
      if (!proxy) throw new Error('proxy not started');
      return proxy;
    },
  };
}
