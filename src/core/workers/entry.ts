/**
 * Where a worker thread's code is, for the core's workers (the reads', the sync pages'): beside
 * the built bundle (electron-vite writes each as an entry of its own, `out/main/NAME.js`), or the
 * TypeScript source loaded through tsx (the CLI, vitest, the test host, the bench).
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type ResourceLimits } from 'node:worker_threads';

export interface WorkerEntry {
  url: URL;
  execArgv?: string[];
}

/**
 * The entry of worker `name`, asked from the module at `here` (its `import.meta.url`): `source`
 * is the worker's file next to that module in the source tree. Null when neither is found.
 */
export function workerEntry(here: string, source: string, name: string): WorkerEntry | null {
  const at = (path: string) => new URL(path, here);
  if (here.endsWith('.ts')) {
    // Only tsx's loader: a worker refuses the process's own flags (the CLI's V8 heap options).
    const tsx = pathToFileURL(createRequire(here).resolve('tsx/esm')).href;
    return { url: at(source), execArgv: ['--import', tsx] };
  }
  // The bundle's code is in out/main/index.js or a chunk below it.
  for (const path of [`./${name}.js`, `../${name}.js`]) {
    const url = at(path);
    if (existsSync(fileURLToPath(url))) return { url };
  }
  return null;
}

/**
 * A young generation for a worker whose objects live for one page or one read, in MB. V8 sizes it
 * from the machine's memory and grows it while a thread allocates fast: left to that, the sync
 * pages' worker's heap reached over 200 MB through a 2k sync, more than half of it garbage not
 * collected yet. A small one collects them as soon, for more frequent (short) scavenges; a limit
 * set in code, so the app needs no V8 flag for it.
 */
export const SHORT_LIVED_YOUNG_GENERATION_MB = 8;

/**
 * Starts the worker at `entry` with `workerData` (and V8's `resourceLimits`, if given), unreferenced (it never keeps a process alive by
 * itself): `message` hears each answer, `end` is told once why it ended (an error, an exit).
 * Throws what `new Worker` throws.
 */
export function startWorker<Answer>(
  entry: WorkerEntry,
  workerData: unknown,
  on: { message: (answer: Answer) => void; end: (why: string) => void },
  resourceLimits?: ResourceLimits,
): Worker {
  const worker = new Worker(entry.url, {
    workerData,
    ...(resourceLimits ? { resourceLimits } : {}),
    ...(entry.execArgv ? { execArgv: entry.execArgv } : {}),
  });
  worker.unref();
  worker.on('message', on.message);
  let ended = false;
  const end = (why: string) => {
    if (ended) return;
    ended = true;
    on.end(why);
  };
  worker.on('error', (error: Error) => end(error.message));
  worker.on('exit', (code) => end(`it stopped (exit code ${code})`));
  return worker;
}
