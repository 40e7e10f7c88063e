/**
 * The reads' worker thread (see reads-aside.ts): one read-only connection to the account's
 * database file, opened at start, answering one read per message, in order. Built as its own
 * entry beside the main bundle (`out/main/read-worker.js`, electron-vite's config); from source
 * (tsx, vitest, the test host) it is loaded through tsx.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { QuaysideError } from '../errors';
import { openReadConnection } from '../store/database';
import { warmSearchTexts } from '../store/queries/search-warm';
import { runRead } from './read-ops';
import type { ReadAnswer, ReadRequest, WorkerSetup } from './read-protocol';

const port = parentPort!;
const { file } = workerData as WorkerSetup;
const db = openReadConnection(file);
let open = true;

// The search tables' texts into this connection's cache, a step between two reads at a time.
const warming = warmSearchTexts(db);
const warm = () => {
  try {
    if (open && !warming.next().done) setImmediate(warm);
  } catch {
    // Only a head start: a read meets the same file itself and says what is wrong with it.
  }
};
setImmediate(warm);

port.on('message', (request: ReadRequest) => {
  if (request.kind === 'close') {
    open = false;
    db.close();
    port.close();
    return;
  }
  let answer: ReadAnswer;
  try {
    answer = { kind: 'answer', id: request.id, ok: true, value: runRead(db, request.read) };
  } catch (error) {
    answer = {
      kind: 'answer',
      id: request.id,
      ok: false,
      error:
        error instanceof QuaysideError
          ? { code: error.code, message: error.message, fields: error.fields }
          : { message: error instanceof Error ? error.message : String(error) },
    };
  }
  port.postMessage(answer);
});
port.postMessage({ kind: 'ready' } satisfies ReadAnswer);
