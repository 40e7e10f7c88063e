import type { Db } from '../store/database';
import type { SyncRun } from '../../shared/types';
import type { SyncSummary } from './types';

/** A run of the sync log, as the renderer sees it. */
export type SyncLogEntry = SyncRun;

export function startLogEntry(db: Db, kind: string, startedAt: string): number {
  // A run that was still "running" when the process died is marked as interrupted.
  db.prepare("UPDATE sync_log SET status = 'interrupted' WHERE status = 'running'").run();
  return Number(
    db.prepare("INSERT INTO sync_log (kind, started_at, status) VALUES (?, ?, 'running')").run(kind, startedAt)
      .lastInsertRowid,
  );
}

export function finishLogEntry(db: Db, summary: SyncSummary, finishedAt: string): void {
  db.prepare(
    'UPDATE sync_log SET finished_at = ?, status = ?, requests = ?, rate_limited = ?, counts = ?, error = ? WHERE id = ?',
  ).run(
    finishedAt,
    summary.status,
    summary.requests,
    summary.rateLimited,
    JSON.stringify(summary.counts),
    summary.error ? `${summary.error.code}: ${summary.error.message}` : null,
    summary.runId,
  );
}

export function readSyncLog(db: Db, limit = 50): SyncLogEntry[] {
  const rows = db.prepare('SELECT * FROM sync_log ORDER BY id DESC LIMIT ?').all(limit) as Record<string, unknown>[];
  return rows.map((r) => ({
    id: r.id as number,
    kind: r.kind as string,
    startedAt: r.started_at as string,
    finishedAt: (r.finished_at as string | null) ?? null,
    status: r.status as string,
    requests: r.requests as number,
    rateLimited: r.rate_limited as number,
    counts: JSON.parse(r.counts as string) as Record<string, number>,
    error: (r.error as string | null) ?? null,
  }));
}
