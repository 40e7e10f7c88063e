/**
 * Documents: those linked to a shipment or container (with the label of their type and whether
 * their file is kept here), the documents whose file a sync should fetch, and the file state the
 * sync's file step writes (`file_*`, left alone by the upsert).
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
}

/** What fetching a document's file needs. */
export interface WantedFile {
  id: string;
  size_bytes: number | null;
  file_name: string | null;
  updated_at: string | null;
  link: string | null;
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
  ${downloadLink('d')} AS link`;
const from = `FROM documents d
  LEFT JOIN document_schemas s ON s.id = d.schema_id AND s.synced_at IS NOT NULL
  LEFT JOIN email_submissions e ON e.id = d.email_submission_id AND e.synced_at IS NOT NULL`;

const reads = perDb((db) => ({
  forRecord: db.prepare<[string], DocumentRow>(
    `SELECT ${columns} ${from} JOIN document_links l ON l.document_id = d.id
     WHERE l.record_id = ? AND d.synced_at IS NOT NULL ORDER BY d.created_at DESC, d.id`,
  ),
  byId: db.prepare<[string], DocumentRow>(`SELECT ${columns} ${from} WHERE d.id = ? AND d.synced_at IS NOT NULL`),
  // Newest first: when the budget runs out, the recent papers a forwarder works with are the ones kept.
  wanting: db.prepare<[], WantedFile>(
    `SELECT d.id, d.size_bytes, d.file_name, d.updated_at, ${downloadLink('d')} AS link FROM documents d
     WHERE synced_at IS NOT NULL AND (file_path IS NULL OR file_updated_at IS NOT updated_at)
     ORDER BY created_at DESC, id`,
  ),
  // Documents stored after one seq up to another (their rowid: a row keeps it when upserted, and
  // only the migrations' VACUUM could renumber them), in the order they were stored.
  wantingBetween: db.prepare<[number, number], WantedFile>(
    `SELECT d.id, d.size_bytes, d.file_name, d.updated_at, ${downloadLink('d')} AS link FROM documents d
     WHERE d.rowid > ? AND d.rowid <= ? AND synced_at IS NOT NULL
       AND (file_path IS NULL OR file_updated_at IS NOT updated_at)
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
const writeFile = perDb((db) =>
  db.prepare<[string, string, string | null, number, string]>(
    'UPDATE documents SET file_path = ?, file_sha256 = ?, file_updated_at = ?, file_bytes = ? WHERE id = ?',
  ),
);

/** The documents linked to a shipment or container, newest first. */
export function documentsForRecord(db: Db, recordId: string): DocumentRow[] {
  return reads(db).forRecord.all(recordId);
}

export function documentById(db: Db, id: string): DocumentRow | undefined {
  return reads(db).byId.get(id);
}

/** Documents whose file is not kept here, or was kept for an earlier version of the document. */
export function documentsWantingFiles(db: Db): WantedFile[] {
  return reads(db).wanting.all();
}

/**
 * Documents stored after `seq` whose file is wanted, in the order they were stored, and the seq
 * to ask after next time (the last document stored, wanted or not).
 */
export function documentsWantingFilesAfter(db: Db, seq: number): { wanted: WantedFile[]; last: number } {
  const last = lastDocumentSeq(db);
  if (last <= seq) return { wanted: [], last: seq };
  return { wanted: reads(db).wantingBetween.all(seq, last), last };
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
  const write = writeFile(db);
  db.transaction(() => {
    for (const { id, state } of files) write.run(state.path, state.sha256, state.updatedAt, state.bytes, id);
  })();
}
