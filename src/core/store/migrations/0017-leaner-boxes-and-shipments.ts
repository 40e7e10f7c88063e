/**
 * Migration 0017, leaner boxes and shipments: fewer bytes on disk for each.
 *
 * - `containers_dwell` (0015) begins with `shipment_id` and holds every box that has one, so
 *   every look-up by shipment (a shipment's boxes, the search rows' box numbers, the foreign key)
 *   reads it; `containers_shipment` repeated its first column.
 * - The check times every record carries (`updated_at`, the line's and the shipment's last
 *   tracking) get columns that hold them (`store/residual.ts`), as epoch milliseconds: a sixth
 *   of their JSON in `raw`; the carrier's short name too.
 * - Rows written before keep those attributes in `raw`. One that lacked an attribute has it named
 *   in its `~absent` now, so it is still read back without it (a NULL column reads as an absent
 *   attribute only when `~absent` names it).
 */
/** The columns added, each with the attribute it holds. */
export const held: [table: string, column: string, type: string, attribute: string][] = [
  ['containers', 'updated_at', 'INTEGER', 'updated_at'],
  ['containers', 'shipment_tracked_at', 'INTEGER', 'shipment_last_tracking_request_at'],
  ['shipments', 'updated_at', 'INTEGER', 'updated_at'],
  ['shipments', 'line_tracking_attempted_at', 'INTEGER', 'line_tracking_last_attempted_at'],
  ['shipments', 'line_tracking_succeeded_at', 'INTEGER', 'line_tracking_last_succeeded_at'],
  ['shipments', 'shipping_line_short_name', 'TEXT', 'shipping_line_short_name'],
];

/**
 * Names `attribute` in `~absent` of each residual (an object with attributes) that lacks it; a
 * record kept whole, or not JSON, is left alone.
 */
const markAbsent = (table: string, attribute: string) => `
UPDATE ${table} SET raw = CASE
    WHEN json_type(raw, '$."~absent"') IS NULL THEN json_set(raw, '$."~absent"', json_array('a:${attribute}'))
    ELSE json_insert(raw, '$."~absent"[#]', 'a:${attribute}') END
  WHERE CASE WHEN raw LIKE '{%' AND json_valid(raw) THEN
    json_type(raw, '$.attributes.${attribute}') IS NULL
    AND NOT EXISTS (SELECT 1 FROM json_each(raw, '$."~absent"') WHERE value IN ('attributes', 'a:${attribute}'))
  END;`;

export const up = `
DROP INDEX IF EXISTS containers_shipment;
${held.map(([table, column, type]) => `ALTER TABLE ${table} ADD COLUMN ${column} ${type};`).join('\n')}
${held.map(([table, , , attribute]) => markAbsent(table, attribute)).join('\n')}
`;
