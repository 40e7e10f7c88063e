import { randomUUID } from 'node:crypto';
import { createCore, type Core, type CoreOptions, type DemoService } from '../../src/core/core';
import { DEMO_API_KEY, type SandboxOptions } from '../../src/sandbox/index';
import type { Channel, Envelope } from '../../src/shared/ipc';
import { startTestSandbox } from './sandbox';
import { noRetryWait } from './sync';
import { tempDir } from './temp-dir';

/**
 * The demo account's service for tests: a test sandbox (a limit no test can spend, a clock that
 * moves only when told; with routing, as the app's demo account has) under a key of its own per
 * start, with the well-known demo key accepted too.
 */
export function testDemoService(options: SandboxOptions = {}): DemoService {
  return {
    async start() {
      const apiKey = options.apiKeys?.[0] ?? `${DEMO_API_KEY}-${randomUUID()}`;
      const sandbox = await startTestSandbox({
        seed: 'core-test',
        routing: true,
        apiKeys: [apiKey, DEMO_API_KEY],
        ...options,
      });
      return { url: sandbox.url, apiKey, close: () => sandbox.close() };
    },
  };
}

/** A core on a fresh data folder, not syncing on its own, its retries not waiting on the clock, with every log line kept; demo mode syncs a small test sandbox. */
export function testCore(options: Partial<CoreOptions> = {}): { core: Core; dataDir: string; logs: string[] } {
  const dataDir = options.dataDir ?? tempDir();
  const logs: string[] = [];
  const core = createCore({
    dataDir,
    appVersion: '0.0.0-test',
    autoSync: false,
    demo: testDemoService(),
    retryWait: noRetryWait,
    log: (message, error) =>
      logs.push(
        `${message} ${error instanceof Error ? `${error.message} ${error.stack ?? ''}` : JSON.stringify(error ?? '')}`,
      ),
    ...options,
  });
  return { core, dataDir, logs };
}

/** Calls a channel and returns its value, failing the test with main's error otherwise. */
export async function value<T = unknown>(core: Core, channel: Channel, arg?: unknown): Promise<T> {
  const envelope = await core.call(channel, arg);
  if (!envelope.ok) throw new Error(`${channel} failed: ${envelope.error.code} ${envelope.error.message}`);
  return envelope.value as T;
}

export async function failure(
  core: Core,
  channel: Channel,
  arg?: unknown,
): Promise<Extract<Envelope<unknown>, { ok: false }>['error']> {
  const envelope = await core.call(channel, arg);
  if (envelope.ok) throw new Error(`${channel} was expected to fail`);
  return envelope.error;
}

/** Starts a sync and waits for it to end. */
export async function syncNow(
  core: Core,
  mode: 'full' | 'incremental' | 'auto' = 'auto',
): Promise<{ state: string; error: string | null }> {
  await value(core, 'sync:start', { mode });
  for (let i = 0; i < 600; i++) {
    const status = await value<{ state: string; error: string | null }>(core, 'sync:status');
    if (status.state !== 'syncing') return status;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('sync did not finish');
}
