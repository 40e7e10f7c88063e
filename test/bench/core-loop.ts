/**
 * Never stall the app, measured where the app feels it: the e2e test host (the
 * real `createCore`, its IPC served over HTTP on 127.0.0.1 through the same `dispatch` as the
 * Electron binding) runs in this process, so `monitorEventLoopDelay` here is the delay of the
 * process that hosts the core, and each IPC call crosses a real boundary (HTTP, JSON both ways).
 * - during a full sync of the demo account (the sandbox in its own process at a lower priority,
 *   as a service elsewhere would be, and no rate limit, so the client's own work shows): the
 *   core's event-loop delay p99 and an IPC round trip's p95 (`sync:status`, what the renderer
 *   asks most, every 10 ms, asked from a process of its own over a message channel, as the
 *   renderer asks: `ipc-asker.ts`);
 * - over a 100k-shipment database: the delay while `export:list` writes every shipment, and while
 *   a query is typed a character at a time (each keystroke: the list's first page, its count and
 *   the Ctrl+K search, as the renderer asks them): the loop's delay, and each keystroke's answer,
 *   judged in absolute time (p95 and the slowest) with the machine's load average beside it.
 * Each delay is printed beside an anchor measured in the same run: the same monitor over a loop
 * that only runs 2 ms tasks, one per turn (the machine's own scheduling noise under its load).
 */
import { fork } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { rateLimiterFor } from '../../src/core/api/rate-limiter';
import { DEMO_API_KEY } from '../../src/sandbox/index';
import { startTestHost, type TestHost } from '../e2e/host/server';
import { buildBigDatabaseApart } from './big-database';
import type { AskerAnswer, AskerMessage } from './ipc-asker';
import { measure, percentile, type Anchor, type Measure } from './report';
import { spawnSandbox } from './sandbox';

const root = resolve(import.meta.dirname, '../..');
const SYNC_SHIPMENTS = 2_000;
const BIG = 100_000;

/** A monitor of this process's event loop, in ms. */
function loopMonitor() {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  return {
    stop() {
      histogram.disable();
      return { p99: histogram.percentile(99) / 1e6, max: histogram.max / 1e6 };
    },
  };
}

/**
 * The anchor: the delay p99 of this loop busy with nothing but 2 ms tasks, one per turn, for
 * `ms`: what the machine's load alone does to a loop whose every task is short.
 */
async function idleLoopAnchor(ms = 3_000): Promise<Anchor> {
  const monitor = loopMonitor();
  const end = performance.now() + ms;
  while (performance.now() < end) {
    const until = performance.now() + 2;
    while (performance.now() < until) {
      // busy: a short task, as the core's steps should be
    }
    await nextTurn();
  }
  return { name: 'this loop running only 2 ms tasks, same run', value: monitor.stop().p99 };
}

async function ipc(host: TestHost, channel: string, arg?: unknown): Promise<{ ms: number; result: unknown }> {
  const started = performance.now();
  const response = await fetch(new URL('__host/ipc', host.url), {
    method: 'POST',
    body: JSON.stringify({ channel, arg }),
  });
  const envelope = (await response.json()) as { ok: boolean; value?: unknown; error?: { message: string } };
  const ms = performance.now() - started;
  if (!envelope.ok) throw new Error(`${channel}: ${envelope.error?.message}`);
  return { ms, result: envelope.value };
}

/**
 * Runs ipc-asker.ts as a child with an IPC channel: each message it sends goes to the core's
 * dispatcher (`core.call`, as Electron's `ipcMain.handle` binding does) and the envelope goes back
 * on the channel. It starts a full sync and times `sync:status` until it ends.
 */
