import { mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, resolve, sep } from 'node:path';
import { build } from 'esbuild';
import { createCore, type Core, type CoreOptions } from '../../../src/core/core';
import { securitySettings } from '../../../src/main/security';
import { sandboxDemoService } from '../../../src/sandbox/demo-service';

export interface TestHost {
  url: string;
  core: Core;
  close(): Promise<void>;
}

export interface TestHostOptions extends Partial<CoreOptions> {
  dataDir: string;
  /** The built renderer (`npm run build` writes out/renderer). */
  rendererDir?: string;
}

const projectRoot = resolve(import.meta.dirname, '../../..');
const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

let bridgeBundle: Promise<string> | undefined;
function bundleBridge(): Promise<string> {
  bridgeBundle ??= build({
    entryPoints: [resolve(import.meta.dirname, 'bridge.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
  }).then((result) => result.outputFiles[0]!.text);
  return bridgeBundle;
}

/**
 * Serves the built renderer and the real core's handlers on 127.0.0.1, in place of Electron:
 * `POST /__host/ipc` goes through the same dispatcher as the Electron binding, and
 * `/__host/events` streams core's events. The page gets the same CSP as in the app.
 */
export async function startTestHost(options: TestHostOptions): Promise<TestHost> {
  const rendererDir = resolve(options.rendererDir ?? resolve(projectRoot, 'out/renderer'));
  mkdirSync(options.dataDir, { recursive: true });
  // As in the app: with no account, the demo account syncs the sandbox (a spec may pass its own).
  // No answer delay: the renderer suite waits on the sync often (demo-mode latency has its own test).
  const core = createCore({ appVersion: '0.0.0-test', demo: sandboxDemoService({ latency: 'none' }), ...options });
  const bridge = await bundleBridge();
  const streams = new Set<ServerResponse>();
  const unsubscribe = core.events.subscribe((event, payload) => {
    const frame = `data: ${JSON.stringify({ event, payload })}\n\n`;
    for (const stream of streams) stream.write(frame);
  });

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      response.writeHead(500, { 'content-type': 'text/plain' });
      response.end(String(error));
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    if (path === '/__host/ipc' && request.method === 'POST') {
      const { channel, arg } = JSON.parse(await readBody(request)) as { channel: unknown; arg: unknown };
      const envelope = await core.call(channel, arg);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(envelope));
      return;
    }
    if (path === '/__host/events') {
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
      response.write(': connected\n\n');
      streams.add(response);
      // As Electron's IPC delivers every event sent after the page subscribed, a page subscribing
      // here must not miss a change made while its stream was connecting: it gets the current
      // sync status first (the page keeps the newest).
      void Promise.resolve(core.handlers['sync:status'](undefined)).then(
        (status) => response.write(`data: ${JSON.stringify({ event: 'sync:status', payload: status })}\n\n`),
        () => undefined,
      );
      request.on('close', () => streams.delete(response));
      return;
    }
    if (path === '/__host/bridge.js') {
      response.writeHead(200, { 'content-type': types['.js']! });
      response.end(bridge);
      return;
    }
    await serveRendererFile(rendererDir, path, response);
  }

  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    core,
    async close() {
      unsubscribe();
      for (const stream of streams) stream.end();
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
      await core.close();
    },
  };
}

async function serveRendererFile(rendererDir: string, path: string, response: ServerResponse): Promise<void> {
  const file = resolve(rendererDir, `.${path === '/' ? '/index.html' : decodeURIComponent(path)}`);
  if (!file.startsWith(rendererDir + sep)) {
    response.writeHead(404).end();
    return;
  }
  let body: Buffer;
  try {
    body = await readFile(file);
  } catch {
    response.writeHead(404).end();
    return;
  }
  const headers = {
    'content-type': types[extname(file)] ?? 'application/octet-stream',
    'content-security-policy': securitySettings.contentSecurityPolicy,
    'cache-control': 'no-store',
  };
  if (extname(file) === '.html') {
    // The bridge stands where the preload would: loaded before the app's module script.
    const html = body.toString('utf8').replace('<head>', '<head>\n    <script src="/__host/bridge.js"></script>');
    response.writeHead(200, headers).end(html);
    return;
  }
  response.writeHead(200, headers).end(body);
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((done, fail) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => done(Buffer.concat(chunks).toString('utf8')));
    request.on('error', fail);
  });
}
