/**
 * The values a filter chip can offer, with how many rows carry each: carriers, ports,
 * terminals, customers, tags, hold types and failure reasons that are in the local data.
 */
import { failedReasonLabels, holdLabel } from '../../../shared/labels';
import type { FilterOption, FilterOptions } from '../../../shared/types';
import { trackingRequests } from '../../resources/tracking-requests';
import type { Db } from '../database';

type OptionRow = { value: string | null; label: string | null; n: number };

function options(db: Db, sql: string, labels?: Record<string, string>): FilterOption[] {
  return (db.prepare(sql).all() as OptionRow[])
    .filter((r): r is OptionRow & { value: string } => typeof r.value === 'string' && r.value !== '')
    .map((r) => ({ value: r.value, label: labels?.[r.value] ?? r.label ?? r.value, count: r.n }));
}

const MAX = 500;

export function filterOptions(db: Db): FilterOptions {
  const port = (code: string, name: string) =>
    `SELECT s.${code} AS value, max(s.${name}) AS label, count(*) AS n FROM shipments s
     WHERE s.synced_at IS NOT NULL GROUP BY s.${code} ORDER BY label LIMIT ${MAX}`;
  return {
    carriers: options(
      db,
      `SELECT s.shipping_line_scac AS value, coalesce(max(l.name), max(s.shipping_line_name)) AS label, count(*) AS n
       FROM shipments s LEFT JOIN shipping_lines l ON l.scac = s.shipping_line_scac
       WHERE s.synced_at IS NOT NULL GROUP BY s.shipping_line_scac ORDER BY label LIMIT ${MAX}`,
    ),
    portsOfLading: options(db, port('pol_locode', 'pol_name')),
    portsOfDischarge: options(db, port('pod_locode', 'pod_name')),
    destinations: options(db, port('destination_locode', 'destination_name')),
    terminals: options(
      db,
      `SELECT s.pod_terminal_id AS value, max(t.name) AS label, count(*) AS n
       FROM shipments s LEFT JOIN terminals t ON t.id = s.pod_terminal_id
       WHERE s.synced_at IS NOT NULL GROUP BY s.pod_terminal_id ORDER BY label LIMIT ${MAX}`,
    ),
    customers: options(
      db,
      `SELECT customer_name AS value, customer_name AS label, count(*) AS n FROM shipments
       WHERE synced_at IS NOT NULL GROUP BY customer_name ORDER BY customer_name LIMIT ${MAX}`,
    ),
    tags: options(
      db,
      `SELECT tag AS value, tag AS label, count(*) AS n FROM shipment_tags GROUP BY tag ORDER BY tag LIMIT ${MAX}`,
    ),
    holdTypes: options(
      db,
      `SELECT json_extract(h.value, '$.name') AS value, json_extract(h.value, '$.name') AS label, count(*) AS n
       FROM containers c, json_each(c.holds) h WHERE c.synced_at IS NOT NULL AND c.holds_count > 0
       GROUP BY value ORDER BY value LIMIT ${MAX}`,
    ).map((option) => ({ ...option, label: holdLabel(option.value) })),
    failedReasons: options(
      db,
      `SELECT failed_reason AS value, failed_reason AS label, count(*) AS n FROM ${trackingRequests.table}
       WHERE synced_at IS NOT NULL AND failed_reason IS NOT NULL GROUP BY failed_reason ORDER BY n DESC`,
      failedReasonLabels,
    ),
  };
}
