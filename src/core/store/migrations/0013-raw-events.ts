/**
 * Migration 0013: a container's raw events (the carrier's own wording of each milestone, read
 * from `/containers/{id}/raw_events`), and `child_list_reads`, when each parent's child list was
 * last read and which change of the parent it saw (`sync/child-lists.ts`: cost and freshness of
 * lists read one parent at a time).
 */
export const up = `
CREATE TABLE raw_events (
  id TEXT PRIMARY KEY,
  container_id TEXT REFERENCES containers (id),
  event TEXT,
  original_event TEXT,
  timestamp TEXT,
  estimated INTEGER,
  location_name TEXT,
  vessel_name TEXT,
  voyage_number TEXT,
  position INTEGER,
  raw TEXT,
  synced_at TEXT
) STRICT;
CREATE INDEX raw_events_container_id ON raw_events (container_id);

CREATE TABLE child_list_reads (
  list TEXT NOT NULL,
  parent_id TEXT NOT NULL,
  read_at TEXT NOT NULL,
  parent_changed TEXT,
  PRIMARY KEY (list, parent_id)
) STRICT, WITHOUT ROWID;
`;
