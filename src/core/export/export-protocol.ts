/** What `startExportAside` gives its worker thread (export-worker.ts), and what it answers. */
import type { PerCustomerExport } from '../../shared/export-per-customer';
import type { ErrorCode } from '../../shared/ipc';
import type { ExportViewOptions } from './export-view';
import type { ExportFileResult } from './write-file';

/** Below this many rows, the second part of an export made in two is empty: the first holds them all. */
export const SPLIT_FROM_ROWS = 5000;

export interface ExportWorkerSetup {
  /** The database file (the worker reads it on a connection of its own). */
  file: string;
}

/** The export to make, once the file to write is chosen (the worker starts before). */
export interface ExportRequest {
  kind: 'run';
  /** The file to write. */
  path: string;
  /** The export's options that cross a thread (no callbacks, no signal). */
  options: Omit<ExportViewOptions, 'onProgress' | 'signal' | 'part'>;
  /** One of the two parts of a CSV export made in two (export-aside.ts); absent: the whole export. */
  part?: PartRequest;
  /** One file per customer (export-per-customer.ts): `path` is then the folder they go to. */
  per?: 'customer';
}

/**
 * Which part this worker writes (to `path` itself: its caller joins the two). The worker opens a
 * read transaction, reads once so its snapshot is taken, adds 1 to `held[0]` and wakes the
 * waiter; both workers count the export's rows in their snapshot and take their half.
 */
export interface PartRequest {
  index: 0 | 1;
  held: SharedArrayBuffer;
  /** Under this many rows the first part holds them all (`SPLIT_FROM_ROWS`; tests split smaller exports). */
  splitFrom: number;
}

export type ExportAnswer =
  /** Its code is loaded: it waits for the export to make. */
  | { kind: 'ready' }
  | { kind: 'progress'; rows: number }
  /** `counted`: for a part, the rows of the whole export in its snapshot (the two parts' must agree). */
  | { kind: 'done'; result: ExportFileResult; counted?: number }
  /** The files of an export per customer. */
  | { kind: 'split'; result: PerCustomerExport }
  /** A QuaysideError keeps its code and sentence; anything else only its message. */
  | { kind: 'failed'; code: ErrorCode | null; message: string };
