/**
 * A walk's page as the walk sees it: what it needs to go on (the page's links, meta and rows, its
 * primary records' `updated_at`) and a way to write it, wherever the page itself is kept: parsed
 * on the core's own loop (`pageInPlace`), or parsed and kept by the sync pages' worker thread
 * (`pages-aside.ts`), which also writes it there.
 */
import { listResources, type JsonApiDocument } from '../api/document';
import type { Db } from '../store/database';
import type { StoredResource } from '../store/resource';
import { clearState, writeState } from '../store/sync-state';
import type { WriteCounts } from '../store/writer';
import { writeResourcesInSteps } from '../store/writer-steps';

/** What a walk reads of a page besides its records. */
export interface PageFrame {
  links?: JsonApiDocument['links'];
  meta?: JsonApiDocument['meta'];
  /** Primary records on the page. */
  rows: number;
}

/** The walk's checkpoint that commits with a page's last step: a value under `key`, or none (cleared). */
export interface CheckpointWrite {
  key: string;
  value: unknown;
}

export interface PageWriteOptions {
  syncedAt: string;
  checkpoint: CheckpointWrite;
}

export interface PageHandle {
  frame: PageFrame;
  /** The primary records' `updated_at`, as sent (the walk's cursor trusts only real instants). */
  updatedAts: unknown[];
  /** Writes the page, in steps; the checkpoint commits with its last one. */
  write(options: PageWriteOptions): Promise<WriteCounts>;
  /** The page will not be written (the walk stopped): whoever keeps it may let it go. */
  drop(): void;
}

export function frameOf(doc: JsonApiDocument): PageFrame {
  return { links: doc.links, meta: doc.meta, rows: listResources(doc).length };
}

export function updatedAtsOf(doc: JsonApiDocument): unknown[] {
  return listResources(doc).map((resource) => resource.attributes.updated_at);
}

function applyCheckpoint(db: Db, { key, value }: CheckpointWrite): void {
  if (value === null) clearState(db, key);
  else writeState(db, key, value);
}

/**
 * Writes a parsed page on `db` in steps (`writer-steps.ts`), the events-complete marks of
 * `eventsCompleteFor` and the checkpoint with its last step.
 */
export function writePageDocument(
  db: Db,
  doc: JsonApiDocument,
  options: PageWriteOptions & { eventsCompleteFor?: string[] },
): Promise<WriteCounts> {
  return writeResourcesInSteps(db, [...listResources(doc), ...doc.included] as StoredResource[], {
    syncedAt: options.syncedAt,
    eventsCompleteFor: options.eventsCompleteFor,
    alsoInTransaction: () => applyCheckpoint(db, options.checkpoint),
  });
}

/** A page parsed on the core's own loop, written on `db`. */
export function pageInPlace(
  db: Db,
  doc: JsonApiDocument,
  eventsComplete: ((doc: JsonApiDocument) => string[]) | undefined,
): PageHandle {
  return {
    frame: frameOf(doc),
    updatedAts: updatedAtsOf(doc),
    write: (options) => writePageDocument(db, doc, { ...options, eventsCompleteFor: eventsComplete?.(doc) }),
    drop: () => {},
  };
}
