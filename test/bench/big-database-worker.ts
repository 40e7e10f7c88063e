/** Builds the bench's big database in a worker thread (see big-database.ts) and answers its figures. */
import { parentPort, workerData } from 'node:worker_threads';
import { buildBigDatabase, type BigDatabaseOptions, type BuiltApart } from './big-database';

const { path, shipments, seed, options } = workerData as {
  path: string;
  shipments: number;
  seed?: string;
  options: BigDatabaseOptions;
};
const { db, ...figures } = buildBigDatabase(path, shipments, seed, options);
db.close();
parentPort!.postMessage(figures satisfies BuiltApart);
