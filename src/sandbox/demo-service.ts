import { randomUUID } from 'node:crypto';
import { DEMO_API_KEY, startSandbox, type SandboxOptions } from './index';

/**
 * The sandbox as the demo account's service (core's `DemoService`): main, the CLI and the test
 * hosts hand this to createCore, so core itself never imports the sandbox. It answers with the
 * live service's delays (`latency: 'realistic'`) unless told otherwise: tests pass `none`.
 */
export function sandboxDemoService(
  options: Pick<SandboxOptions, 'seed' | 'shipments' | 'latency' | 'routing' | 'failingPaths'> = {},
): {
  start(): Promise<{ url: string; apiKey: string; close(): Promise<void> }>;
} {
  return {
    async start() {
      // A key of its own for each demo service started: the client keeps one limiter per key per
      // process, and a new sandbox is a new service with a fresh window (test hosts start many in
      // one process). The well-known demo key is accepted too, for tools that talk to it directly.
      const apiKey = `${DEMO_API_KEY}-${randomUUID()}`;
      const sandbox = await startSandbox({
        apiKeys: [apiKey, DEMO_API_KEY],
        seed: options.seed ?? 'demo',
        shipments: options.shipments ?? 300,
        latency: options.latency ?? 'realistic',
        routing: options.routing,
        failingPaths: options.failingPaths,
      });
      return { url: sandbox.url, apiKey, close: () => sandbox.close() };
    },
  };
}
