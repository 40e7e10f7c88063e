/**
 * The core's writes during a sync take their turn at the write lock at once, whatever the sync
 * pages' worker is writing (`store/write-turns.ts`): a write of the core waits at most for the
 * worker's write already running, so the app's IPC never queues behind SQLite's busy polling.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openDatabase, type Db } from '../../src/core/store/database';
import { readState, writeState } from '../../src/core/store/sync-state';
import { newWriteTurns, shareWriteTurns, type WriteTurns } from '../../src/core/store/write-turns';
import { tempDir } from '../helpers/temp-dir';
import { BEGUN, STOP } from '../helpers/write-turns-worker';

const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm')).href;

let open: { db: Db; stop: () => Promise<number> } | null = null;
afterEach(async () => {
  await open?.stop();
  open?.db.close();
  open = null;
});

/** The core's connection and a writer thread writing slices back to back on the same file. */
async function coreBesideWriter(turns: WriteTurns | null) {
  const file = join(tempDir(), 'turns.sqlite');
  const db = openDatabase(file);
  shareWriteTurns(db, turns);
  const control = new Int32Array(new SharedArrayBuffer(8));
  const worker = new Worker(new URL('../helpers/write-turns-worker.ts', import.meta.url), {
    workerData: { file, turns, control },
    execArgv: ['--import', tsx],
  });
  const written = new Promise<number>((done, fail) => {
    worker.once('message', done);
    worker.once('error', fail);
  });
  const stop = async () => {
    Atomics.store(control, STOP, 1);
    return written;
  };
  open = { db, stop };
  // Writing, and past its first slices.
  await vi.waitFor(() => expect(Atomics.load(control, BEGUN)).toBeGreaterThanOrEqual(5), { timeout: 30_000 });
  return { db, control, stop };
}

describe('write turns between the core and the sync pages worker', () => {
  it("lets each of the core's writes in after at most the worker's slice already running", async () => {
    const { db, control, stop } = await coreBesideWriter(newWriteTurns());
    // Slices the worker began while each write of the core waited, beyond the one already
    // running. The count starts a few microseconds before the core asks for its turn; a thread
    // descheduled in that gap lets the worker begin slices no gate could stop, so one write in
    // ten may overshoot. Without turns, the core polls in SQLite's busy handler and most do.
    const overshoots: string[] = [];
    for (let i = 0; i < 20; i++) {
      const before = Atomics.load(control, BEGUN);
      let during = -1;
      db.transaction(() => {
        during = Atomics.load(control, BEGUN);
        writeState(db, 'core', i);
      }).immediate();
      if (during - before > 1) overshoots.push(`transaction ${i}: ${during - before} slices`);
      // A plain statement of its own (autocommit), as `writeState` between two pages.
      const beforeState = Atomics.load(control, BEGUN);
      writeState(db, 'core:plain', i);
      const plain = Atomics.load(control, BEGUN) - beforeState;
      if (plain > 2) overshoots.push(`statement ${i}: ${plain} slices`);
      // The worker goes on between the core's writes.
      const now = Atomics.load(control, BEGUN);
      await vi.waitFor(() => expect(Atomics.load(control, BEGUN)).toBeGreaterThan(now + 1), { timeout: 30_000 });
    }
    expect(overshoots.length, overshoots.join('; ')).toBeLessThanOrEqual(4);
    expect(readState(db, 'core')).toBe(19);
    expect(readState(db, 'core:plain')).toBe(19);
    expect(await stop()).toBeGreaterThan(40);
  });
});
