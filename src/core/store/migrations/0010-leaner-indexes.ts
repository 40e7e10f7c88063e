/**
 * Migration 0010, leaner indexes, for a smaller database.
 *
 * The lists' sort indexes without the id. Each index a list sorts by was on (column, id) so that
 * rows with the same value came in a fixed order, the id breaking the tie; but every SQLite index
 * already ends in the row's rowid, which breaks it as well. A list now ties by its table's rowid
 * (`tieColumn` in `queries/keyset.ts`), so these indexes hold the column alone: 37 bytes less an
 * entry (a text id and its header byte), in four of the shipments' indexes, four of the
 * containers' and two of the tracking requests'. The indexes a filter reads as well keep the id
 * (carrier, port of discharge, customer, status): a carrier filter beside a tag filter
 * (`id IN …`) tests each row's id in the index before reading the row (33 ms a page over 100k
 * shipments without it, against 25); a list sorted by one of those ties by id (`tiesById`). The rowid is stable for the row's life: an
 * upsert updates a row in place, and VACUUM keeps the rowids of a table without an INTEGER
 * PRIMARY KEY (the search tables rely on it too).
 *
 * Custom field values: the record's type, the record's id and the field's slug become keys in
 * `interned` (`entity_type_key`, `entity_key`, `api_slug_key`), in the table and in its three
 * indexes, which each held the 36-character id and the slug (a record's id is interned already
 * when its events name it). The lists' walk of a field's values ties by the record's key
 * (`SortJoin.tie`). The table is rebuilt, its rows in the order they had.
 *
 * Documents keep in `raw` only what their columns do not hold (as 0008 did for the big tables):
 * stripped by `raw_residual` with the spec below, frozen (what `resources/documents.ts` declared
 * when 0010 was written), a member left out only when the row's column gives it back exactly.
 */
/** The tables whose records 0010 strips to their residual, as 0008's `stripped`. */
export const stripped: { table: string; columns: string; spec: string }[] = [
  {
    table: 'documents',
    columns:
      'name, source, file_name, content_type, size_bytes, email_submission_id, representation_id, created_at, updated_at',
    spec: '{"type":"document","attributes":[["name",0,"value"],["source",1,"value"],["file_name",2,"value"],["file_content_type",3,"value"],["file_size_bytes",4,"value"],["created_at",7,"value"],["updated_at",8,"value"]],"relationships":[["email_submission",[[5,"email_submission"]]],["last_document_representation",[[6,"document_representation"]]]],"usual":{"attributes":{"document_type_manual":null,"classification_notes":null},"relationships":{"user":{"data":null}}}}',
  },
];

/** The lists' sort indexes rebuilt, as (name, table, column). */
const sortIndexes: readonly [name: string, table: string, column: string][] = [
  ['shipments_created', 'shipments', 'created_at'],
  ['shipments_eta', 'shipments', 'pod_eta_at'],
  ['shipments_ata', 'shipments', 'pod_ata_at'],
  ['shipments_bl', 'shipments', 'bill_of_lading'],
  ['containers_created', 'containers', 'created_at'],
  ['containers_number', 'containers', 'number'],
  ['containers_lfd', 'containers', 'lfd_deadline_at'],
  ['containers_discharged', 'containers', 'pod_discharged_at'],
  ['tracking_requests_created', 'tracking_requests', 'created_at'],
  ['tracking_requests_updated', 'tracking_requests', 'updated_at'],
];

/** The custom field values' columns that become keys, and their names after. */
const valueKeys: Readonly<Record<string, string>> = {
  entity_type: 'entity_type_key',
  entity_id: 'entity_key',
  api_slug: 'api_slug_key',
};
/** The columns each table renames. */
export const renamed: Readonly<Record<string, Readonly<Record<string, string>>>> = { custom_fields: valueKeys };

const keyOf = (column: string) => `(SELECT key FROM interned WHERE text = v.${column})`;

export const up = `
${sortIndexes.map(([name, table, column]) => `DROP INDEX ${name};\nCREATE INDEX ${name} ON ${table} (${column});`).join('\n')}

INSERT OR IGNORE INTO interned (text)
  SELECT text FROM (${Object.keys(valueKeys)
    .map((from) => `SELECT ${from} AS text FROM custom_fields`)
    .join(' UNION ALL ')})
  WHERE text IS NOT NULL;
CREATE TABLE custom_fields_0010 (
  id ANY PRIMARY KEY,
  entity_type_key INTEGER REFERENCES interned (key),
  entity_key INTEGER REFERENCES interned (key),
  definition_key INTEGER REFERENCES interned (key),
  api_slug_key INTEGER REFERENCES interned (key),
  value TEXT,
  display_value TEXT,
  raw TEXT,
  synced_at INTEGER
) STRICT;
INSERT INTO custom_fields_0010 SELECT v.id, ${keyOf('entity_type')}, ${keyOf('entity_id')}, v.definition_key,
  ${keyOf('api_slug')}, v.value, v.display_value, v.raw, v.synced_at
  FROM custom_fields v ORDER BY v.rowid;
DROP TABLE custom_fields;
ALTER TABLE custom_fields_0010 RENAME TO custom_fields;
CREATE INDEX custom_fields_entity ON custom_fields (entity_key, api_slug_key);
CREATE INDEX custom_fields_list_value ON custom_fields (
  entity_type_key, api_slug_key, (CASE WHEN json_valid(value) THEN json_extract(value, '$') END), entity_key
);
CREATE INDEX custom_fields_list_text ON custom_fields (entity_type_key, api_slug_key, display_value, entity_key);

${stripped
  .map((t) => `UPDATE ${t.table} SET raw = raw_residual('${t.spec}', id, raw, ${t.columns}) WHERE raw IS NOT NULL;`)
  .join('\n')}
`;
