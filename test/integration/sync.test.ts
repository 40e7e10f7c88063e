import { rawEvents } from '../../src/core/resources/raw-events';
import { owesEvents } from '../../src/core/resources/containers';
import { describe, expect, it } from 'vitest';
import { countResources } from '../../src/core/store/sync-state';
import { readSyncLog } from '../../src/core/sync/sync-log';
import type { SyncProgress } from '../../src/core/sync/types';
import { startTestSandbox, useSandbox } from '../helpers/sandbox';
import { sandboxTotals, syncOf } from '../helpers/sync';

const DAY = 86_400;

describe('sync against the sandbox', () => {
  const requests: string[] = [];
  const sandbox = useSandbox({ seed: 'sync', shipments: 150, log: (line) => requests.push(line) });

  it('lands the whole account, with every container’s events and the reference data', async () => {
    const sync = syncOf(sandbox.get());
    requests.length = 0;
    const summary = await sync.engine.run({ mode: 'auto' });
    // The container pages carried every event: no container was asked for its events one by one.
    expect(requests.filter((line) => /\/v2\/containers\/[^/?\s]+\/transport_events/.test(line))).toEqual([]);
    expect(requests.filter((line) => line.includes('/v2/containers')).length).toBeGreaterThan(0);
    expect(summary).toMatchObject({ status: 'ok', mode: 'full', rateLimited: 0, error: null });
    const totals = sandboxTotals(sandbox.get());
    const counts = countResources(sync.db);
    expect(counts).toMatchObject({
      shipments: totals.shipments,
      containers: totals.containers,
      tracking_requests: totals.trackingRequests,
    });
    expect(counts.shipping_lines).toBeGreaterThan(15);
    expect(counts.parties).toBe(40);
    expect(counts.transport_events).toBeGreaterThan(totals.containers);
    expect(sync.db.prepare(`SELECT count(*) AS n FROM containers c WHERE ${owesEvents('c')}`).get()).toEqual({
      n: 0,
    });
    expect(sync.db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(sync.db.pragma('foreign_key_check')).toEqual([]);

    // A second full sync writes the same rows again and duplicates nothing; the carriers' raw
    // events, read a budget of boxes a run, only grow by the boxes read this time.
    const again = await sync.engine.run({ mode: 'full' });
    expect(again.status).toBe('ok');
    const { raw_events: rawAfter, ...rest } = countResources(sync.db);
    const { raw_events: rawBefore, ...before } = counts;
    expect(rest).toEqual(before);
    expect(rawAfter).toBeGreaterThan(rawBefore!);
    sync.close();
  });

  it('asks for tracking requests once when nothing changed, and picks up what time changed', async () => {
    const sync = syncOf(sandbox.get());
    await sync.engine.run({ mode: 'full' });
    requests.length = 0;
    const quiet = await sync.engine.run({ mode: 'incremental' });
    expect(quiet.status).toBe('ok');
    expect(requests.filter((line) => line.includes('/v2/tracking_requests')).length).toBe(1);
    const shipmentPages = requests.filter((line) => line.includes('/v2/shipments')).length;
    // And whether the account has a webhook that hears every change (the change feed): no, so the
    // webhooks are asked once and not again for six hours.
    expect(requests.filter((line) => line.includes('/v2/webhooks')).length).toBe(1);
    // Beside them, the raw events of boxes not read yet, at most the budget a run.
    const rawLists = () => requests.filter((line) => line.includes('/raw_events')).length;
    expect(rawLists()).toBeLessThanOrEqual(rawEvents.api!.under!.budget);
    expect(quiet.requests).toBe(1 + shipmentPages + 1 + rawLists());
    requests.length = 0;
    const quieter = await sync.engine.run({ mode: 'incremental' });
    expect(requests.filter((line) => line.includes('/v2/webhooks'))).toEqual([]);
    expect(quieter.requests).toBe(1 + shipmentPages + rawLists());

    const eventsBefore = countResources(sync.db).transport_events!;
    sandbox.get().advance(4 * DAY);
    const moved = await sync.engine.run({ mode: 'incremental' });
    expect(moved.status).toBe('ok');
    expect(countResources(sync.db).transport_events).toBeGreaterThan(eventsBefore);
    expect(sync.db.prepare(`SELECT count(*) AS n FROM containers c WHERE ${owesEvents('c')}`).get()).toEqual({
      n: 0,
    });
    sync.close();
  });

  it('reports progress with a total from meta.total and an ETA', async () => {
    const seen: SyncProgress[] = [];
    const sync = syncOf(sandbox.get(), { onProgress: (p) => seen.push(p) });
    await sync.engine.run({ mode: 'full' });
    const last = seen[seen.length - 1]!;
    expect(last.pagesDone).toBe(last.pagesTotal);
    expect(last.etaSeconds).toBe(0);
    expect(seen.map((p) => p.step)).toEqual(
      expect.arrayContaining(['Tracking requests', 'Shipments still tracking', 'Containers and their events']),
    );
    expect(seen.every((p, i) => i === 0 || p.pagesDone >= seen[i - 1]!.pagesDone)).toBe(true);
    sync.close();
  });

  it('cancels cleanly and resumes where it stopped, losing and duplicating nothing', async () => {
    const controller = new AbortController();
    let pages = 0;
    const sync = syncOf(sandbox.get(), {
      onProgress: () => {
        if (++pages === 4) controller.abort();
      },
    });
    const cancelled = await sync.engine.run({ mode: 'full', signal: controller.signal });
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.error?.message).toMatch(/resume/);
    const resumed = await sync.engine.run({ mode: 'full' });
    expect(resumed.status).toBe('ok');
    const totals = sandboxTotals(sandbox.get());
    expect(countResources(sync.db)).toMatchObject({
      shipments: totals.shipments,
      containers: totals.containers,
      tracking_requests: totals.trackingRequests,
    });
    expect(readSyncLog(sync.db).map((e) => e.status)).toEqual(['ok', 'cancelled']);
    expect(sync.db.pragma('integrity_check', { simple: true })).toBe('ok');
    sync.close();
  });
});

