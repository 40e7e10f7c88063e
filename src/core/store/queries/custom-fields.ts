/**
 * Custom fields as the views read them: a record's fields (every definition of its type, with
 * the value it holds, if any), the options of pick-list fields, and the cells an export adds.
 */
import type { CustomFieldCells, CustomFieldValue } from '../../../shared/custom-fields';
import type { Db } from '../database';
import { perDb } from '../statements';
import { internedText } from '../../resources/define';
import { customFieldValueKey, keyOfText, ofField } from './list-sql';

/** The definitions' `entity_type` (`Shipment`) for the values' relationship type (`shipment`). */
export type DefinitionEntityType = 'Shipment' | 'Container' | 'TrackingRequest';

export interface CustomFieldRow {
  definitionId: string;
  apiSlug: string;
  name: string | null;
  dataType: string | null;
  description: string | null;
  /** JSON text of the value, or null when unset. */
  value: string | null;
  displayValue: string | null;
}

export interface CustomFieldDefinitionRow {
  definitionId: string;
  apiSlug: string;
  name: string | null;
  dataType: string | null;
  description: string | null;
}

export interface CustomFieldOptionRow {
  definitionId: string;
  value: string | null;
  label: string | null;
}

const statements = perDb((db: Db) => ({
  ofRecord: db.prepare<[string, DefinitionEntityType], CustomFieldRow>(
    `SELECT d.id AS definitionId, d.api_slug AS apiSlug, d.display_name AS name, d.data_type AS dataType,
            json_extract(d.raw, '$.attributes.description') AS description,
            v.value AS value, v.display_value AS displayValue
       FROM custom_field_definitions d
       LEFT JOIN custom_fields v INDEXED BY custom_fields_entity
         ON v.entity_key = ${keyOfText()} AND v.api_slug_key = ${keyOfText('d.api_slug')}
      WHERE d.entity_type = ? AND d.raw IS NOT NULL AND d.api_slug IS NOT NULL
      ORDER BY d.display_name COLLATE NOCASE, d.id`,
  ),
  options: db.prepare<[DefinitionEntityType], CustomFieldOptionRow>(
    `SELECT o.definition_id AS definitionId, o.value AS value, o.label AS label
       FROM custom_field_options o JOIN custom_field_definitions d ON d.id = o.definition_id
      WHERE d.entity_type = ? AND o.raw IS NOT NULL
      ORDER BY o.position IS NULL, o.position, o.label COLLATE NOCASE`,
  ),
  dataTypes: db.prepare<[DefinitionEntityType], { apiSlug: string; dataType: string | null }>(
    `SELECT api_slug AS apiSlug, data_type AS dataType FROM custom_field_definitions
      WHERE entity_type = ? AND raw IS NOT NULL AND api_slug IS NOT NULL`,
  ),
  described: db.prepare<[DefinitionEntityType], CustomFieldDefinitionRow>(
    `SELECT id AS definitionId, api_slug AS apiSlug, display_name AS name, data_type AS dataType,
            json_extract(raw, '$.attributes.description') AS description
       FROM custom_field_definitions
      WHERE entity_type = ? AND raw IS NOT NULL AND api_slug IS NOT NULL
      ORDER BY display_name COLLATE NOCASE, id`,
  ),
  // How many records hold each value of one field (a pick list's counts), from its list index.
  valueCounts: db.prepare<[string, string], { value: unknown; n: number }>(
    `SELECT ${customFieldValueKey('v')} AS value, count(*) AS n FROM custom_fields v
      WHERE ${ofField('v')} AND ${customFieldValueKey('v')} IS NOT NULL
      GROUP BY ${customFieldValueKey('v')}`,
  ),
  multiValueCounts: db.prepare<[string, string], { value: unknown; n: number }>(
    `SELECT j.value AS value, count(*) AS n
       FROM custom_fields v, json_each(CASE WHEN json_valid(v.value) THEN v.value END) j
      WHERE ${ofField('v')} GROUP BY j.value`,
  ),
  // The values of a page of records: by their ids (the record index, named: a type holds many).
  ofRecords: db.prepare<
    [string, string],
    { entityId: string; apiSlug: string; value: string | null; text: string | null }
  >(
    `SELECT ${internedText('v', 'entity_key')} AS entityId, ${internedText('v', 'api_slug_key')} AS apiSlug, v.value,
            v.display_value AS text
       FROM custom_fields v INDEXED BY custom_fields_entity
      WHERE v.entity_key IN (SELECT i.key FROM json_each(?) j JOIN interned i ON i.text = j.value)
        AND v.entity_type_key = ${keyOfText()} AND v.api_slug_key IS NOT NULL`,
  ),
  definitions: db.prepare<[DefinitionEntityType], { apiSlug: string; name: string | null }>(
    `SELECT api_slug AS apiSlug, display_name AS name FROM custom_field_definitions
      WHERE entity_type = ? AND raw IS NOT NULL AND api_slug IS NOT NULL
      ORDER BY display_name COLLATE NOCASE, id`,
  ),
  cells: db.prepare<[string], { entityId: string; apiSlug: string; displayValue: string | null }>(
    // Read from the list index alone (it holds all four columns), the texts of its keys from
    // `interned`: a value's row always has its record's key, a stub (a value only named so far) has none.
    `SELECT ${internedText('v', 'entity_key')} AS entityId, ${internedText('v', 'api_slug_key')} AS apiSlug,
            v.display_value AS displayValue
       FROM custom_fields v INDEXED BY custom_fields_list_text
      WHERE v.entity_type_key = ${keyOfText()} AND v.entity_key IS NOT NULL`,
  ),
}));

