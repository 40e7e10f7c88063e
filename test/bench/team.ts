/**
 * The team suite: a hub syncs a 10k-shipment sandbox account and publishes it into a throwaway
 * PostgreSQL (`helpers/postgres-cluster.ts`), then ten laptops pull their first copy at once,
 * each a `sync --hub` process of its own, from the primary and then from a streaming replica the
 * suite starts. Figures: the API requests of the whole team (one account's sync, not ten); a
 * laptop's first pull against the same sync walking the API at the live limit (the request lower
 * bound at 100 a minute); PostgreSQL's bytes per shipment; the hub's extra time for publishing,
 * on the first run and on an incremental one after a simulated day. Skips with the reason where
 * PostgreSQL is missing.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { openSync } from '../../src/core/sync/open-sync';
import { hubAddress } from '../../src/core/team/address';
import { ensureSchema } from '../../src/core/team/schema';
import { Publisher } from '../../src/core/team/publisher';
import { DEMO_API_KEY, startSandbox } from '../../src/sandbox/index';
import { startPostgresOrSkip, startReplica } from '../helpers/postgres-cluster';
import { measure, percentile, type Measure } from './report';
import { lowerBound } from './sync';

const SHIPMENTS = 10_000;
const LAPTOPS = 10;
/** The live service's limit: requests a minute. */
const LIVE_LIMIT = 100;
const cliMain = resolve(import.meta.dirname, '../../src/cli/main.ts');

interface PullJson {
  status: string;
  duration_ms: number;
  counts: Record<string, number>;
}

