/**
 * Migration 0009, the big tables' ids as keys, for a smaller database. Transport events: an event's row was mostly
 * ids (its container's, shipment's, place's, terminal's, vessel's: 36 characters each) and texts
 * every event repeats (`container.transport.vessel_departed`, `Europe/Berlin`, `shipping_line`).
 * Each such text is now kept once, in `interned`, and the event holds its key: an integer of two
 * or three bytes. The descriptor marks these columns `interned` (`resources/define.ts`); the
 * writer binds keys, queries read the texts back through `interned`. What `raw` leaves out
 * (migration 0008's residual) is unchanged: a column still gives back exactly the same text.
 *
 * Its instants (`timestamp`, `created_at`, `invalidated_at`, `synced_at`) become integer
 * milliseconds since 1970. The store wrote them in one form (`store/instant.ts`), which the
 * milliseconds give back exactly; a row whose text would not come back the same (written before
 * that form, or not an instant at all) first has the text put in its residual `raw`, where a
 * member wins over the column, so the record still reads back as the service sent it.
 *
 * Their own ids, and the id of the event one corrects, are UUIDs: kept as their 16 bytes (an ANY
 * column; an id that is not a canonical UUID stays text), in the table and in its index.
 *
 * The index on `previous_version_id` keeps only the events that correct another (a partial
 * index): the lookups through it (`WHERE previous_version_id = e.id`) imply a value.
 *
 * Custom field values: their definition's id becomes a key too (`definition_key`; no query reads
 * it, the values are read by record and slug), `synced_at` milliseconds and their own id bytes; the table is rebuilt
 * with its three indexes as 0005 and 0006 made them.
 *
 * `interned` never loses a row: a key, once given, names its text for good (a key in a rolled
 * back page is given again, to whatever the next page interns, with nothing pointing at it).
 */
/** The events' columns whose texts become keys, and their names after (an id's `_id` becomes `_key`). */
const eventKeys: Readonly<Record<string, string>> = {
  container_id: 'container_key',
  shipment_id: 'shipment_key',
  event: 'event_key',
  timezone: 'timezone_key',
  location_id: 'location_key',
  metro_area_id: 'metro_area_key',
  terminal_id: 'terminal_key',
  vessel_id: 'vessel_key',
  data_source: 'data_source_key',
};
/** The columns each table renames. */
export const renamed: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  transport_events: eventKeys,
  custom_fields: { definition_id: 'definition_key' },
};

/** A canonical UUID (lowercase, dashed) as its 16 bytes, any other id as it is (`storedUuid`, frozen here). */
const hexes = (n: number) => '[0-9a-f]'.repeat(n);
const uuidPattern = [8, 4, 4, 4, 12].map(hexes).join('-');
const bytesOf = (column: string) =>
  `(CASE WHEN ${column} GLOB '${uuidPattern}' THEN unhex(replace(${column}, '-', '')) ELSE ${column} END)`;

const keyOf = (column: string) => `(SELECT key FROM interned WHERE text = e.${column})`;

/** The instants the record holds as attributes, and their milliseconds (NULL for no instant). */
const instants = ['timestamp', 'created_at', 'invalidated_at'];
const ms = (column: string) => `CAST(round(unixepoch(${column}, 'subsec') * 1000) AS INTEGER)`;
/** The text the store gives back for milliseconds `m` (as `instantText` in resources/define.ts, frozen here). */
const textOfMs = (m: string) => {
  const part = `(((${m}) % 1000) + 1000) % 1000`;
  return `(strftime('%Y-%m-%dT%H:%M:%S', ((${m}) - ${part}) / 1000, 'unixepoch') ||
    CASE ${part} WHEN 0 THEN 'Z' ELSE printf('.%03dZ', ${part}) END)`;
};
/**
 * Rows whose instant would not read back as stored: the text goes into the residual, unless the
 * residual holds the member already (it then differed from the column) or is the whole record (an array).
 */
