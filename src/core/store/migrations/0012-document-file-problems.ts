/**
 * Migration 0012: a document whose file could not be downloaded says why (`file_problem`), and
 * waits before the next try, longer after each failure in a row (`file_failures`,
 * `file_retry_at` in ms since the epoch). Written by the sync's file step alone.
 */
export const up = `
ALTER TABLE documents ADD COLUMN file_problem TEXT;
ALTER TABLE documents ADD COLUMN file_failures INTEGER;
ALTER TABLE documents ADD COLUMN file_retry_at INTEGER;
`;
