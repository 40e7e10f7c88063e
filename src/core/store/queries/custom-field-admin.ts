/**
 * Custom field definitions as Settings shows and changes them: every definition with its options
 * and how many records hold a value of it, and the local side of an admin's change once the
 * service has taken it (a definition deleted with its options and values, values shown with an
 * option's new label).
 */
import type { Db } from '../database';
import { perDb } from '../statements';
import { keyOfText, ofField } from './list-sql';

export interface AdminDefinitionRow {
  id: string;
  entityType: string;
  apiSlug: string;
  name: string | null;
  dataType: string | null;
  description: string | null;
  syncedAt: string | null;
}

export interface AdminOptionRow {
  id: string;
  definitionId: string;
  label: string | null;
  value: string | null;
}

const statements = perDb((db: Db) => ({
  definitions: db.prepare<[], AdminDefinitionRow>(
    `SELECT id, entity_type AS entityType, api_slug AS apiSlug, display_name AS name, data_type AS dataType,
            json_extract(raw, '$.attributes.description') AS description, synced_at AS syncedAt
       FROM custom_field_definitions
      WHERE raw IS NOT NULL AND api_slug IS NOT NULL AND entity_type IS NOT NULL
      ORDER BY entity_type, display_name COLLATE NOCASE, id`,
  ),
  options: db.prepare<[], AdminOptionRow>(
    `SELECT id, definition_id AS definitionId, label, value FROM custom_field_options
      WHERE raw IS NOT NULL AND definition_id IS NOT NULL
      ORDER BY position IS NULL, position, label COLLATE NOCASE`,
  ),
  count: db.prepare<[string, string], number>(`SELECT count(*) FROM custom_fields v WHERE ${ofField('v')}`).pluck(),
  values: db.prepare<[string, string], { rowid: number; value: string | null }>(
    `SELECT v.rowid AS rowid, v.value AS value FROM custom_fields v WHERE ${ofField('v')}`,
  ),
  relabel: db.prepare<[string | null, number]>('UPDATE custom_fields SET display_value = ? WHERE rowid = ?'),
  dropValues: db.prepare<[string, string]>(
    `DELETE FROM custom_fields WHERE entity_type_key = ${keyOfText()} AND api_slug_key = ${keyOfText()}`,
  ),
  dropOptions: db.prepare<[string]>('DELETE FROM custom_field_options WHERE definition_id = ?'),
  dropOption: db.prepare<[string]>('DELETE FROM custom_field_options WHERE id = ?'),
  dropDefinition: db.prepare<[string]>('DELETE FROM custom_field_definitions WHERE id = ?'),
  forgetRead: db.prepare<[string]>("DELETE FROM child_list_reads WHERE list = 'customFieldOptions' AND parent_id = ?"),
}));

/** Every definition kept, by record type and name. */
export function adminDefinitionRows(db: Db): AdminDefinitionRow[] {
  return statements(db).definitions.all();
}

/** Every option kept, in its order. */
export function adminOptionRows(db: Db): AdminOptionRow[] {
  return statements(db).options.all();
}

/** How many records of a type (`shipment`) hold a value of the field `apiSlug`. */
export function valueCountOf(db: Db, entityType: string, apiSlug: string): number {
  return statements(db).count.get(entityType, apiSlug) ?? 0;
}

/** Removes a definition here, with its options and every value of it (the service has deleted them). */
export function dropDefinition(db: Db, id: string, entityType: string, apiSlug: string): number {
  const s = statements(db);
  return db.transaction(() => {
    const values = s.dropValues.run(entityType, apiSlug).changes;
    s.dropOptions.run(id);
    s.forgetRead.run(id);
    s.dropDefinition.run(id);
    return values;
  })();
}

/** Removes one option here (values that chose it keep it, shown as the value itself). */
export function dropOption(db: Db, optionId: string): void {
  statements(db).dropOption.run(optionId);
}

/**
 * Shows each value of a pick-list field with its options' labels as they are now (`labels`: value →
 * label), as the service does once an option is renamed or deleted; a value no option names shows as it is.
 */
export function relabelValues(db: Db, entityType: string, apiSlug: string, labels: ReadonlyMap<string, string>): void {
  const s = statements(db);
  const labelOf = (v: unknown) => (typeof v === 'string' ? (labels.get(v) ?? v) : JSON.stringify(v));
  db.transaction(() => {
    for (const row of s.values.all(entityType, apiSlug)) {
      let value: unknown;
      try {
        value = row.value === null ? null : JSON.parse(row.value);
      } catch {
        continue;
      }
      if (value === null) continue;
      s.relabel.run(Array.isArray(value) ? value.map(labelOf).join(', ') : labelOf(value), row.rowid);
    }
  })();
}
