/**
 * Urgent first: a first sync of 10k shipments within the limiter (100 requests
 * a window, the window scaled to 3 s as in the sync suite's limited runs), against a sandbox in its
 * own process with realistic latency. Measured: the requests made until every urgent box (a hold,
 * a last free day within 3 days, an arrival within 7) was stored, against the whole sync's.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { urgentContainerIds } from '../../src/core/store/queries/sync-plan';
import { openSync } from '../../src/core/sync/open-sync';
import { DEMO_API_KEY } from '../../src/sandbox/index';
import { measure, type Measure } from './report';
import { spawnSandbox } from './sandbox';

const DAY = 86_400_000;

export async function benchUrgentFirst(): Promise<Measure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'quayside-bench-urgent-'));
  const remote = await spawnSandbox([
    '--seed',
    'bench-urgent',
    '--shipments',
    '10000',
    '--rate-limit',
    '100/3',
    '--latency',
    'realistic',
  ]);
  try {
    // The request count when each container was first seen stored (checked after every request).
    const storedAt = new Map<string, number>();
    let requests = 0;
    const sync = openSync({
      dbPath: join(dir, 'urgent.sqlite'),
      baseUrl: remote.url,
      apiKey: DEMO_API_KEY,
      isolatedLimiter: true,
      rateLimit: { limit: 100, windowSeconds: 3 },
      onRequest: () => {
        requests++;
        for (const id of synced.all()) if (!storedAt.has(id)) storedAt.set(id, requests);
      },
    });
    const synced = sync.db.prepare<[], string>('SELECT id FROM containers WHERE synced_at IS NOT NULL').pluck();
    const summary = await sync.engine.run({ mode: 'full' });
    // The last request's page is written after its event: count it as stored by the end.
    for (const id of synced.all()) if (!storedAt.has(id)) storedAt.set(id, requests + 1);
    const now = Date.now();
    const urgent = urgentContainerIds(sync.db, {
      lfdBy: new Date(now + 3 * DAY).toISOString(),
      arrivingBy: new Date(now + 7 * DAY).toISOString(),
    });
    sync.close();
    const until = Math.max(0, ...urgent.map((id) => storedAt.get(id) ?? Infinity));
    return [
      measure(
        `urgent first: requests until all ${urgent.length} urgent boxes stored (10k shipments)`,
        until,
        'requests',
        {
          anchor: { name: `the whole first sync (${summary.status})`, value: summary.requests },
          ratioBelow: 0.25,
        },
      ),
    ];
  } finally {
    await remote.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