describe('sync under faults', () => {
  const sandbox = useSandbox({ seed: 'faulty', shipments: 80 });

  it('rides out a 500, a reset, a hang and a broken body in the middle of paging', async () => {
    let page = 0;
    const sync = syncOf(sandbox.get(), {
      timeoutMs: 300,
      onProgress: () => {
        page++;
        if (page === 2) sandbox.get().injectFault('500');
        if (page === 3) sandbox.get().injectFault('reset');
        if (page === 4) sandbox.get().injectFault('timeout');
        if (page === 5) sandbox.get().injectFault('malformed');
      },
    });
    const summary = await sync.engine.run({ mode: 'full' });
    expect(summary.status).toBe('ok');
    const totals = sandboxTotals(sandbox.get());
    expect(countResources(sync.db)).toMatchObject({ shipments: totals.shipments, containers: totals.containers });
    sync.close();
  });

  it('fails with a clear error when the service keeps failing, keeping what it had and its place', async () => {
    const sync = syncOf(sandbox.get(), { timeoutMs: 200 });
    let armed = true;
    let pagesDone = 0;
    const failing = syncOf(sandbox.get(), {
      dbPath: sync.dbPath,
      onProgress: (p) => {
        // Once a page of tracking requests is in, the service starts failing every request.
        const pageLanded = p.pagesDone > pagesDone;
        pagesDone = p.pagesDone;
        if (armed && pageLanded && p.step === 'Tracking requests') {
          armed = false;
          sandbox.get().setFaults({ '503': 1 });
        }
      },
    });
    const failed = await failing.engine.run({ mode: 'full' });
    sandbox.get().setFaults({});
    expect(failed.status).toBe('failed');
    expect(failed.error?.code).toBe('upstream');
    expect(failed.error?.message).not.toMatch(/quayside-demo-key/);
    const partial = countResources(failing.db);
    expect(partial.tracking_requests).toBeGreaterThan(0);
    const resumed = await failing.engine.run({ mode: 'full' });
    expect(resumed.status).toBe('ok');
    expect(failing.db.pragma('integrity_check', { simple: true })).toBe('ok');
    failing.close();
    sync.close();
  });

  it('says the disk is full, and keeps the rows already written', async () => {
    const sync = syncOf(sandbox.get());
    await sync.engine.run({ mode: 'full' });
    const before = countResources(sync.db);
    // Cap the file at its current size: the next write that needs a page fails as on a full disk.
    const pages = sync.db.pragma('page_count', { simple: true }) as number;
    sync.db.pragma(`max_page_count = ${pages}`);
    sandbox.get().advance(20 * DAY);
    const summary = await sync.engine.run({ mode: 'full' });
    expect(summary.status).toBe('failed');
    expect(summary.error).toMatchObject({ code: 'disk_full', message: expect.stringMatching(/disk is full/) });
    expect(countResources(sync.db)).toEqual(before);
    expect(sync.db.pragma('integrity_check', { simple: true })).toBe('ok');
    sync.close();
  });

  it('says a read-only database cannot be written', async () => {
    const sync = syncOf(sandbox.get());
    sync.db.pragma('query_only = ON');
    const summary = await sync.engine.run({ mode: 'full' });
    expect(summary).toMatchObject({ status: 'failed', error: { code: 'read_only' } });
    sync.close();
  });
});

describe('sync and the rate limit', () => {
  // How much of the allowance a sync uses is a speed figure: `npm run bench` measures it (the
  // window in use while requests wait), not a timed test on a machine that may be busy.
  it('never draws a 429 from a server enforcing the same limit', async () => {
    const sandbox = await startTestSandbox({
      seed: 'limit',
      shipments: 200,
      rateLimit: { limit: 20, windowSeconds: 1 },
    });
    try {
      const sync = syncOf(sandbox, { rateLimit: { limit: 20, windowSeconds: 1 } });
      const summary = await sync.engine.run({ mode: 'full' });
      expect(summary.status).toBe('ok');
      // More requests than two windows allow: the limiter had to pace them.
      expect(summary.requests).toBeGreaterThan(40);
      expect(sandbox.stats.rateLimited).toBe(0);
      expect(summary.rateLimited).toBe(0);
      sync.close();
    } finally {
      await sandbox.close();
    }
  });

  it('recovers from a 429 storm when the server allows less than the client thinks', async () => {
    const sandbox = await startTestSandbox({
      seed: 'storm',
      shipments: 60,
      rateLimit: { limit: 10, windowSeconds: 1 },
    });
    try {
      const sync = syncOf(sandbox, { rateLimit: { limit: 1000, windowSeconds: 60 } });
      const summary = await sync.engine.run({ mode: 'full' });
      expect(summary.status).toBe('ok');
      expect(summary.rateLimited).toBeGreaterThan(0);
      expect(countResources(sync.db).shipments).toBe(60);
      sync.close();
    } finally {
      await sandbox.close();
    }
  });
});