/** One laptop: `sync --hub URL --db PATH --json` in a process of its own; its summary and wall time. */
function laptop(url: string, dbPath: string): Promise<{ pull: PullJson; wallMs: number }> {
  const started = performance.now();
  return new Promise((done, fail) => {
    const child = spawn(
      process.execPath,
      [...process.execArgv, cliMain, 'sync', '--hub', url, '--db', dbPath, '--json'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.once('exit', (code) => {
      if (code !== 0) return fail(new Error(`a laptop's pull exited with ${code}: ${err.trim()}`));
      const last = out.trim().split('\n').pop() ?? '';
      done({ pull: JSON.parse(last) as PullJson, wallMs: performance.now() - started });
    });
  });
}

async function maxSeq(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const rows = await client.query<{ seq: string }>(
      'SELECT coalesce(max(seq), 0)::text AS seq FROM quayside.published',
    );
    return rows.rows[0]!.seq;
  } finally {
    await client.end();
  }
}

/**
 * What publishing adds to a hub's run: judged against the run as the hub makes it, at the live
 * limit (its requests at 100 a minute, or its time here if longer); the share of the unthrottled
 * run here, where the sandbox answers at once, is reported beside it.
 */
function publishShare(run: string, sync: { durationMs: number; requests: number }, publishMs: number): Measure[] {
  const liveMs = Math.max(sync.durationMs, (sync.requests / LIVE_LIMIT) * 60_000);
  return [
    measure(`hub ${run} run: publishing / the run at the live limit`, publishMs / liveMs, 'x', { below: 0.25 }),
    measure(`hub ${run} run: publishing / the run unthrottled`, publishMs / sync.durationMs, 'x', {}),
    measure(`hub ${run} run: sync unthrottled (${sync.requests} requests)`, sync.durationMs / 1000, 's', {}),
    measure(`hub ${run} run: publish`, publishMs / 1000, 's', {}),
  ];
}

export async function benchTeam(): Promise<Measure[]> {
  const postgres = await startPostgresOrSkip('the team suite');
  if (!postgres) return [];
  const measures: Measure[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'quayside-bench-team-'));
  const sandbox = await startSandbox({
    seed: 'bench-team',
    shipments: SHIPMENTS,
    rateLimit: { limit: 1_000_000, windowSeconds: 60 },
  });
  let replica: Awaited<ReturnType<typeof startReplica>> | null = null;
  try {
    const url = await postgres.createDatabase('team');
    const address = hubAddress(url);
    const client = new pg.Client(address.config);
    await client.connect();
    await ensureSchema(client, address.display);

    // The hub: one sync, unthrottled, then its publish.
    const hubDb = join(dir, 'hub.sqlite');
    const sync = openSync({
      dbPath: hubDb,
      baseUrl: sandbox.url,
      apiKey: DEMO_API_KEY,
      isolatedLimiter: true,
      rateLimit: { limit: 1_000_000, windowSeconds: 60 },
    });
    const bound = lowerBound(sandbox);
    const full = await sync.engine.run({ mode: 'full' });
    const firstPublish = await new Publisher(sync.db, client, address.display).publish();
    measures.push(...publishShare('first', full, firstPublish.durationMs));
    const [size] = (
      await client.query<{ bytes: string }>(
        `SELECT (pg_total_relation_size('quayside.published') + pg_total_relation_size('quayside.meta'))::text AS bytes`,
      )
    ).rows;
    measures.push(measure('PostgreSQL bytes per shipment', Number(size!.bytes) / SHIPMENTS, 'B', {}));

    // A simulated day later: the hub's incremental run and what publishing adds to it.
    sandbox.advance(86_400);
    const incremental = await sync.engine.run({ mode: 'incremental' });
    const nextPublish = await new Publisher(sync.db, client, address.display).publish();
    measures.push(...publishShare('incremental', incremental, nextPublish.durationMs));
    await client.end();
    const hubRequests = full.requests + incremental.requests;

    // Ten laptops at once, from the primary, then from a streaming replica that has caught up.
    const walkSeconds = (bound / LIVE_LIMIT) * 60;
    const requestsBefore = sandbox.stats.requests;
    replica = await startReplica(postgres.port);
    const standby = replica.url('team');
    const target = await maxSeq(url);
    while ((await maxSeq(standby)) !== target) await new Promise((r) => setTimeout(r, 200));
    // One laptop alone: a laptop's first sync on its own machine, judged against walking.
    const alone = await laptop(url, join(dir, 'alone.sqlite'));
    if (alone.pull.status !== 'ok' || alone.pull.counts.shipment !== SHIPMENTS) throw new Error('the lone pull failed');
    const aloneSeconds = alone.pull.duration_ms / 1000;
    measures.push(
      measure('one laptop alone: first pull', aloneSeconds, 's', {
        anchor: { name: 'the same sync walking at 100 req/min (request lower bound)', value: walkSeconds },
        ratioBelow: 1 / 20,
      }),
      measure('one laptop alone: walking / pull', walkSeconds / aloneSeconds, 'x', { atLeast: 20 }),
    );
    // Ten at once, each a process, on this machine's cores: the hub's PostgreSQL serving a team,
    // each pull sharing the CPU with nine others (figures under load, reported).
    for (const [where, from] of [
      ['primary', url],
      ['replica', standby],
    ] as const) {
      const runs = await Promise.all(
        Array.from({ length: LAPTOPS }, (_, i) => laptop(from, join(dir, `${where}-${i}.sqlite`))),
      );
      const failed = runs.filter((r) => r.pull.status !== 'ok' || r.pull.counts.shipment !== SHIPMENTS);
      if (failed.length > 0)
        throw new Error(`${failed.length} laptops did not pull the whole account from the ${where}`);
      const pulls = runs.map((r) => r.pull.duration_ms / 1000);
      const slowest = Math.max(...pulls);
      measures.push(
        measure(`10 laptops at once from the ${where}: slowest first pull`, slowest, 's', {
          anchor: { name: 'the same sync walking at 100 req/min (request lower bound)', value: walkSeconds },
        }),
        measure(`10 laptops from the ${where}: first pull p50`, percentile(pulls, 50), 's', {}),
        measure(`10 laptops from the ${where}: walking / slowest pull`, walkSeconds / slowest, 'x', {}),
        measure(
          `10 laptops from the ${where}: slowest process, start to end`,
          Math.max(...runs.map((r) => r.wallMs)) / 1000,
          's',
          {},
        ),
      );
    }
    const laptopRequests = sandbox.stats.requests - requestsBefore;
    measures.push(
      measure('team API requests (hub sync + 21 laptop pulls), first run', full.requests + laptopRequests, 'requests', {
        below: Math.floor(1.1 * bound) + 1,
        anchor: { name: "one account's sync (request lower bound)", value: bound },
      }),
      measure('laptop pulls: API requests', laptopRequests, 'requests', { below: 1 }),
      measure('hub: API requests, first and incremental run', hubRequests, 'requests', {}),
    );
    sync.close();
  } finally {
    await replica?.stop().catch(() => undefined);
    await sandbox.close();
    await postgres.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return measures;
}
