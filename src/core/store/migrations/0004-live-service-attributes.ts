/**
 * What the live service sends beyond its reference. Transport events: when the
 * carrier withdrew one (`invalidated_at`) and the event a correction replaces
 * (`previous_version`). Shipments: the original departure and destination dates and the
 * destination terminal (until now read from `raw`). Containers: delivery, empty out, the origin
 * moves, the line's own last free day and the inland facility's holds and fees. Ports: their
 * position (metro areas had one already). The new date columns fill as rows are synced again
 * (every shipment page brings its containers; stopped shipments are walked daily); the
 * destination terminal, an id, is copied from `raw` here.
 */
export const up = `
ALTER TABLE transport_events ADD COLUMN invalidated_at TEXT;
ALTER TABLE transport_events ADD COLUMN previous_version_id TEXT;
CREATE INDEX transport_events_previous_version_id ON transport_events (previous_version_id);

ALTER TABLE shipments ADD COLUMN pol_original_etd_at TEXT;
ALTER TABLE shipments ADD COLUMN destination_original_eta_at TEXT;
ALTER TABLE shipments ADD COLUMN destination_terminal_id TEXT REFERENCES terminals (id);

INSERT OR IGNORE INTO terminals (id)
  SELECT CAST(json_extract(raw, '$.relationships.destination_terminal.data.id') AS TEXT) FROM shipments
  WHERE json_extract(raw, '$.relationships.destination_terminal.data.id') IS NOT NULL;
UPDATE shipments
  SET destination_terminal_id = CAST(json_extract(raw, '$.relationships.destination_terminal.data.id') AS TEXT)
  WHERE json_extract(raw, '$.relationships.destination_terminal.data.id') IS NOT NULL;

ALTER TABLE containers ADD COLUMN delivered_at TEXT;
ALTER TABLE containers ADD COLUMN empty_out_at TEXT;
ALTER TABLE containers ADD COLUMN pol_full_in_at TEXT;
ALTER TABLE containers ADD COLUMN pol_vessel_loaded_at TEXT;
ALTER TABLE containers ADD COLUMN pol_vessel_departed_at TEXT;
ALTER TABLE containers ADD COLUMN line_lfd TEXT;
ALTER TABLE containers ADD COLUMN facility_holds TEXT;
ALTER TABLE containers ADD COLUMN facility_fees_total REAL;

ALTER TABLE ports ADD COLUMN latitude REAL;
ALTER TABLE ports ADD COLUMN longitude REAL;
`;
