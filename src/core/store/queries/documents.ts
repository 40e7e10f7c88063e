/**
 * Documents: those linked to a shipment or container (with the label of their type and whether
 * their file is kept here), the documents whose file a sync should fetch, and the file state the
 * sync's file step writes (`file_*`, left alone by the upsert): the kept file, or why the last
 * download failed and when it is tried again.
 */
import type { Db } from '../database';
import { perDb } from '../statements';

export interface DocumentRow {
  id: string;
  name: string | null;
  document_type: string | null;
  type_label: string | null;
  schema_id: string | null;
  source: string | null;
  file_name: string | null;
  content_type: string | null;
  size_bytes: number | null;
  created_at: string | null;
  updated_at: string | null;
  email_subject: string | null;
  file_path: string | null;
  file_bytes: number | null;
  /** 1 when the kept file is the current version (fetched for this `updated_at`). */
  file_current: number;
  /** The presigned file link the document came with (`links.download`), if any: it may have expired. */
  link: string | null;
  /** Why the last download of its file failed; null once a file is kept. */
  file_problem: string | null;
  /** When a sync tries that file again (ms since the epoch). */
  file_retry_at: number | null;
}

/** What fetching a document's file needs. */
export interface WantedFile {
  id: string;
  size_bytes: number | null;
  file_name: string | null;
  updated_at: string | null;
  link: string | null;
  /** Downloads of it that failed in a row. */
  file_failures: number | null;
}

export interface FileState {
  path: string;
  sha256: string;
  updatedAt: string | null;
  bytes: number;
}

/**
 * The download link a document came with, from `raw`: the residual keeps `links` as sent (no
 * column holds it), and a record kept whole (a one-element array, `store/residual.ts`) has it in
 * its one element.
 */
const downloadLink = (alias: string) =>
  `coalesce(json_extract(${alias}.raw, '$.links.download'), json_extract(${alias}.raw, '$[0].links.download'))`;

const columns = `d.id, d.name, d.document_type, s.label AS type_label, d.schema_id, d.source, d.file_name,
  d.content_type, d.size_bytes, d.created_at, d.updated_at, e.subject AS email_subject, d.file_path, d.file_bytes,
  (d.file_path IS NOT NULL AND d.file_updated_at IS d.updated_at) AS file_current,
  ${downloadLink('d')} AS link, d.file_problem, d.file_retry_at`;
const from = `FROM documents d
  LEFT JOIN document_schemas s ON s.id = d.schema_id AND s.synced_at IS NOT NULL
  LEFT JOIN email_submissions e ON e.id = d.email_submission_id AND e.synced_at IS NOT NULL`;

const wantedColumns = `d.id, d.size_bytes, d.file_name, d.updated_at, ${downloadLink('d')} AS link, d.file_failures`;
/** A file whose last download failed waits for its retry time (the statement's last parameter: now). */
const retryDue = '(d.file_retry_at IS NULL OR d.file_retry_at <= ?)';

