/**
 * Migration 0005, the documents part: documents with the shipments and containers
 * they are linked to (`document_links`, one row per linked record: ids are UUIDs across types),
 * the representation each was last read into (its schema version) and the schema versions named
 * (fetched by id: label of the type). `file_*` are the offline copy of the document's file in the
 * `documents` folder beside the database (written by the sync's file step, kept by the upsert).
 * Email submissions gain what their list shows: how many documents and when they arrived.
 */
export const up = `
CREATE TABLE document_schemas (
  id TEXT PRIMARY KEY,
  document_type TEXT,
  label TEXT,
  raw TEXT,
  synced_at TEXT
) STRICT;

CREATE TABLE document_representations (
  id TEXT PRIMARY KEY,
  schema_version TEXT,
  raw TEXT,
  synced_at TEXT
) STRICT;

CREATE TABLE documents (
  id TEXT PRIMARY KEY,
  name TEXT,
  document_type TEXT,
  source TEXT,
  file_name TEXT,
  content_type TEXT,
  size_bytes INTEGER,
  email_submission_id TEXT REFERENCES email_submissions (id),
  representation_id TEXT REFERENCES document_representations (id),
  schema_id TEXT REFERENCES document_schemas (id),
  created_at TEXT,
  updated_at TEXT,
  raw TEXT,
  synced_at TEXT,
  file_path TEXT,
  file_sha256 TEXT,
  file_updated_at TEXT,
  file_bytes INTEGER
) STRICT;
CREATE INDEX documents_email_submission_id ON documents (email_submission_id);

CREATE TABLE document_links (
  document_id TEXT NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
  record_id TEXT NOT NULL,
  PRIMARY KEY (document_id, record_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX document_links_record_id ON document_links (record_id);

ALTER TABLE email_submissions ADD COLUMN documents_count INTEGER;
ALTER TABLE email_submissions ADD COLUMN created_at TEXT;
CREATE INDEX email_submissions_created_at ON email_submissions (created_at);
`;
