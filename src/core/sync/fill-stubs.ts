/**
 * The stub-fill step of a sync: rows a page referenced but never included (a stub, `raw` NULL)
 * of each resource whose descriptor names a single-record path (`api.get`), fetched one by one
 * after the walks. Bounded (at most `FILL_PER_RUN` per resource per run), at background
 * priority within the limiter, three at once. Idempotent and resumable: a filled stub is no
 * longer a stub, so a cancelled run's next run asks only for what is left. A record the service
 * does not have (404, or an answer that is not that record) stays a stub and is not asked for
 * again for a week (kept under `fill-missing:<resource>`), so it neither costs requests on every
 * run nor keeps the stubs after it waiting; any other failure ends the step for that resource
 * without failing the run (the request is in the request log; the next run tries again).
 */
import { ApiError } from '../api/errors';
import { stubFills } from '../resources';
import type { Db } from '../store/database';
import { isStub, stubIds } from '../store/queries/sync-plan';
import { clearState, readState, writeState } from '../store/sync-state';
import type { StoredResource } from '../store/resource';
import { writeResources } from '../store/writer';
import type { SyncClient } from './types';

/** At most this many records of one resource are fetched by id in one run. */
export const FILL_PER_RUN = 100;
const AT_ONCE = 3;
/** A stub the service did not have is asked for again after this long. */
export const MISSING_RETRY_MS = 7 * 86_400_000;

/** Stubs the service did not have, by id, with when it last said so. */
type Missing = Record<string, string>;
const missingKey = (resource: string) => `fill-missing:${resource}`;

/** The stubs of `resource` to ask for now: at most FILL_PER_RUN, leaving out those recently missing. */
function stubsToAsk(db: Db, resource: (typeof stubFills)[number]['resource'], now: Date, missing: Missing): string[] {
  const recent = (id: string) => {
    const at = missing[id];
    return at !== undefined && now.getTime() - Date.parse(at) < MISSING_RETRY_MS;
  };
  return stubIds(db, resource, FILL_PER_RUN + Object.keys(missing).length)
    .filter((id) => !recent(id))
    .slice(0, FILL_PER_RUN);
}

/** Progress step keys and labels of the fill steps, for the engine's step names. */
export const fillSteps: readonly (readonly [string, string])[] = stubFills.map((f) => [`fill:${f.resource}`, f.step]);

/** Stubs each fill step will ask for now (the plan's page estimate). */
export function pendingStubs(db: Db): number {
  const now = new Date();
  return stubFills.reduce(
    (n, f) => n + stubsToAsk(db, f.resource, now, readState<Missing>(db, missingKey(f.resource)) ?? {}).length,
    0,
  );
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
    const missing = readState<Missing>(ctx.db, missingKey(fill.resource)) ?? {};
    const ids = stubsToAsk(ctx.db, fill.resource, ctx.now(), missing);
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
          // Found by another id, or not found at all: still a stub, so not asked for again soon.
          if (isStub(ctx.db, fill.resource, id)) missing[id] = ctx.now().toISOString();
          else delete missing[id];
        } catch (error) {
          if (ctx.signal?.aborted) throw error;
          if (error instanceof ApiError && error.status === 404) {
            missing[id] = ctx.now().toISOString();
            ctx.onFetched(step, {});
            continue;
          }
          // The service is unwell or refuses: leave the rest for the next run.
          failed++;
          stopped = true;
        }
      }
    };
    try {
      await Promise.all(Array.from({ length: Math.min(AT_ONCE, ids.length) }, worker));
    } finally {
      // Kept only while they may still be skipped.
      const now = ctx.now().getTime();
      const kept = Object.entries(missing).filter(([, at]) => now - Date.parse(at) < MISSING_RETRY_MS);
      if (kept.length > 0) writeState(ctx.db, missingKey(fill.resource), Object.fromEntries(kept));
      else clearState(ctx.db, missingKey(fill.resource));
    }
  }
  return failed;
}
