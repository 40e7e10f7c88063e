/**
 * Bulk import: 1,000 rows (one in ten without a carrier, asked of infer_number)
 * checked, their carriers found and sent, against a sandbox whose create and infer_number buckets
 * keep the live service's counts (100 and 200 a window) over a window scaled to 3 s, with realistic
 * latency. Measured: the requests made against the least the rows need (one create per row, one
 * infer_number per row without a carrier), 429s, and the wall time against the bound the create
 * limit sets (the first 100 at once, then 100 a window).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ImportJob } from '../../src/core/import/import-job';
import { describeTable } from '../../src/core/import/table';
import { importLookups } from '../../src/core/import/lookups';
import { openSync } from '../../src/core/sync/open-sync';
import { DEMO_API_KEY, startSandbox } from '../../src/sandbox/index';
import { containerCheckDigit } from '../../src/shared/identifiers';
import { rateBucketOf } from '../../src/shared/rate-buckets';
import { measure, type Measure } from './report';

const ROWS = 1_000;
const WINDOW_SECONDS = 3;
const CREATES_PER_WINDOW = 100;

function container(owner: string, serial: number): string {
  const first10 = `${owner}${String(serial).padStart(6, '0')}`;
  return `${first10}${containerCheckDigit(first10)}`;
}

export async function benchImport(): Promise<Measure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'quayside-bench-import-'));
  const scaled = { windowSeconds: WINDOW_SECONDS };
  const sandbox = await startSandbox({
    seed: 'bench-import',
    shipments: 50,
    routing: false,
    latency: 'realistic',
    rateLimit: { limit: 100_000, windowSeconds: 60 },
    rateBuckets: {
      create_tracking_request: { limit: CREATES_PER_WINDOW, ...scaled },
      infer_number: { limit: 200, ...scaled },
    },
  });
  try {
    let creates = 0;
    let infers = 0;
    let limited = 0;
    const sync = openSync({
      dbPath: join(dir, 'import.sqlite'),
      baseUrl: sandbox.url,
      apiKey: DEMO_API_KEY,
      isolatedLimiter: true,
      rateLimit: { limit: 100_000, windowSeconds: 60 },
      rateBuckets: {
        create_tracking_request: { limit: CREATES_PER_WINDOW, ...scaled },
        infer_number: { limit: 200, ...scaled },
      },
      onRequest: (event) => {
        const bucket = rateBucketOf(event.method, event.path.split('?')[0]!);
        if (bucket === 'create_tracking_request') creates++;
        if (bucket === 'infer_number') infers++;
        if (event.status === 429) limited++;
      },
    });
    // The carriers the checks read: the reference lists of a full sync, not timed.
    await sync.engine.run({ mode: 'full' });
    const rows = [['Container #', 'SCAC']];
    for (let i = 0; i < ROWS; i++) {
      const owner = i % 2 === 0 ? 'MAEU' : 'MSCU';
      rows.push([container(owner, 500_000 + i), i % 10 === 9 ? '' : owner]);
    }
    const withoutCarrier = rows.slice(1).filter((r) => r[1] === '').length;
    const table = describeTable('bench', 'bench.csv', { rows, format: 'csv', sheet: null }, importLookups(sync.db));
    const job = new ImportJob({ id: 'bench', name: 'bench.csv', table: rows, db: sync.db, client: sync.client });
    const before = { creates, infers };
    const started = performance.now();
    job.preview(table.mapping);
    await job.infer();
    const inferredAt = performance.now();
    await job.send();
    const sendSeconds = (performance.now() - inferredAt) / 1000;
    const seconds = (performance.now() - started) / 1000;
    const state = job.state();
    sync.close();

    const requests = creates - before.creates + (infers - before.infers);
    const requestBound = ROWS + withoutCarrier;
    // The limit lets the first 100 creates go at once and 100 more every window; the infer_number
    // calls (100, within their own 200) fit in the first window before them.
    const timeBound = Math.max(0, Math.ceil(ROWS / CREATES_PER_WINDOW) - 1) * WINDOW_SECONDS;
    const label = `import 1,000 rows (creates ${CREATES_PER_WINDOW}/${WINDOW_SECONDS}s)`;
    return [
      measure(`${label}: rows created`, state.counts.created, 'rows', { atLeast: ROWS }),
      measure(`${label}: requests`, requests, 'requests', {
        below: requestBound + 1,
        anchor: {
          name: 'lower bound (a create per row, an infer_number per row without a carrier)',
          value: requestBound,
        },
      }),
      measure(`${label}: 429 responses`, limited, 'responses', { below: 1 }),
      // Checked, carriers asked (latency-bound: 100 answers, 16 at a time), then sent.
      measure(`${label}: wall time, preview to last result`, seconds, 's', {
        ratioBelow: 1.5,
        anchor: { name: 'bound the create limit sets', value: timeBound },
      }),
      // The limiter counts a slot a full window from its answer, so each window starts a little late.
      measure(`${label}: sending alone`, sendSeconds, 's', {
        ratioBelow: 1.3,
        anchor: { name: 'bound the create limit sets', value: timeBound },
      }),
    ];
  } finally {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
