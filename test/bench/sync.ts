import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rawEvents } from '../../src/core/resources/raw-events';
import { openDatabase } from '../../src/core/store/database';
import type { StoredResource } from '../../src/core/store/resource';
import { writeResources } from '../../src/core/store/writer';
import { clearState, readState } from '../../src/core/store/sync-state';
import { FEED_LAST_KEY, webhooksChanged } from '../../src/core/sync/feed';
import { openSync } from '../../src/core/sync/open-sync';
import { knownMilestones } from '../../src/sandbox/state';
import { DEMO_API_KEY, startSandbox, type Sandbox } from '../../src/sandbox/index';
import { pageRows, sqliteAloneWrites } from './anchors';
import { spawnSandbox } from './sandbox';
import { withPeakRss } from './memory';
import { measure, percentile, type Measure } from './report';

const SHIPMENTS = 10_000;
const RAW_EVENTS_BUDGET = rawEvents.api!.under!.budget;
const PAGE = 100;

function pagesOf(n: number): number {
  return Math.ceil(n / PAGE);
}

export function lowerBound(sandbox: Sandbox): number {
  const now = sandbox.clock.now();
  const requests = sandbox.store.trackingRequests.filter((r) => r.createdAt <= now).length;
  // Reference lists (shipping lines, parties, custom field definitions) + one walk of each list.
  const lists =
    3 + pagesOf(requests) + pagesOf(sandbox.store.shipments.length) + pagesOf(sandbox.store.containers.length);
  // Custom fields: each record type's values, and the options of each pick-list definition.
  const values = (type: 'shipment' | 'container' | 'tracking_request') =>
    pagesOf([...sandbox.store.customFields.all(type, now)].length);
  const options = sandbox.store.world.customFieldDefinitions.filter((d) => d.dataType === 'enum').length;
  const documents = sandbox.store.world.documents.filter((d) => d.createdAt <= now);
  const emails = sandbox.store.world.emailSubmissions.filter((m) => m.createdAt <= now).length;
  // Each document type's schema is served by id only: one request per type in use. Document
  // files cost no request: each document carries its presigned link.
  const schemas = new Set(documents.map((d) => d.documentType)).size;
  // The carriers' raw events: one request a box, at most the descriptor's budget a run.
  const rawEventLists = Math.min(RAW_EVENTS_BUDGET, sandbox.store.containers.length);
  return (
    rawEventLists +
    lists +
    values('shipment') +
    values('container') +
    values('tracking_request') +
    options +
    pagesOf(documents.length) +
    pagesOf(emails) +
    schemas
  );
}

