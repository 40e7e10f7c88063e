import { join } from 'node:path';
import { openSync, type OpenSync, type OpenSyncOptions } from '../../src/core/sync/open-sync';
import { DEMO_API_KEY, type Sandbox } from '../../src/sandbox/index';
import { unspendableLimit } from './sandbox';
import { tempDir } from './temp-dir';

/**
 * The client's wait before a retry, without the clock: the retry comes on the next turn of the
 * loop (an aborted wait still throws). Tests about the backoff's length record their own.
 */
export function noRetryWait(_ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason as Error);
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * A sync of a sandbox into a fresh database, with a private limiter that has a test sandbox's
 * unspendable limit in every bucket and retries that do not wait on the clock; a test about a
 * limit or a backoff sets its own.
 */
export function syncOf(sandbox: Sandbox, options: Partial<OpenSyncOptions> = {}): OpenSync & { dbPath: string } {
  const dbPath = options.dbPath ?? join(tempDir(), 'sync.sqlite');
  const sync = openSync({
    baseUrl: sandbox.url,
    apiKey: DEMO_API_KEY,
    isolatedLimiter: true,
    rateLimit: unspendableLimit,
    rateBuckets: {
      create_tracking_request: unspendableLimit,
      infer_number: unspendableLimit,
      refresh_container: unspendableLimit,
    },
    timeoutMs: 2000,
    retryWait: noRetryWait,
    ...options,
    dbPath,
  });
  return { ...sync, dbPath };
}

/** What the sandbox knows right now, to compare a synced database against. */
export function sandboxTotals(sandbox: Sandbox): { shipments: number; containers: number; trackingRequests: number } {
  const now = sandbox.clock.now();
  return {
    shipments: sandbox.store.shipments.filter((s) => s.createdAt <= now).length,
    containers: sandbox.store.containers.filter((c) => c.createdAt <= now).length,
    trackingRequests: sandbox.store.trackingRequests.filter((r) => r.createdAt <= now).length,
  };
}
