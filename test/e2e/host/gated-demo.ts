import { createServer, request as forward, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DemoService } from '../../../src/core/demo-service';
import { DEMO_API_KEY, startSandbox } from '../../../src/sandbox/index';

export interface GatedDemo {
  /** The demo service to give the test host (`startTestHost({ demo })`). */
  demo: DemoService;
  /** Resolves once the first request has reached the gate (and waits there). */
  held: Promise<void>;
  /** Lets every held and later request through to the sandbox. */
  open(): void;
}

/**
 * The sandbox behind a closed gate, on 127.0.0.1: the demo account's first sync starts, and its
 * requests wait at the gate until the test opens it, so a test sees the app before the first
 * sync has landed, as long as it needs to, and then after: on state, never on time.
 */
export function gatedDemo(
  options: {
    seed?: string;
    shipments?: number;
    /** Requests that go through while the gate is closed (`held` waits for the first other one). */
    passes?: (path: string) => boolean;
  } = {},
): GatedDemo {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let reached!: () => void;
  const held = new Promise<void>((resolve) => (reached = resolve));
  const demo: DemoService = {
    async start() {
      const sandbox = await startSandbox({ seed: options.seed ?? 'demo', shipments: options.shipments ?? 60 });
      const upstream = new URL(sandbox.url);
      const server: Server = createServer((req, res) => {
        const through = options.passes?.(decodeURIComponent(req.url ?? '')) === true;
        if (!through) reached();
        void (through ? Promise.resolve() : gate).then(() => {
          const out = forward(
            { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers },
            (answer) => {
              res.writeHead(answer.statusCode ?? 502, answer.headers);
              answer.pipe(res);
            },
          );
          out.on('error', () => res.destroy());
          req.pipe(out);
        });
      });
      await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
      const { port } = server.address() as AddressInfo;
      return {
        url: `http://127.0.0.1:${port}${upstream.pathname}`,
        apiKey: DEMO_API_KEY,
        async close() {
          server.closeAllConnections();
          await new Promise<void>((done) => server.close(() => done()));
          await sandbox.close();
        },
      };
    },
  };
  return { demo, held, open: () => open() };
}
