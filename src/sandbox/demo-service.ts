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
      const sandbox = await startSandbox({
        seed: options.seed ?? 'demo',
        shipments: options.shipments ?? 300,
        latency: options.latency ?? 'realistic',
        routing: options.routing,
        failingPaths: options.failingPaths,
      });
      return { url: sandbox.url, apiKey: DEMO_API_KEY, close: () => sandbox.close() };
    },
  };
}
