/**
 * The sync client alone: the sandbox in its own process, and
 * - `npm run cli -- sync` as its own process (Node with the tsx loader and the script's Node
 *   options, as `npm run cli` runs it), its peak RSS read from /proc (VmHWM) at 2k and 10k
 *   shipments, and the growth between;
 * - the database that sync leaves at 10k: bytes per shipment and its parts (`disk.ts`);
 * - the sync engine in this process against the same sandbox, with `monitorEventLoopDelay`: how
 *   long the process that hosts the core is blocked while a full sync of 10k shipments runs.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { openSync } from '../../src/core/sync/open-sync';
import { DEMO_API_KEY } from '../../src/sandbox/index';
import { footprint, footprintMeasures } from './disk';
import { measure, type Measure } from './report';
import { spawnSandbox } from './sandbox';

const root = resolve(import.meta.dirname, '../..');

/** The peak resident set of a process so far, in MB, or null where /proc does not say. */
function highWaterMb(pid: number): number | null {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/**
 * The Node options `npm run cli` gives the CLI (its script is `tsx <options> src/cli/main.ts`), read
 * from package.json so the bench runs the CLI exactly as a user or cron job does.
 */
function cliNodeOptions(): string[] {
  const pkg = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as { scripts: { cli: string } };
  const words = pkg.scripts.cli.split(/\s+/);
  if (words[0] !== 'tsx') throw new Error(`package.json's cli script no longer starts with tsx: ${pkg.scripts.cli}`);
  return words.slice(1).filter((word) => word.startsWith('--'));
}

/** What a CLI sync run as its own process did: its peak RSS (null where /proc does not say) and its JSON summary. */
export interface CliSyncRun {
  peakMb: number | null;
  summary: { status: string; requests: number; duration_ms: number };
}

/** `npm run cli -- sync --db … --json` against `url`, as one process; its peak RSS and summary. */
export async function cliSync(url: string, dbPath: string): Promise<CliSyncRun> {
  const child = spawn(
    process.execPath,
    [
      ...cliNodeOptions(),
      '--import',
      'tsx',
      resolve(root, 'src/cli/main.ts'),
      'sync',
      '--db',
      dbPath,
      '--base-url',
      url,
      '--rate-limit',
      '1000000/60',
      '--json',
    ],
    { cwd: root, env: { ...process.env, T49_API_TOKEN: DEMO_API_KEY }, stdio: ['ignore', 'pipe', 'ignore'] },
  );
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  let peak: number | null = null;
  const sample = () => {
    const now = child.pid === undefined ? null : highWaterMb(child.pid);
    if (now !== null) peak = Math.max(peak ?? 0, now);
  };
  const timer = setInterval(sample, 50);
  const code = await new Promise<number | null>((done) => child.once('exit', done));
  clearInterval(timer);
  if (code !== 0) throw new Error(`the CLI sync exited with ${code}: ${out.trim()}`);
  const lastLine = out.trim().split('\n').at(-1) ?? '';
  return { peakMb: peak, summary: JSON.parse(lastLine) as CliSyncRun['summary'] };
}

export async function benchClient(): Promise<Measure[]> {
  const measures: Measure[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'quayside-bench-client-'));
  const peaks: Record<number, number | null> = {};
  try {
    for (const shipments of [2_000, 10_000]) {
      // No limit at the service either: the client's own cost shows, not a wait for the window.
      const remote = await spawnSandbox([
        '--seed',
        'bench-client',
        '--shipments',
        String(shipments),
        '--rate-limit',
        '1000000/60',
      ]);
      try {
        peaks[shipments] = (await cliSync(remote.url, join(dir, `cli-${shipments}.sqlite`))).peakMb;
        if (shipments === 10_000) {
          // The file the CLI's sync left.
          measures.push(...footprintMeasures('CLI full sync 10k', footprint(join(dir, `cli-${shipments}.sqlite`))));
          // The engine in this process, as the app's session opens it (pages parsed and written
          // by a worker thread): the event loop's delay while it syncs.
          const sync = openSync({
            dbPath: join(dir, 'loop.sqlite'),
            baseUrl: remote.url,
            apiKey: DEMO_API_KEY,
            isolatedLimiter: true,
            rateLimit: { limit: 1_000_000, windowSeconds: 60 },
            pagesAside: true,
          });
          const delay = monitorEventLoopDelay({ resolution: 1 });
          delay.enable();
          await sync.engine.run({ mode: 'full' });
          delay.disable();
          await sync.pages?.close();
          sync.close();
          measures.push(
            measure('full sync 10k: event-loop delay p99 of the core host', delay.percentile(99) / 1e6, 'ms', {
              below: 20,
            }),
            measure('full sync 10k: event-loop delay max', delay.max / 1e6, 'ms', {}),
          );
        }
      } finally {
        await remote.stop();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const at2k = peaks[2_000] ?? null;
  const at10k = peaks[10_000] ?? null;
  if (at2k === null || at10k === null) {
    console.error('client: peak RSS not measured: /proc/<pid>/status is not readable here (Linux only)');
    return measures;
  }
  measures.push(
    measure('CLI full sync 10k: peak RSS of the sync process', at10k, 'MB', { below: 200 }),
    measure('CLI full sync 2k: peak RSS of the sync process', at2k, 'MB', {}),
    measure('CLI full sync: peak RSS growth 2k -> 10k', at10k - at2k, 'MB', { below: 30 }),
  );
  return measures;
}
