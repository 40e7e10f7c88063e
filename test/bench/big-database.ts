/**
 * The bench's database of many shipments: see test/helpers/generated-database.ts.
 *
 * `buildBigDatabaseApart` builds it in a worker thread of its own and opens the file here once
 * the worker has ended: generating 100k shipments leaves ~2.7 GB of garbage in the heap that made
 * them, and V8 collects it when it chooses, in one pause of ~2 s (`--trace-gc`: "Mark-Compact
 * (reduce) 2678 -> 29 MB, 2186 ms"). In the bench's own process that pause fell inside whatever
 * was being timed (an export of 100k rows took 3.3 s instead of 1.2, its workers' answers waiting
 * for this thread) and took a core from Chromium's frames; in the worker it goes with the worker.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { openDatabase } from '../../src/core/store/database';
import type { BigDatabase, BigDatabaseOptions } from '../helpers/generated-database';

export { buildBigDatabase, type BigDatabase, type BigDatabaseOptions } from '../helpers/generated-database';

/** What the worker answers: the build's figures (the database is the file it wrote). */
export type BuiltApart = Omit<BigDatabase, 'db'>;

export async function buildBigDatabaseApart(
  path: string,
  shipments: number,
  seed?: string,
  options: BigDatabaseOptions = {},
): Promise<BigDatabase> {
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm')).href;
  const worker = new Worker(new URL('./big-database-worker.ts', import.meta.url), {
    workerData: { path, shipments, seed, options },
    execArgv: ['--import', tsx],
  });
  const built = await new Promise<BuiltApart>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the database builder stopped (exit code ${code})`)));
  });
  await worker.terminate();
  return { ...built, db: openDatabase(path) };
}