export async function benchSync(): Promise<Measure[]> {
  const measures: Measure[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'quayside-bench-'));
  const trackingRequestCalls: string[] = [];
  const downloadUrlCalls: string[] = [];
  const sandbox = await startSandbox({
    seed: 'bench-sync',
    shipments: SHIPMENTS,
    rateLimit: { limit: 1_000_000, windowSeconds: 60 },
    log: (line) => {
      if (line.includes('/v2/tracking_requests')) trackingRequestCalls.push(line);
      if (line.includes('/download_url')) downloadUrlCalls.push(line);
    },
  });
  try {
    // Full sync, unthrottled: how many requests, against the least a full walk can take.
    const sync = openSync({
      dbPath: join(dir, 'full.sqlite'),
      baseUrl: sandbox.url,
      apiKey: DEMO_API_KEY,
      isolatedLimiter: true,
      rateLimit: { limit: 1_000_000, windowSeconds: 60 },
    });
    const bound = lowerBound(sandbox);
    const { result: full, peakMb: syncPeak } = await withPeakRss(() => sync.engine.run({ mode: 'full' }));
    measures.push(
      measure('full sync 10k shipments: requests', full.requests, 'requests', {
        below: Math.floor(1.1 * bound) + 1,
        anchor: { name: 'lower bound', value: bound },
      }),
    );
    measures.push(measure('full sync: requests / lower bound', full.requests / bound, 'x', { below: 1.1 }));
    measures.push(
      measure(
        'full sync: ingest rate (resources written)',
        Object.values(full.counts).reduce((a, b) => a + b, 0) / (full.durationMs / 1000),
        'rows/s',
        {},
      ),
    );
    measures.push(measure('full sync: peak RSS', syncPeak, 'MB', {}));
    // Documents: every file kept within the default size setting, none asked for by a
    // request of its own (the lower bound above counts the documents list and the type schemas).
    const keptFiles = full.counts.document_file ?? 0;
    measures.push(measure('full sync: document files kept', keptFiles, 'files', {}));
    measures.push(
      measure('full sync: document bytes downloaded', (full.counts.document_file_bytes ?? 0) / 1024 / 1024, 'MB', {}),
    );
    measures.push(
      measure('full sync: requests for document file links', downloadUrlCalls.length, 'requests', { below: 1 }),
    );

    // Incremental right away: nothing changed on tracking requests.
    trackingRequestCalls.length = 0;
    await sync.engine.run({ mode: 'incremental' });
    measures.push(
      measure('incremental, nothing changed: tracking request requests', trackingRequestCalls.length, 'requests', {
        below: 2,
      }),
    );

    // Incremental after a day of simulated time.
    const t0 = sandbox.clock.now();
    sandbox.advance(86_400);
    const t1 = sandbox.clock.now();
    const changedContainers = sandbox.store.containers.filter(
      (c) => knownMilestones(c, t1).length !== knownMilestones(c, t0).length,
    ).length;
    const active = sandbox.store.shipments.filter((s) => s.stoppedByUserAt === null).length;
    const incremental = await sync.engine.run({ mode: 'incremental' });
    // Boxes whose raw events are still owed (never read) or changed: at most the budget.
    const incrementalBound =
      1 + pagesOf(active) + Math.min(changedContainers, pagesOf(sandbox.store.containers.length)) + RAW_EVENTS_BUDGET;
    measures.push(
      measure('incremental after 1 simulated day: requests', incremental.requests, 'requests', {
        below: Math.floor(1.1 * incrementalBound) + 1,
      }),
    );
    measures.push(
      measure('incremental: requests / bound', incremental.requests / incrementalBound, 'x', { below: 1.1 }),
    );

    // The change feed: the account gets a webhook that hears every event; one
    // incremental run anchors the feed (and walks). Then 15 simulated minutes (the app's default
    // interval) pass, and the same local copy syncs twice: through the feed, and (a copy with the
    // anchor dropped) by walking every still-tracking shipment.
    const hook = await fetch(`${sandbox.url}/webhooks`, {
      method: 'POST',
      headers: { authorization: `Token ${DEMO_API_KEY}`, 'content-type': 'application/vnd.api+json' },
      body: JSON.stringify({
        data: { type: 'webhook', attributes: { url: 'https://hooks.example.com/bench', active: true } },
      }),
    });
    if (hook.status !== 201) throw new Error(`webhook not created: ${hook.status}`);
    // As Settings → Webhooks does when it makes one: the next run looks for it (the runs above
    // found none, and would not look again for hours).
    webhooksChanged(sync.db);
    await sync.engine.run({ mode: 'incremental' });
    sandbox.advance(15 * 60);
    sync.db.pragma('wal_checkpoint(TRUNCATE)');
    copyFileSync(join(dir, 'full.sqlite'), join(dir, 'walk.sqlite'));
    const walkSync = openSync({
      dbPath: join(dir, 'walk.sqlite'),
      baseUrl: sandbox.url,
      apiKey: DEMO_API_KEY,
      isolatedLimiter: true,
      rateLimit: { limit: 1_000_000, windowSeconds: 60 },
    });
    clearState(walkSync.db, 'feed:anchor');
    const viaFeed = await sync.engine.run({ mode: 'incremental' });
    const viaWalk = await walkSync.engine.run({ mode: 'incremental' });
    const feedUsed = readState<{ used: boolean }>(sync.db, FEED_LAST_KEY)?.used === true;
    walkSync.close();
    measures.push(
      measure('incremental 15 min on, webhook feed: requests', viaFeed.requests, 'requests', {
        below: viaWalk.requests,
        anchor: { name: 'same sync walking', value: viaWalk.requests },
      }),
    );
    measures.push(
      measure('webhook feed: requests saved (walk / feed)', viaWalk.requests / Math.max(1, viaFeed.requests), 'x', {
        // Not used (a feed that could not be trusted) fails the figure rather than pass unseen.
        atLeast: feedUsed ? 1.2 : Infinity,
      }),
    );
    sync.close();

    // Page writes: a page of 100 shipments with their containers, ports and terminals. A hundred
    // pages (the account's every shipment): the p95 of twenty was the slowest of them, the first
    // page's (its statements prepared) on one side and any hiccup of the machine on the other.
    const docs = [];
    for (let page = 1; page <= 100; page++) {
      const response = await fetch(
        `${sandbox.url}/shipments?page[size]=100&page[number]=${page}&include=containers,pod_terminal,port_of_lading,port_of_discharge,destination,destination_terminal`,
        {
          headers: { authorization: `Token ${DEMO_API_KEY}` },
        },
      );
      docs.push(JSON.parse(await response.text()) as { data: StoredResource[]; included: StoredResource[] });
    }
    const pages = docs.map((doc) => [...doc.data, ...doc.included]);
    const db = openDatabase(join(dir, 'pages.sqlite'));
    const times: number[] = [];
    let rows = 0;
    for (const resources of pages) {
      const started = performance.now();
      writeResources(db, resources, { syncedAt: new Date().toISOString() });
      times.push(performance.now() - started);
      rows += resources.length;
    }
    // The anchor: SQLite alone writing the rows those pages left, into a new store.
    const alone = sqliteAloneWrites(join(dir, 'pages-alone.sqlite'), pageRows(db, pages));
    db.close();
    for (const p of [50, 95]) {
      measures.push(
        measure(`write a page of 100 shipments + containers, p${p}`, percentile(times, p), 'ms', {
          // 20 ms was set where the writer took 13 ms and did about 2.2x SQLite's own inserts
          // (as it does here): SQLite alone ~6 ms, so 20 ms is ~3.4x it; 3x is that, a little
          // stricter (docs/ARCHITECTURE.md "Benchmarks").
          ratioBelow: 3,
          below: 20,
          anchor: { name: 'SQLite alone, same rows', value: percentile(alone, p) },
        }),
      );
    }
    measures.push(measure('page writes: ingest rate', rows / (times.reduce((a, b) => a + b, 0) / 1000), 'rows/s', {}));
  } finally {
    await sandbox.close();
  }

  // Under scaled limits, against a server in its own process enforcing the same limit, in the
  // live service's shapes and with the demo's realistic latency (30-300 ms, one answer in 50
  // taking 1-3 s): no 429s, and the share of the allowed rate the sync uses while work is queued.
  for (const windowSeconds of [3, 10]) {
    const remote = await spawnSandbox([
      '--seed',
      'bench-limit',
      '--shipments',
      '8000',
      '--rate-limit',
      `100/${windowSeconds}`,
      '--latency',
      'realistic',
    ]);
    try {
      const starts: number[] = [];
      const sync = openSync({
        dbPath: join(dir, `limited-${windowSeconds}.sqlite`),
        baseUrl: remote.url,
        apiKey: DEMO_API_KEY,
        isolatedLimiter: true,
        rateLimit: { limit: 100, windowSeconds },
        onRequest: (e) => starts.push(performance.now() - e.durationMs),
      });
      // Whenever requests wait for the limiter, how much of the window is in use: a limiter that
      // leaves slots idle while work waits wastes the allowance.
      const queuedUse: number[] = [];
      const sampler = setInterval(() => {
        const snapshot = sync.limiter.snapshot();
        if (snapshot.queued.user + snapshot.queued.background > 0)
          queuedUse.push(snapshot.usedInWindow / snapshot.limit);
      }, 20);
      const started = performance.now();
      const summary = await sync.engine.run({ mode: 'full' });
      clearInterval(sampler);
      const seconds = (performance.now() - started) / 1000;
      // The limit lets the first 100 go at once and 100 more every window.
      const boundSeconds = Math.max(0, Math.ceil(summary.requests / 100) - 1) * windowSeconds;
      // While work is queued: from the first request to the last one's start (after it, nothing waits).
      const queuedSeconds = (Math.max(...starts) - Math.min(...starts)) / 1000;
      const label = `limit 100/${windowSeconds}s`;
      measures.push(measure(`${label}: 429 responses`, summary.rateLimited, 'responses', { below: 1 }));
      measures.push(measure(`${label}: sync wall time (${summary.requests} requests)`, seconds, 's', {}));
      measures.push(measure(`${label}: wall-time bound the limit sets`, boundSeconds, 's', {}));
      measures.push(
        measure(
          `${label}: share of the allowed rate used, end to end`,
          Math.min(1, boundSeconds / seconds) * 100,
          '%',
          {},
        ),
      );
      measures.push(
        measure(
          `${label}: share of the allowed rate used, first to last request`,
          Math.min(1, boundSeconds / queuedSeconds) * 100,
          '%',
          {},
        ),
      );
      const queuedShare =
        queuedUse.length === 0 ? 100 : (queuedUse.reduce((a, b) => a + b, 0) / queuedUse.length) * 100;
      measures.push(
        measure(`${label}: window in use while requests wait (${queuedUse.length} samples)`, queuedShare, '%', {
          atLeast: 95,
        }),
      );
      sync.close();
    } finally {
      await remote.stop();
    }
  }
  rmSync(dir, { recursive: true, force: true });
  return measures;
}
