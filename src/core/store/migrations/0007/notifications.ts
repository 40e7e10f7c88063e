/**
 * Migration 0007, part notifications: the alerts each sync raised under the
 * rules picked in Settings. An alert is raised once per occurrence (`UNIQUE (rule, record_id,
 * occurrence)`: the last free day's date, the change's id, the failure's time), so the next
 * sync does not raise it again; read by sync (the notification), by time (the Alerts view, the
 * CLI, the retention prune) and by record.
 */
export const up = `
CREATE TABLE alerts (
  id INTEGER PRIMARY KEY,
  run_id INTEGER,
  rule TEXT NOT NULL CHECK (rule IN ('lfd_soon', 'available', 'hold', 'eta_slip', 'tracking_failed')),
  resource TEXT NOT NULL CHECK (resource IN ('shipment', 'container', 'tracking_request')),
  record_id TEXT NOT NULL,
  shipment_id TEXT,
  detail TEXT NOT NULL,
  occurrence TEXT NOT NULL,
  raised_at TEXT NOT NULL,
  UNIQUE (rule, record_id, occurrence)
) STRICT;
CREATE INDEX alerts_run ON alerts (run_id, id);
CREATE INDEX alerts_raised ON alerts (raised_at, id);
`;
