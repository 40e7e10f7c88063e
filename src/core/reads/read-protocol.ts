/** The messages between `ReadsAside` and its worker thread (read-worker.ts). */
import type { ErrorCode } from '../../shared/ipc';
import type { ReadOp } from './read-ops';

export interface WorkerSetup {
  /** The database file the worker reads (a connection of its own, read-only). */
  file: string;
}

export type ReadRequest = { kind: 'read'; id: number; read: ReadOp } | { kind: 'close' };

export type ReadAnswer =
  | { kind: 'ready' }
  | { kind: 'answer'; id: number; ok: true; value: unknown }
  | {
      kind: 'answer';
      id: number;
      ok: false;
      /** A QuaysideError keeps its code, sentence and fields; anything else only its message. */
      error: { code?: ErrorCode; message: string; fields?: Record<string, string> };
    };
