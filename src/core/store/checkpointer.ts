/**
 * The WAL checkpoint off the core's event loop. A passive checkpoint copies the WAL into the
 * database file and syncs both to disk: a few MB a time during a sync, and on a busy disk one
 * took up to 400 ms, all of it blocking the process that hosts the core. Here a
 * worker thread opens the same file on a connection of its own for each checkpoint and runs it
 * there: a passive checkpoint never takes the write lock, so the sync's writes and the views'
 * reads go on meanwhile, and the connection is closed at once, so nothing holds the file after.
 *
 * Where no worker can start (or one fails), the checkpoint runs on the caller's connection:
 * slower for the loop, never skipped. The CLI, with no window, checkpoints in place from the start
 * (`maintainStoreInSteps`' `checkpointHere`) and never pays for this thread's V8 heap.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { databaseFile, isReadOnly, type Db } from './database';

/** CommonJS, evaluated in the worker: one checkpoint per message (a file path), answered when done. */
const workerSource = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.sqlite);
parentPort.on('message', ({ id, file }) => {
  try {
    const db = new Database(file, { fileMustExist: true });
    try {
      db.pragma('busy_timeout = 0');
      db.pragma('wal_checkpoint(PASSIVE)');
    } finally {
      db.close();
    }
    parentPort.postMessage({ id, ok: true });
  } catch (error) {
    parentPort.postMessage({ id, ok: false, message: String(error && error.message) });
  }
});
`;

interface Answer {
  id: number;
  ok: boolean;
  message?: string;
}

let worker: Worker | null = null;
/** Set once a worker could not start or failed: every later checkpoint runs in place. */
let unavailable = false;
let nextId = 1;
const waiting = new Map<number, (answer: Answer) => void>();
/** The checkpoint each database has on its way, so a second asks for none while one runs. */
const running = new WeakMap<Db, Promise<void>>();

/** Whether this process has started the checkpoint thread (a CLI sync never does: `checkpointHere`). */
export function checkpointThreadStarted(): boolean {
  return worker !== null;
}

function failAll(message: string): void {
  unavailable = true;
  worker = null;
  for (const [id, done] of waiting) done({ id, ok: false, message });
  waiting.clear();
}

function startWorker(): Worker | null {
  if (unavailable) return null;
  if (worker) return worker;
  try {
    const sqlite = createRequire(import.meta.url).resolve('better-sqlite3');
    const started = new Worker(workerSource, { eval: true, workerData: { sqlite } });
    started.unref();
    started.on('message', (answer: Answer) => {
      const done = waiting.get(answer.id);
      waiting.delete(answer.id);
      done?.(answer);
    });
    started.on('error', (error: Error) => failAll(error.message));
    started.on('exit', () => failAll('the checkpoint worker stopped'));
    worker = started;
    return started;
  } catch {
    unavailable = true;
    return null;
  }
}

function inPlace(db: Db): void {
  if (db.open) db.pragma('wal_checkpoint(PASSIVE)');
}

/**
 * A passive WAL checkpoint of `db`'s file, run by the worker thread (in place where none can
 * run). Resolves once it is done; joins the one already on its way for this database.
 */
export function checkpointAside(db: Db): Promise<void> {
  const pending = running.get(db);
  if (pending) return pending;
  const file = databaseFile(db);
  // In memory or read-only: nothing to checkpoint from another connection.
  if (db.memory || isReadOnly(db) || file === '' || file === ':memory:') return Promise.resolve();
  const thread = startWorker();
  if (thread === null) {
    inPlace(db);
    return Promise.resolve();
  }
  const id = nextId++;
  const done = new Promise<void>((resolve) => {
    waiting.set(id, (answer) => {
      running.delete(db);
      if (waiting.size === 0) thread.unref();
      // The worker could not do it (no worker after all, a file it could not open): here, then.
      if (!answer.ok) {
        try {
          inPlace(db);
        } catch {
          // The next checkpoint, or SQLite's own at the WAL's limit, will do it.
        }
      }
      resolve();
    });
  });
  running.set(db, done);
  // Referenced while a checkpoint is on its way, so a short-lived process waits for it to end.
  thread.ref();
  thread.postMessage({ id, file });
  return done;
}
