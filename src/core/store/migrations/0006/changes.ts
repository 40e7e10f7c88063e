/**
 * Migration 0006, changes: the change history. One row per change the writer
 * saw as it upserted a shipment or container that was already stored (a record's first
 * appearance is no change): which record (by type and id, no foreign key: the history outlives
 * nothing it names, and is pruned by age), the shipment it belongs to (for filters by customer
 * and carrier), the kind (`field`, with the hold type in `detail`), old and new value as JSON
 * text, and when the sync saw it. Indexed for "since T" reads (and the retention prune) and per
 * record (a shipment's successive ETAs).
 *
 * `change_marks` keeps this database's "last looked at" time (per profile, as each profile has
 * its database). Containers gain `lfd_source`, which of the deadlines the last free day is (the
 * terminal's or the rail ramp's), so a change of it says which.
 */
export const up = `
CREATE TABLE record_changes (
  id INTEGER PRIMARY KEY,
  resource TEXT NOT NULL CHECK (resource IN ('shipment', 'container')),
  record_id TEXT NOT NULL,
  shipment_id TEXT,
  field TEXT NOT NULL,
  detail TEXT,
  old_value TEXT,
  new_value TEXT,
  seen_at TEXT NOT NULL
) STRICT;
CREATE INDEX record_changes_seen_at ON record_changes (seen_at);
CREATE INDEX record_changes_record ON record_changes (record_id, field, seen_at);

CREATE TABLE change_marks (
  name TEXT PRIMARY KEY,
  at TEXT NOT NULL
) STRICT;

ALTER TABLE containers ADD COLUMN lfd_source TEXT;
`;