const reads = perDb((db) => ({
  forRecord: db.prepare<[string], DocumentRow>(
    `SELECT ${columns} ${from} JOIN document_links l ON l.document_id = d.id
     WHERE l.record_id = ? AND d.synced_at IS NOT NULL ORDER BY d.created_at DESC, d.id`,
  ),
  byId: db.prepare<[string], DocumentRow>(`SELECT ${columns} ${from} WHERE d.id = ? AND d.synced_at IS NOT NULL`),
  // Newest first: when the budget runs out, the recent papers a forwarder works with are the ones kept.
  wanting: db.prepare<[number], WantedFile>(
    `SELECT ${wantedColumns} FROM documents d
     WHERE synced_at IS NOT NULL AND (file_path IS NULL OR file_updated_at IS NOT updated_at) AND ${retryDue}
     ORDER BY created_at DESC, id`,
  ),
  // Documents stored after one seq up to another (their rowid: a row keeps it when upserted, and
  // only the migrations' VACUUM could renumber them), in the order they were stored.
  wantingBetween: db.prepare<[number, number, number], WantedFile>(
    `SELECT ${wantedColumns} FROM documents d
     WHERE d.rowid > ? AND d.rowid <= ? AND synced_at IS NOT NULL
       AND (file_path IS NULL OR file_updated_at IS NOT updated_at) AND ${retryDue}
     ORDER BY d.rowid`,
  ),
  lastSeq: db.prepare<[], { seq: number | null }>('SELECT max(rowid) AS seq FROM documents'),
  keptBytes: db.prepare<[], { total: number }>(
    'SELECT coalesce(sum(file_bytes), 0) AS total FROM documents WHERE file_path IS NOT NULL',
  ),
  kept: db.prepare<[string], { file_path: string | null; file_sha256: string | null }>(
    'SELECT file_path, file_sha256 FROM documents WHERE id = ?',
  ),
}));
const writes = perDb((db) => ({
  file: db.prepare<[string, string, string | null, number, string]>(
    `UPDATE documents SET file_path = ?, file_sha256 = ?, file_updated_at = ?, file_bytes = ?,
       file_problem = NULL, file_failures = NULL, file_retry_at = NULL WHERE id = ?`,
  ),
  failure: db.prepare<[string, number, string]>(
    `UPDATE documents SET file_problem = ?, file_failures = coalesce(file_failures, 0) + 1, file_retry_at = ?
     WHERE id = ?`,
  ),
}));

/** The documents linked to a shipment or container, newest first. */
export function documentsForRecord(db: Db, recordId: string): DocumentRow[] {
  return reads(db).forRecord.all(recordId);
}

export function documentById(db: Db, id: string): DocumentRow | undefined {
  return reads(db).byId.get(id);
}

/** Documents whose file is not kept here, or was kept for an earlier version of the document. */
export function documentsWantingFiles(db: Db, now: number): WantedFile[] {
  return reads(db).wanting.all(now);
}

/**
 * Documents stored after `seq` whose file is wanted, in the order they were stored, and the seq
 * to ask after next time (the last document stored, wanted or not).
 */
export function documentsWantingFilesAfter(db: Db, seq: number, now: number): { wanted: WantedFile[]; last: number } {
  const last = lastDocumentSeq(db);
  if (last <= seq) return { wanted: [], last: seq };
  return { wanted: reads(db).wantingBetween.all(seq, last, now), last };
}

/** The seq of the last document stored (0 when there is none). */
export function lastDocumentSeq(db: Db): number {
  return reads(db).lastSeq.get()?.seq ?? 0;
}

/** Bytes of every kept file. */
export function keptFileBytes(db: Db): number {
  return reads(db).keptBytes.get()?.total ?? 0;
}

/** Where the document's kept file is (a name inside the documents folder) and its hash. */
export function keptFile(db: Db, id: string): { path: string | null; sha256: string | null } {
  const row = reads(db).kept.get(id);
  return { path: row?.file_path ?? null, sha256: row?.file_sha256 ?? null };
}

/** A file fetched into the documents folder under `state.path`, for its document to point at. */
export interface KeptFile {
  id: string;
  state: FileState;
}

/** Records the kept files of documents, in one write. */
export function recordDocumentFiles(db: Db, files: readonly KeptFile[]): void {
  const write = writes(db).file;
  db.transaction(() => {
    for (const { id, state } of files) write.run(state.path, state.sha256, state.updatedAt, state.bytes, id);
  })();
}

/** Records files that could not be fetched: the sentence why, and when a sync tries again. */
export function recordFileFailures(
  db: Db,
  failures: readonly { id: string; problem: string; retryAt: number }[],
): void {
  const write = writes(db).failure;
  db.transaction(() => {
    for (const { id, problem, retryAt } of failures) write.run(problem, retryAt, id);
  })();
}
