import { createCore, type Core, type CoreOptions } from '../../src/core/core';
import { sandboxDemoService } from '../../src/sandbox/demo-service';
import type { Channel, Envelope } from '../../src/shared/ipc';
import { tempDir } from './temp-dir';

/** A core on a fresh data folder, not syncing on its own, with every log line kept; demo mode syncs a small sandbox. */
export function testCore(options: Partial<CoreOptions> = {}): { core: Core; dataDir: string; logs: string[] } {
  const dataDir = options.dataDir ?? tempDir();
  const logs: string[] = [];
  const core = createCore({
    dataDir,
    appVersion: '0.0.0-test',
    autoSync: false,
    demo: sandboxDemoService({ seed: 'core-test', shipments: 60, latency: 'none' }),
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
