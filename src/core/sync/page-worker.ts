/**
 * The sync pages' worker thread (see pages-aside.ts): one writing connection to the account's
 * database file, opened at start. It parses each page the walks fetch, keeps it until the walk
 * says write (or drop) it, and writes it in the same short steps as the core would, so the core's
 * own connection never waits long for the write lock. Built as its own entry beside the main
 * bundle (`out/main/page-worker.js`, electron-vite's config); from source it is loaded through tsx.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { MalformedResponseError } from '../api/errors';
import { parseDocument, type JsonApiDocument } from '../api/document';
import { openWriteConnection } from '../store/database';
import { checkpointHere, maintainStoreInSteps } from '../store/maintenance';
import { countOncePerRun } from '../store/writer';
import { shareWriteTurns } from '../store/write-turns';
import { eventsComplete } from './container-events';
import { frameOf, updatedAtsOf, writePageDocument } from './page-handle';
import type { PageAnswer, PageRequest, PageWorkerSetup, ReadPage } from './page-protocol';

const port = parentPort!;
const { file, turns } = workerData as PageWorkerSetup;
const db = openWriteConnection(file);
// Its writes yield to the core's (write-turns.ts).
shareWriteTurns(db, turns);
/**
 * Pages read and not written yet, as their bytes: a walk asks for a few pages ahead of the one it
 * writes, and their parsed objects, several times the text's size, would outlive many collections
 * of this thread's young generation and pile up in its old one. A page is parsed again when it is
 * written, its objects then living only as long as its write.
 */
const kept = new Map<number, { body: Uint8Array; carriesEvents: boolean }>();
const utf8 = new TextDecoder();
// TextDecoder drops a byte-order mark, as the client's own reading does.
const parse = (body: Uint8Array): JsonApiDocument => parseDocument(utf8.decode(body));

async function answer(request: Extract<PageRequest, { id: number }>): Promise<unknown> {
  switch (request.kind) {
    case 'read': {
      const doc = parse(request.body);
      kept.set(request.id, { body: request.body, carriesEvents: request.carriesEvents });
      return { frame: frameOf(doc), updatedAts: updatedAtsOf(doc) } satisfies ReadPage;
    }
    case 'write': {
      const page = kept.get(request.page);
      if (!page) throw new Error(`page ${request.page} is not kept`);
      kept.delete(request.page);
      // The run's start, as the core's connection counts it: every write here belongs to a run,
      // and walks of one run write at once, so it stays set until the next run's.
      if (request.runStart !== null) countOncePerRun(db, request.runStart);
      const doc = parse(page.body);
      return writePageDocument(db, doc, {
        ...request.options,
        eventsCompleteFor: page.carriesEvents ? eventsComplete(db, doc) : undefined,
      });
    }
    case 'upkeep':
      await maintainStoreInSteps(db, { checkpoint: false });
      if (request.checkpoint) checkpointHere(db);
      return null;
  }
}

port.on('message', (request: PageRequest) => {
  if (request.kind === 'close') {
    kept.clear();
    db.close();
    port.close();
    return;
  }
  if (request.kind === 'drop') {
    kept.delete(request.page);
    return;
  }
  answer(request).then(
    (value) => port.postMessage({ kind: 'done', id: request.id, ok: true, value } satisfies PageAnswer),
    (error: unknown) =>
      port.postMessage({
        kind: 'done',
        id: request.id,
        ok: false,
        error: {
          malformed: error instanceof MalformedResponseError,
          message: error instanceof Error ? error.message : String(error),
        },
      } satisfies PageAnswer),
  );
});
port.postMessage({ kind: 'ready' } satisfies PageAnswer);
