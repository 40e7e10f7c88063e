/** The messages between `PagesAside` and its worker thread (page-worker.ts). */
import type { WriteTurns } from '../store/write-turns';
import type { PageFrame, PageWriteOptions } from './page-handle';

export interface PageWorkerSetup {
  /** The database file the worker writes (a connection of its own). */
  file: string;
  /** Turns at the write lock shared with the core's connection (`store/write-turns.ts`). */
  turns: WriteTurns;
}

export type PageRequest =
  /**
   * Decode and parse a page's bytes (moved here, not copied, once the worker is ready) and keep it
   * under `id`; `carriesEvents`: mark the containers whose events it carries.
   */
  | { kind: 'read'; id: number; body: Uint8Array; carriesEvents: boolean }
  /** Write the page kept under `page` (then let it go); `runStart`: the run counting records once. */
  | { kind: 'write'; id: number; page: number; options: PageWriteOptions; runStart: string | null }
  | { kind: 'drop'; page: number }
  /** The search indexes' merges, and with `checkpoint` a passive WAL checkpoint. */
  | { kind: 'upkeep'; id: number; checkpoint: boolean }
  | { kind: 'close' };

export type PageAnswer =
  | { kind: 'ready' }
  | { kind: 'done'; id: number; ok: true; value: unknown }
  | {
      kind: 'done';
      id: number;
      ok: false;
      /** A page the service sent that could not be read (the client asks again), or any other failure. */
      error: { malformed: boolean; message: string };
    };

/** What a `read` answers. */
export interface ReadPage {
  frame: PageFrame;
  updatedAts: unknown[];
}
