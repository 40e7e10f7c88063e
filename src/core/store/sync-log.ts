/** The sync log: one row per sync run, written as it starts and as it ends, read by status and history. */
import type { SyncRun } from '../../shared/types';
import type { Db } from './database';
import { perDb } from './statements';

/** A run of the sync log, as the renderer sees it. */
export type SyncLogEntry = SyncRun;

/** How a run ended, as the log keeps it (the engine's `SyncSummary` is one). */
export interface FinishedRun {
  runId: number;
  status: string;
  requests: number;
  rateLimited: number;
  counts: Record<string, number>;
  error: { code: string; message: string } | null;
}

/** A row of the sync log as the store keeps it (counts and error as JSON text). */
export interface SyncLogRow {
  id: number;
  kind: string;
  started_at: string;
  finished_at: string | null;
  status: string;
  requests: number;
  rate_limited: number;
  counts: string;
  error: string | null;
}

// Writes and reads are prepared apart: a read-only copy refuses a writing statement at prepare.
const interrupt = perDb((db) => db.prepare("UPDATE sync_log SET status = 'interrupted' WHERE status = 'running'"));
const start = perDb((db) =>
  db.prepare<[string, string]>("INSERT INTO sync_log (kind, started_at, status) VALUES (?, ?, 'running')"),
);
const finish = perDb((db) =>
  db.prepare<[string, string, number, number, string, string | null, number]>(
    'UPDATE sync_log SET finished_at = ?, status = ?, requests = ?, rate_limited = ?, counts = ?, error = ? WHERE id = ?',
  ),
);
const recent = perDb((db) => db.prepare<[number], SyncLogRow>('SELECT * FROM sync_log ORDER BY id DESC LIMIT ?'));

/** Opens a run's row; returns its id. */
export function startLogEntry(db: Db, kind: string, startedAt: string): number {
  // A run that was still "running" when the process died is marked as interrupted.
  interrupt(db).run();
  return Number(start(db).run(kind, startedAt).lastInsertRowid);
}

export function finishLogEntry(db: Db, summary: FinishedRun, finishedAt: string): void {
  finish(db).run(
    finishedAt,
    summary.status,
    summary.requests,
    summary.rateLimited,
    JSON.stringify(summary.counts),
    summary.error ? `${summary.error.code}: ${summary.error.message}` : null,
    summary.runId,
  );
}

/** The latest runs, newest first. */
export function readSyncLog(db: Db, limit = 50): SyncLogEntry[] {
  return recent(db)
    .all(limit)
    .map((r) => ({
      id: r.id,
      kind: r.kind,
      startedAt: r.started_at,
      finishedAt: r.finished_at ?? null,
      status: r.status,
      requests: r.requests,
      rateLimited: r.rate_limited,
      counts: JSON.parse(r.counts) as Record<string, number>,
      error: r.error ?? null,
    }));
}
