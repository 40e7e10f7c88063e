/**
 * Migration 0010, the lists' sort indexes without the id (issue 17 item 2). Each index a list
 * sorts by was on (column, id) so that rows with the same value came in a fixed order, the id
 * breaking the tie; but every SQLite index already ends in the row's rowid, which breaks it as
 * well. A list now ties by its table's rowid (`tieColumn` in `queries/keyset.ts`), so these
 * indexes hold the column alone: 37 bytes less an entry (a text id and its header byte), in
 * seven of the shipments' indexes, five of the containers' and three of the tracking requests'.
 *
 * The rowid is stable for the row's life: an upsert updates a row in place, and VACUUM keeps the
 * rowids of a table without an INTEGER PRIMARY KEY (the search tables rely on it too).
 */

/** Each index rebuilt, as (table, column). */
const indexes: readonly [name: string, table: string, column: string][] = [
  ['shipments_created', 'shipments', 'created_at'],
  ['shipments_eta', 'shipments', 'pod_eta_at'],
  ['shipments_ata', 'shipments', 'pod_ata_at'],
  ['shipments_bl', 'shipments', 'bill_of_lading'],
  ['shipments_scac', 'shipments', 'shipping_line_scac'],
  ['shipments_pod', 'shipments', 'pod_locode'],
  ['shipments_customer', 'shipments', 'customer_name'],
  ['containers_created', 'containers', 'created_at'],
  ['containers_number', 'containers', 'number'],
  ['containers_status', 'containers', 'status'],
  ['containers_lfd', 'containers', 'lfd_deadline_at'],
  ['containers_discharged', 'containers', 'pod_discharged_at'],
  ['tracking_requests_created', 'tracking_requests', 'created_at'],
  ['tracking_requests_updated', 'tracking_requests', 'updated_at'],
  ['tracking_requests_status', 'tracking_requests', 'status'],
];

export const up = indexes
  .map(([name, table, column]) => `DROP INDEX ${name};\nCREATE INDEX ${name} ON ${table} (${column});`)
  .join('\n');