const dropValue = perDb((db: Db) =>
  db.prepare<[string, string]>(
    `DELETE FROM custom_fields WHERE entity_key = ${keyOfText()} AND api_slug_key = ${keyOfText()}`,
  ),
);

/** Every field of a record's type, with the value the record holds (null when unset). */
export function customFieldsOfRecord(db: Db, type: DefinitionEntityType, entityId: string): CustomFieldRow[] {
  return statements(db).ofRecord.all(entityId, type);
}

/** The options of the pick-list fields of a record type, in their order. */
export function customFieldOptions(db: Db, type: DefinitionEntityType): CustomFieldOptionRow[] {
  return statements(db).options.all(type);
}

/** The definitions of a record type, by name (the export's `cf.<api_slug>` columns). */
export function customFieldDefinitions(db: Db, type: DefinitionEntityType): { apiSlug: string; name: string | null }[] {
  return statements(db).definitions.all(type);
}

/** The data type of each field of a record type, by api_slug (how a list sorts and filters it). */
export function customFieldDataTypes(db: Db, type: DefinitionEntityType): Map<string, string> {
  return new Map(
    statements(db)
      .dataTypes.all(type)
      .map((d) => [d.apiSlug, d.dataType ?? 'short_text']),
  );
}

/** The definitions of a record type with their data type and description, by name. */
export function customFieldDefinitionRows(db: Db, type: DefinitionEntityType): CustomFieldDefinitionRow[] {
  return statements(db).described.all(type);
}

/**
 * How many records of a type (`shipment`) hold each value of one field, by the value as text (an
 * option's value); a multi pick list counts each option a record holds.
 */
export function customFieldValueCounts(
  db: Db,
  entityType: string,
  apiSlug: string,
  multi: boolean,
): Map<string, number> {
  const counts = new Map<string, number>();
  const statement = multi ? statements(db).multiValueCounts : statements(db).valueCounts;
  for (const row of statement.all(entityType, apiSlug)) {
    if (typeof row.value === 'string' || typeof row.value === 'number') counts.set(String(row.value), row.n);
  }
  return counts;
}

/** A value as the service holds it, from the JSON text kept (null when unset or unreadable). */
export function customFieldValue(json: string | null): CustomFieldValue {
  if (json === null) return null;
  try {
    const value = JSON.parse(json) as unknown;
    if (
      typeof value === 'string' ||
      typeof value === 'number' ||
      typeof value === 'boolean' ||
      (Array.isArray(value) && value.every((v) => typeof v === 'string'))
    ) {
      return value;
    }
    return JSON.stringify(value);
  } catch {
    return null;
  }
}

/** The values of some records of a type (`shipment`), by record id, as a list row carries them. */
export function customFieldCellsOf(db: Db, entityType: string, ids: readonly string[]): Map<string, CustomFieldCells> {
  const cells = new Map<string, CustomFieldCells>();
  if (ids.length === 0) return cells;
  for (const row of statements(db).ofRecords.iterate(JSON.stringify(ids), entityType)) {
    let record = cells.get(row.entityId);
    if (!record) cells.set(row.entityId, (record = {}));
    // Defined, not assigned: a slug the service names `__proto__` is a field like any other.
    Object.defineProperty(record, row.apiSlug, {
      value: { value: customFieldValue(row.value), text: row.text },
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return cells;
}

/** Every value shown on records of a type (`shipment`), by record id and api_slug (an export's cells). */
export function customFieldCells(db: Db, entityType: string): Map<string, Map<string, string | null>> {
  const cells = new Map<string, Map<string, string | null>>();
  for (const row of statements(db).cells.iterate(entityType)) {
    let record = cells.get(row.entityId);
    if (!record) cells.set(row.entityId, (record = new Map<string, string | null>()));
    record.set(row.apiSlug, row.displayValue);
  }
  return cells;
}

/** Removes a record's value (cleared at the service). */
export function deleteCustomFieldValue(db: Db, entityId: string, apiSlug: string): void {
  dropValue(db).run(entityId, apiSlug);
}

export interface CustomFieldHit {
  entityId: string;
  name: string | null;
  displayValue: string;
}

/**
 * Read from the text list index alone (entity type, api_slug, text, record: as keys), the field's name
 * from its definition by api_slug's key: reading each value's row for its definition id instead (the
 * planner's choice, through the other list index) took 0.4–0.9 s a record type at 100k shipments,
 * whatever was typed; the index alone takes milliseconds. A value's row always has its record's
 * key (a stub has none), and an api_slug names one field of a record type.
 */
const hits = perDb((db: Db) =>
  db.prepare<[DefinitionEntityType, string, string, number], CustomFieldHit>(
    `SELECT ${internedText('v', 'entity_key')} AS entityId, d.name AS name, v.display_value AS displayValue
       FROM custom_fields v INDEXED BY custom_fields_list_text
       JOIN (SELECT ${keyOfText('api_slug')} AS slug_key, min(display_name) AS name FROM custom_field_definitions
              WHERE entity_type = ? AND api_slug IS NOT NULL GROUP BY api_slug) d ON d.slug_key = v.api_slug_key
      WHERE v.entity_type_key = ${keyOfText()} AND v.entity_key IS NOT NULL AND v.display_value LIKE ? ESCAPE '\\'
      ORDER BY v.display_value, v.entity_key LIMIT ?`,
  ),
);

/** Records of a type (`shipment`) whose custom field value holds `text` (any case), with the field: Ctrl+K. */
export function customFieldHits(
  db: Db,
  definitionType: DefinitionEntityType,
  entityType: string,
  text: string,
  limit: number,
): CustomFieldHit[] {
  const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return hits(db).all(definitionType, entityType, pattern, limit);
}
