/**
 * The stub-fill step of a sync: rows a page referenced but never included (a stub, `raw` NULL)
 * of each resource whose descriptor names a single-record path (`api.get`), fetched one by one
 * after the walks. Bounded (at most `FILL_PER_RUN` per resource per run), at background
 * priority within the limiter, three at once. Idempotent and resumable: a filled stub is no
 * longer a stub, so a cancelled run's next run asks only for what is left. A record the service
 * no longer has (404) stays a stub; any other failure ends the step for that resource without
 * failing the run (the request is in the request log; the next run tries again).
 */
import { ApiError } from '../api/errors';
import { stubFills } from '../resources';
import type { Db } from '../store/database';
import { stubIds } from '../store/queries/sync-plan';
import type { StoredResource } from '../store/resource';
import { writeResources } from '../store/writer';
import type { SyncClient } from './types';

/** At most this many records of one resource are fetched by id in one run. */
export const FILL_PER_RUN = 100;
const AT_ONCE = 3;

/** Progress step keys and labels of the fill steps, for the engine's step names. */
export const fillSteps: readonly (readonly [string, string])[] = stubFills.map((f) => [`fill:${f.resource}`, f.step]);

/** Stubs each fill step will ask for now (the plan's page estimate). */
export function pendingStubs(db: Db): number {
  return stubFills.reduce((n, f) => n + stubIds(db, f.resource, FILL_PER_RUN).length, 0);
}

export interface FillContext {
  db: Db;
  client: SyncClient;
  signal?: AbortSignal;
  now: () => Date;
  /** After each request: its step key and the records it wrote by type. */
  onFetched: (step: string, counts: Record<string, number>) => void;
}

/** Fetches the stubs of every `api.get` resource; returns how many requests failed (404s aside). */
export async function fillStubs(ctx: FillContext): Promise<number> {
  let failed = 0;
  for (const fill of stubFills) {
    const ids = stubIds(ctx.db, fill.resource, FILL_PER_RUN);
    const step = `fill:${fill.resource}`;
    let next = 0;
    let stopped = false;
    const worker = async () => {
      while (next < ids.length && !stopped) {
        const id = ids[next++]!;
        ctx.signal?.throwIfAborted();
        try {
          const doc = await ctx.client.get(fill.get.replace('{id}', encodeURIComponent(id)), {
            priority: 'background',
            signal: ctx.signal,
          });
          const records = [doc.data, ...doc.included].flat().filter(Boolean) as StoredResource[];
          ctx.onFetched(step, writeResources(ctx.db, records, { syncedAt: ctx.now().toISOString() }));
        } catch (error) {
          if (ctx.signal?.aborted) throw error;
          if (error instanceof ApiError && error.status === 404) {
            ctx.onFetched(step, {});
            continue;
          }
          // The service is unwell or refuses: leave the rest for the next run.
          failed++;
          stopped = true;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(AT_ONCE, ids.length) }, worker));
  }
  return failed;
}
