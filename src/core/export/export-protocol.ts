/** What `startExportAside` gives its worker thread (export-worker.ts), and what it answers. */
import type { ErrorCode } from '../../shared/ipc';
import type { ExportViewOptions } from './export-view';
import type { ExportFileResult } from './write-file';

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
  options: Omit<ExportViewOptions, 'onProgress' | 'signal'>;
}

export type ExportAnswer =
  /** Its code is loaded: it waits for the export to make. */
  | { kind: 'ready' }
  | { kind: 'progress'; rows: number }
  | { kind: 'done'; result: ExportFileResult }
  /** A QuaysideError keeps its code and sentence; anything else only its message. */
  | { kind: 'failed'; code: ErrorCode | null; message: string };
