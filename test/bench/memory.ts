import { spawn } from 'node:child_process';
import { build } from 'esbuild';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DEMO_API_KEY } from '../../src/sandbox/index';
import type { AppMemoryFigures } from './app-memory-host';
import { buildBigDatabaseApart } from './big-database';
import { measure, type Measure } from './report';
import { spawnSandbox } from './sandbox';

/** Samples RSS while a task runs and reports the peak, to show memory staying flat. */
export async function withPeakRss<T>(
  task: () => Promise<T> | T,
): Promise<{ result: T; peakMb: number; startMb: number }> {
  const startMb = process.memoryUsage().rss / 1e6;
  let peak = startMb;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss / 1e6);
  }, 10);
  try {
    const result = await task();
    peak = Math.max(peak, process.memoryUsage().rss / 1e6);
    return { result, peakMb: peak, startMb };
  } finally {
    clearInterval(timer);
  }
}

/**
 * The `memory` suite: peak RSS of the app's core as the app runs it and of the CLI's sync, each a
 * process of its own whose peak the kernel keeps (`VmHWM`), against the sandbox in another:
 * - the e2e test host (`app-memory-host.ts`: the real `createCore` with its worker threads, built
 *   as the app's main bundle and run by plain `node`, no V8 option) through a full sync at 2k and 10k shipments: under 250 MB
 *   at 10k, under 30 MB of growth from 2k; and through `export:list` of 100k shipments, under
 *   250 MB;
 * - `src/cli/main.ts sync` at 10k as plain `node --import tsx` (no V8 option) beside the `client`
 *   suite's figure with `npm run cli`'s options: under 200 MB either way.
 */
const root = resolve(import.meta.dirname, '../..');

/** Runs `node ARGS` to its end, its peak RSS sampled from /proc; its last stdout line. */
async function peakOf(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<{ peakMb: number; last: string }> {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  let peakMb = 0;
  const timer = setInterval(() => {
    try {
      const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
      if (match) peakMb = Math.max(peakMb, Number(match[1]) / 1024);
    } catch {
      // ended between two samples
    }
  }, 50);
  const code = await new Promise<number | null>((done) => child.once('exit', done));
  clearInterval(timer);
  const last = out.trim().split('\n').at(-1) ?? '';
  if (code !== 0) throw new Error(`${args.join(' ')} exited with ${code}: ${last}`);
  return { peakMb, last };
}

/**
 * The host built as the app's main bundle is (`out/main`, which `npm run bench` builds first), so
 * that it runs the built worker entries beside it and carries no TypeScript loader: under tsx
 * each thread transpiles and keeps the sources it loads, some 50 MB the app never holds.
 */
const builtHost = join(root, 'out/main/app-memory-host.bench.mjs');

async function buildHost(): Promise<void> {
  await build({
    entryPoints: [resolve(root, 'test/bench/app-memory-host.ts')],
    outfile: builtHost,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    // Native modules and the test host's own bundler load from node_modules, as in the app.
    external: ['better-sqlite3', '@napi-rs/keyring', 'esbuild'],
    // The test host finds its browser bridge's source beside its own.
    define: { 'import.meta.dirname': JSON.stringify(resolve(root, 'test/e2e/host')) },
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    logLevel: 'warning',
  });
}

async function hostRun(args: string[]): Promise<AppMemoryFigures> {
  const figures = JSON.parse((await peakOf([builtHost, ...args])).last);
  return figures as AppMemoryFigures;
}

export async function benchMemory(): Promise<Measure[]> {
  if (process.platform !== 'linux') {
    console.error('memory: peak RSS is read from /proc (Linux only); nothing measured');
    return [];
  }
  const dir = mkdtempSync(join(tmpdir(), 'quayside-bench-memory-'));
  await buildHost();
  const synced: Record<number, AppMemoryFigures> = {};
  let cliPlain = 0;
  try {
    for (const shipments of [2_000, 10_000]) {
      const remote = await spawnSandbox([
        '--seed',
        'bench-client',
        '--shipments',
        String(shipments),
        '--rate-limit',
        '1000000/60',
      ]);
      try {
        const run = await hostRun(['sync', remote.url, join(dir, `host-${shipments}`)]);
        if (run.outcome !== 'ok') throw new Error(`the app's sync of ${shipments} ended ${run.outcome}`);
        synced[shipments] = run;
        if (shipments === 10_000) {
          const cli = [resolve(root, 'src/cli/main.ts'), 'sync', '--db', join(dir, 'cli.sqlite')];
          const options = ['--base-url', remote.url, '--rate-limit', '1000000/60', '--json'];
          cliPlain = (
            await peakOf(['--import', 'tsx', ...cli, ...options], { ...process.env, T49_API_TOKEN: DEMO_API_KEY })
          ).peakMb;
        }
      } finally {
        await remote.stop();
      }
    }
    const dataDir = join(dir, 'big');
    mkdirSync(join(dataDir, 'demo'), { recursive: true });
    const big = await buildBigDatabaseApart(join(dataDir, 'demo', 'demo.sqlite'), 100_000, 'bench-memory');
    big.db.close();
    const exported = await hostRun(['export', dataDir, join(dir, 'export.csv')]);
    const [at2k, at10k] = [synced[2_000]!, synced[10_000]!];
    return [
      measure("app's core, full sync 10k: peak RSS of the host process (no V8 option)", at10k.peakMb, 'MB', {
        below: 250,
      }),
      measure("app's core, full sync 2k: peak RSS of the host process", at2k.peakMb, 'MB', {}),
      measure("app's core, full sync: peak RSS growth 2k -> 10k", at10k.peakMb - at2k.peakMb, 'MB', { below: 30 }),
      measure("app's core: RSS of the host started, before any sync", at10k.startedMb, 'MB', {}),
      measure(
        `app's core, CSV export of ${exported.outcome} shipments: peak RSS of the host process`,
        exported.peakMb,
        'MB',
        { below: 250 },
      ),
      measure('CLI full sync 10k without V8 options: peak RSS of the sync process', cliPlain, 'MB', { below: 200 }),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(builtHost, { force: true });
  }
}