const keepText = (
  column: string,
) => `UPDATE transport_events SET raw = json_set(raw, '$.attributes.${column}', ${column})
  WHERE ${column} IS NOT NULL AND (CASE WHEN json_valid(raw) THEN json_type(raw) END) = 'object'
    AND json_type(raw, '$.attributes.${column}') IS NULL AND ${textOfMs(ms(column))} IS NOT ${column};`;

export const up = `
${instants.map(keepText).join('\n')}

CREATE TABLE interned (
  key INTEGER PRIMARY KEY,
  text TEXT NOT NULL UNIQUE
) STRICT;
INSERT OR IGNORE INTO interned (text)
  SELECT text FROM (${Object.keys(eventKeys)
    .map((from) => `SELECT ${from} AS text FROM transport_events`)
    .join(' UNION ALL ')})
  WHERE text IS NOT NULL;
INSERT OR IGNORE INTO interned (text) SELECT definition_id FROM custom_fields WHERE definition_id IS NOT NULL;

CREATE TABLE transport_events_0009 (
  id ANY PRIMARY KEY,
  container_key INTEGER NOT NULL REFERENCES interned (key),
  shipment_key INTEGER REFERENCES interned (key),
  event_key INTEGER REFERENCES interned (key),
  timestamp INTEGER,
  timezone_key INTEGER REFERENCES interned (key),
  location_locode TEXT,
  location_key INTEGER REFERENCES interned (key),
  metro_area_key INTEGER REFERENCES interned (key),
  terminal_key INTEGER REFERENCES interned (key),
  vessel_key INTEGER REFERENCES interned (key),
  voyage_number TEXT,
  data_source_key INTEGER REFERENCES interned (key),
  created_at INTEGER,
  invalidated_at INTEGER,
  previous_version_id ANY,
  raw TEXT NOT NULL,
  synced_at INTEGER
) STRICT;
INSERT INTO transport_events_0009 SELECT ${bytesOf('e.id')}, ${keyOf('container_id')}, ${keyOf('shipment_id')},
  ${keyOf('event')}, ${ms('e.timestamp')}, ${keyOf('timezone')}, e.location_locode, ${keyOf('location_id')},
  ${keyOf('metro_area_id')}, ${keyOf('terminal_id')}, ${keyOf('vessel_id')}, e.voyage_number, ${keyOf('data_source')},
  ${ms('e.created_at')}, ${ms('e.invalidated_at')}, ${bytesOf('e.previous_version_id')}, e.raw, ${ms('e.synced_at')}
  FROM transport_events e ORDER BY e.rowid;
DROP TABLE transport_events;
ALTER TABLE transport_events_0009 RENAME TO transport_events;
CREATE INDEX transport_events_container ON transport_events (container_key, timestamp);
CREATE INDEX transport_events_previous_version_id ON transport_events (previous_version_id)
  WHERE previous_version_id IS NOT NULL;

CREATE TABLE custom_fields_0009 (
  id ANY PRIMARY KEY,
  entity_type TEXT,
  entity_id TEXT,
  definition_key INTEGER REFERENCES interned (key),
  api_slug TEXT,
  value TEXT,
  display_value TEXT,
  raw TEXT,
  synced_at INTEGER
) STRICT;
INSERT INTO custom_fields_0009 SELECT ${bytesOf('v.id')}, v.entity_type, v.entity_id,
  (SELECT key FROM interned WHERE text = v.definition_id), v.api_slug, v.value, v.display_value, v.raw, ${ms('v.synced_at')}
  FROM custom_fields v ORDER BY v.rowid;
DROP TABLE custom_fields;
ALTER TABLE custom_fields_0009 RENAME TO custom_fields;
CREATE INDEX custom_fields_entity_id ON custom_fields (entity_id, api_slug);
CREATE INDEX custom_fields_list_value ON custom_fields (
  entity_type, api_slug, (CASE WHEN json_valid(value) THEN json_extract(value, '$') END), entity_id
);
CREATE INDEX custom_fields_list_text ON custom_fields (entity_type, api_slug, display_value, entity_id);
`;
