/**
 * A writer thread for write-turns.test.ts, standing in for the sync pages' worker: on its own
 * connection to the file (`openWriteConnection`, behind the worker's side of the gate), it writes
 * back-to-back transactions of about 3 ms each (as the worker's slices), counting each one it
 * begins in shared memory, until told to stop.
 */
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { openWriteConnection } from '../../src/core/store/database';
import { writeState } from '../../src/core/store/sync-state';
import { shareWriteTurns, type WriteTurns } from '../../src/core/store/write-turns';

export const BEGUN = 0;
export const STOP = 1;

/** Imported by the test for the indexes above; run as the thread only. */
async function write(): Promise<void> {
  const { file, turns, control } = workerData as { file: string; turns: WriteTurns | null; control: Int32Array };
  const db = openWriteConnection(file);
  shareWriteTurns(db, turns);
  let n = 0;
  while (Atomics.load(control, STOP) === 0) {
    db.transaction(() => {
      Atomics.add(control, BEGUN, 1);
      writeState(db, `worker:${n++ % 50}`, n);
      const until = performance.now() + 3;
      while (performance.now() < until) {
        // a slice's work, holding the write lock
      }
    }).immediate();
    await new Promise((next) => setImmediate(next));
  }
  db.close();
  parentPort!.postMessage(n);
}

if (!isMainThread) await write();
