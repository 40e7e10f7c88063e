/**
 * Migration 0005, custom fields: the options of pick-list definitions and the values
 * set on shipments, containers and tracking requests. A value names its record by type and id
 * (no foreign key: one column for three tables) and keeps the value as JSON beside the text a
 * list shows and sorts by.
 */
export const up = `
CREATE TABLE custom_field_options (
  id TEXT PRIMARY KEY,
  definition_id TEXT REFERENCES custom_field_definitions (id),
  label TEXT,
  value TEXT,
  position INTEGER,
  raw TEXT,
  synced_at TEXT
) STRICT;
CREATE INDEX custom_field_options_definition_id ON custom_field_options (definition_id);

CREATE TABLE custom_fields (
  id TEXT PRIMARY KEY,
  entity_type TEXT,
  entity_id TEXT,
  definition_id TEXT REFERENCES custom_field_definitions (id),
  api_slug TEXT,
  value TEXT,
  display_value TEXT,
  raw TEXT,
  synced_at TEXT
) STRICT;
CREATE INDEX custom_fields_entity_id ON custom_fields (entity_id, api_slug);
CREATE INDEX custom_fields_definition_id ON custom_fields (definition_id);
`;
