/**
 * Metro areas get their own table. Until now they were kept in `ports` (an event's location or
 * a shipment's destination may be either); a reference to one now has its own column, since
 * SQLite cannot point an existing foreign key elsewhere without rebuilding the table. The rows
 * that are metro areas are told by their own record's type, or, for a stub, by the type the
 * referencing record gives its relationship; they move with their records, the references follow
 * them, and the port rows go (unless something still names them as a port). Rail terminals get
 * their metro area from their record (a stub until the sync fetches it). The view `locations`
 * unites ports and metro areas for everything that names a place.
 */
export const up = `
CREATE TABLE metro_areas (
  id TEXT PRIMARY KEY,
  code TEXT,
  name TEXT,
  state_abbr TEXT,
  country_code TEXT,
  time_zone TEXT,
  latitude REAL,
  longitude REAL,
  raw TEXT,
  synced_at TEXT
) STRICT;
CREATE INDEX metro_areas_code ON metro_areas (code);

ALTER TABLE transport_events ADD COLUMN metro_area_id TEXT REFERENCES metro_areas (id);
ALTER TABLE shipments ADD COLUMN destination_metro_area_id TEXT REFERENCES metro_areas (id);
ALTER TABLE terminals ADD COLUMN metro_area_id TEXT REFERENCES metro_areas (id);

CREATE TEMP TABLE moved_metro_areas (id TEXT PRIMARY KEY);
INSERT OR IGNORE INTO moved_metro_areas (id)
  SELECT id FROM ports WHERE json_extract(raw, '$.type') = 'metro_area';
-- A stub has no record of its own: the records that point at it say what it is (only theirs are parsed).
INSERT OR IGNORE INTO moved_metro_areas (id)
  SELECT location_id FROM transport_events
  WHERE location_id IN (SELECT id FROM ports WHERE raw IS NULL)
    AND json_extract(raw, '$.relationships.location.data.type') = 'metro_area';
INSERT OR IGNORE INTO moved_metro_areas (id)
  SELECT destination_id FROM shipments
  WHERE destination_id IN (SELECT id FROM ports WHERE raw IS NULL)
    AND json_extract(raw, '$.relationships.destination.data.type') = 'metro_area';

INSERT INTO metro_areas (id, code, name, state_abbr, country_code, time_zone, latitude, longitude, raw, synced_at)
  SELECT p.id, p.code, p.name, p.state_abbr, p.country_code, p.time_zone,
    CASE WHEN json_type(p.raw, '$.attributes.latitude') IN ('real', 'integer')
      THEN json_extract(p.raw, '$.attributes.latitude') END,
    CASE WHEN json_type(p.raw, '$.attributes.longitude') IN ('real', 'integer')
      THEN json_extract(p.raw, '$.attributes.longitude') END,
    p.raw, p.synced_at
  FROM ports p JOIN moved_metro_areas m ON m.id = p.id;

UPDATE transport_events SET metro_area_id = location_id, location_id = NULL
  WHERE location_id IN (SELECT id FROM moved_metro_areas);
UPDATE shipments SET destination_metro_area_id = destination_id, destination_id = NULL
  WHERE destination_id IN (SELECT id FROM moved_metro_areas);

INSERT OR IGNORE INTO metro_areas (id)
  SELECT CAST(json_extract(raw, '$.relationships.metro_area.data.id') AS TEXT) FROM terminals
  WHERE json_extract(raw, '$.relationships.metro_area.data.type') = 'metro_area'
    AND json_extract(raw, '$.relationships.metro_area.data.id') IS NOT NULL;
UPDATE terminals SET metro_area_id = CAST(json_extract(raw, '$.relationships.metro_area.data.id') AS TEXT)
  WHERE json_extract(raw, '$.relationships.metro_area.data.type') = 'metro_area'
    AND json_extract(raw, '$.relationships.metro_area.data.id') IS NOT NULL;

DELETE FROM ports WHERE id IN (SELECT id FROM moved_metro_areas)
  AND NOT EXISTS (SELECT 1 FROM shipments s WHERE s.pol_id = ports.id OR s.pod_id = ports.id OR s.destination_id = ports.id)
  AND NOT EXISTS (SELECT 1 FROM terminals t WHERE t.port_id = ports.id)
  AND NOT EXISTS (SELECT 1 FROM transport_events e WHERE e.location_id = ports.id);
DROP TABLE temp.moved_metro_areas;

CREATE VIEW locations (kind, id, code, name, city, state_abbr, country_code, time_zone) AS
  SELECT 'port', id, code, name, city, state_abbr, country_code, time_zone FROM ports
  UNION ALL
  SELECT 'metro_area', id, code, name, NULL, state_abbr, country_code, time_zone FROM metro_areas;
`;