async function askFromAnotherProcess(
  host: TestHost,
): Promise<{ idle: number[]; trips: number[]; lastRun: string | null }> {
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm')).href;
  const child = fork(resolve(root, 'test/bench/ipc-asker.ts'), [], {
    execArgv: ['--import', tsx],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let result: Extract<AskerMessage, { kind: 'result' }> | undefined;
  child.on('message', (message: AskerMessage) => {
    if (message.kind === 'result') {
      result = message;
      return;
    }
    void host.core.call(message.channel, message.arg).then((envelope) => {
      if (child.connected) child.send({ id: message.id, envelope } satisfies AskerAnswer);
    });
  });
  const code = await new Promise<number | null>((done) => child.once('exit', done));
  if (code !== 0 || !result) throw new Error(`the IPC asker exited with ${code}${result ? '' : ', no result sent'}`);
  return result;
}

async function duringSync(dir: string): Promise<Measure[]> {
  // The service runs on other machines than the app: here its stand-in shares the bench's cores,
  // so it runs at a lower priority (nice 10) and takes from the core and the asker only the CPU
  // they leave (at the same priority, its page serving was ~1.3 ms of the round trip's p95).
  const remote = await spawnSandbox(
    ['--seed', 'bench-loop', '--shipments', String(SYNC_SHIPMENTS), '--rate-limit', '1000000/60'],
    { nice: 10 },
  );
  // The demo key's limiter in this process, made before the session asks for it: no limit, as the service's.
  rateLimiterFor(DEMO_API_KEY, { limit: 1_000_000, windowMs: 60_000 });
  const host = await startTestHost({
    dataDir: join(dir, 'sync'),
    autoSync: false,
    demo: { start: () => Promise.resolve({ url: remote.url, apiKey: DEMO_API_KEY, close: () => Promise.resolve() }) },
  });
  try {
    const anchor = await idleLoopAnchor();
    await ipc(host, 'sync:status');
    const monitor = loopMonitor();
    // The renderer asks from a process of its own: so does the bench (ipc-asker.ts).
    const asked = await askFromAnotherProcess(host);
    const loop = monitor.stop();
    if (asked.lastRun !== 'ok') throw new Error(`the sync ended ${asked.lastRun ?? 'without a run'}`);
    return [
      measure(`full sync ${SYNC_SHIPMENTS / 1000}k (app session): core event-loop delay p99`, loop.p99, 'ms', {
        below: 20,
        anchor,
      }),
      measure(`full sync ${SYNC_SHIPMENTS / 1000}k (app session): core event-loop delay max`, loop.max, 'ms', {}),
      measure(
        `full sync ${SYNC_SHIPMENTS / 1000}k: IPC round trip p95 (sync:status from another process over a message channel, ${asked.trips.length} calls)`,
        percentile(asked.trips, 95),
        'ms',
        {
          // Judged on the issue's 10 ms; beside it, the same calls' p95 with no sync running.
          below: 10,
          anchor: {
            name: `the same calls with the core idle, same run (${asked.idle.length} calls)`,
            value: percentile(asked.idle, 95),
          },
        },
      ),
    ];
  } finally {
    await host.close();
    await remote.stop();
  }
}

async function overBigDatabase(dir: string): Promise<Measure[]> {
  const dataDir = join(dir, 'big');
  mkdirSync(join(dataDir, 'demo'), { recursive: true });
  const { db, sampleBl } = await buildBigDatabaseApart(join(dataDir, 'demo', 'demo.sqlite'), BIG, 'bench-loop');
  db.close();
  const out = join(dir, 'export.csv');
  const host = await startTestHost({
    dataDir,
    autoSync: false,
    demo: undefined,
    chooseExportPath: () => Promise.resolve(out),
  });
  const measures: Measure[] = [];
  try {
    await ipc(host, 'shipments:count', { filters: {} });
    const anchor = await idleLoopAnchor();

    let monitor = loopMonitor();
    const exported = await ipc(host, 'export:list', { view: 'shipments' });
    let loop = monitor.stop();
    const rows = (exported.result as { rows?: number }).rows ?? 0;
    measures.push(
      measure(`CSV export of ${rows} shipments (app): core event-loop delay p99`, loop.p99, 'ms', {
        below: 20,
        anchor,
      }),
      measure('CSV export (app): core event-loop delay max', loop.max, 'ms', {}),
    );

    // A BL typed a character at a time, as in the list's search box and Ctrl+K: every keystroke
    // asks the first page, the count and the palette's search.
    const typed = sampleBl.slice(0, 12);
    const keystrokes: number[] = [];
    monitor = loopMonitor();
    for (let i = 1; i <= typed.length; i++) {
      const text = typed.slice(0, i);
      const started = performance.now();
      await Promise.all([
        ipc(host, 'shipments:list', { filters: { search: text }, page: { limit: 100 } }),
        ipc(host, 'shipments:count', { filters: { search: text } }),
        ipc(host, 'shipments:search', { text, limit: 10 }),
      ]);
      keystrokes.push(performance.now() - started);
    }
    loop = monitor.stop();
    measures.push(
      measure(`search as you type (${typed.length} keys, 100k shipments): core event-loop delay p99`, loop.p99, 'ms', {
        below: 20,
        anchor,
      }),
      // No stall of the core's own thread while typing (the reads are the worker's).
      measure('search as you type: core event-loop delay max', loop.max, 'ms', { below: 50 }),
      // A person feels a keystroke's answer in absolute time, whatever the machine's load: judged so.
      measure('search as you type: a keystroke answered (list, count, search), p95', percentile(keystrokes, 95), 'ms', {
        below: 100,
      }),
      measure('search as you type: the slowest keystroke answered', Math.max(...keystrokes), 'ms', { below: 250 }),
      measure(
        'search as you type: load average over the last minute (beside the keystroke figures)',
        loadavg()[0]!,
        '',
        {},
      ),
    );
  } finally {
    await host.close();
  }
  return measures;
}

export async function benchCoreLoop(): Promise<Measure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'quayside-bench-loop-'));
  try {
    return [...(await duringSync(dir)), ...(await overBigDatabase(dir))];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
