/**
 * The app's core as the app runs it, in a process of its own for `memory.ts`: the e2e test host
 * (the real `createCore`, its workers and their threads), bundled by `memory.ts` beside the app's
 * built workers and started by plain `node` with no V8 option, doing one thing and then printing its JSON figures on the last line:
 *
 *   sync URL DATA_DIR      a full sync of the demo account against the sandbox at URL
 *   export DATA_DIR OUT    `export:list` of every shipment in DATA_DIR/demo/demo.sqlite to OUT
 *
 * The peak is the kernel's (`VmHWM`): what the process held at its most, whatever held it.
 */
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { rateLimiterFor } from '../../src/core/api/rate-limiter';
import { DEMO_API_KEY } from '../../src/sandbox/index';
import { startTestHost } from '../e2e/host/server';

export interface AppMemoryFigures {
  /** The process's peak resident set (VmHWM), in MB. */
  peakMb: number;
  /** Its resident set once the host had started, before the work, in MB. */
  startedMb: number;
  /** Rows exported (export) or the sync's last status (sync). */
  outcome: string | number;
}

const highWaterMb = (): number => {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  if (!match) throw new Error('/proc/self/status has no VmHWM');
  return Number(match[1]) / 1024;
};

async function call(host: Awaited<ReturnType<typeof startTestHost>>, channel: string, arg?: unknown) {
  const envelope = (await host.core.call(channel, arg)) as {
    ok: boolean;
    value?: unknown;
    error?: { message: string };
  };
  if (!envelope.ok) throw new Error(`${channel}: ${envelope.error?.message}`);
  return envelope.value;
}

const [mode, ...args] = process.argv.slice(2);
let figures: AppMemoryFigures;
if (mode === 'sync') {
  const [url, dataDir] = args as [string, string];
  // No limit, as the service's: the client's own cost shows.
  rateLimiterFor(DEMO_API_KEY, { limit: 1_000_000, windowMs: 60_000 });
  const host = await startTestHost({
    dataDir,
    autoSync: false,
    demo: { start: () => Promise.resolve({ url, apiKey: DEMO_API_KEY, close: () => Promise.resolve() }) },
  });
  const startedMb = highWaterMb();
  await call(host, 'sync:start', { mode: 'full' });
  let status: { state: string; lastRun: { status: string } | null };
  do {
    await sleep(50);
    status = (await call(host, 'sync:status')) as typeof status;
  } while (status.state === 'syncing');
  figures = { peakMb: highWaterMb(), startedMb, outcome: status.lastRun?.status ?? 'no run' };
  await host.close();
} else if (mode === 'export') {
  const [dataDir, out] = args as [string, string];
  const host = await startTestHost({
    dataDir,
    autoSync: false,
    demo: undefined,
    chooseExportPath: () => Promise.resolve(out),
  });
  await call(host, 'shipments:count', { filters: {} });
  const startedMb = highWaterMb();
  const exported = (await call(host, 'export:list', { view: 'shipments' })) as { rows?: number };
  figures = { peakMb: highWaterMb(), startedMb, outcome: exported.rows ?? 0 };
  await host.close();
} else {
  throw new Error(`app-memory-host: unknown mode ${mode}`);
}
console.log(JSON.stringify(figures));
process.exit(0);
