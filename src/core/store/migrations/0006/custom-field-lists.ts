/**
 * Migration 0006, custom field lists: the indexes a list sorts and filters its
 * records' custom fields by, one field's values in order. `custom_fields_list_value` orders by the
 * typed value (numbers by number, dates by their ISO text, yes/no as 1/0): the expression is
 * `customFieldValueKey` in store/queries/list-sql.ts, written the same so queries match it (the
 * guard keeps a value that is not JSON from failing a write). `custom_fields_list_text` orders by
 * the text shown (text fields, pick lists) and serves "contains" filters without reading rows.
 */
export const up = `
CREATE INDEX custom_fields_list_value ON custom_fields (
  entity_type, api_slug, (CASE WHEN json_valid(value) THEN json_extract(value, '$') END), entity_id
);
CREATE INDEX custom_fields_list_text ON custom_fields (entity_type, api_slug, display_value, entity_id);
`;
