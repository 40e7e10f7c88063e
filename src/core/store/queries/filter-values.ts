/**
 * One filter chip's values as the forwarder types: those of one source (customers, carriers,
 * ports, terminals, tags, hold types, failure reasons) whose name or code holds the typed text,
 * ignoring case, the ones that start with it first, each with how many rows carry it.
 *
 * Each source is counted from an index of its own that holds the rows the service has given
 * (migration 0014), so a count reads the index alone. Customers may be many thousands: their
 * index is in the order shown, so the first values and those that start with the text are read
 * a page at a time, and only text found inside a name reads the whole index. The other sources
 * hold a few hundred values at most: all are counted, then matched here.
 */
import { failedReasonLabels, holdLabel } from '../../../shared/labels';
import {
  FILTER_VALUES_LIMIT,
  foldCase,
  matchOf,
  type FilterSource,
  type FilterValues,
} from '../../../shared/filter-values';
import type { FilterOption } from '../../../shared/types';
import { trackingRequests } from '../../resources/tracking-requests';
import type { Db } from '../database';

export interface FilterValuesQuery {
  source: FilterSource;
  query?: string;
  limit?: number;
}

type OptionRow = { value: string | null; label: string | null; n: number };

/** Rows of values with their counts, the empty and missing values left out. */
function optionsOf(rows: OptionRow[], labels?: (value: string) => string | undefined): FilterOption[] {
  return rows
    .filter((r): r is OptionRow & { value: string } => typeof r.value === 'string' && r.value !== '')
    .map((r) => ({ value: r.value, label: labels?.(r.value) ?? r.label ?? r.value, count: r.n }));
}

/** A port column's values, named by the shipments' own name for it. */
const port = (code: string, name: string) =>
  `SELECT ${code} AS value, max(${name}) AS label, count(*) AS n FROM shipments
   WHERE synced_at IS NOT NULL AND ${code} IS NOT NULL GROUP BY ${code}`;

/** The statements of the sources with a few hundred values at most: every value, counted. */
const smallSources: Record<
  Exclude<FilterSource, 'customers'>,
  { sql: string; labels?: (value: string) => string | undefined }
> = {
  // A carrier is named by the lines the service lists, else by its shipments.
  carriers: {
    sql: `SELECT g.value, coalesce((SELECT max(l.name) FROM shipping_lines l WHERE l.scac = g.value), g.label) AS label, g.n
          FROM (SELECT shipping_line_scac AS value, max(shipping_line_name) AS label, count(*) AS n FROM shipments
                WHERE synced_at IS NOT NULL AND shipping_line_scac IS NOT NULL GROUP BY shipping_line_scac) g`,
  },
  portsOfLading: { sql: port('pol_locode', 'pol_name') },
  portsOfDischarge: { sql: port('pod_locode', 'pod_name') },
  destinations: { sql: port('destination_locode', 'destination_name') },
  terminals: {
    sql: `SELECT g.value, (SELECT max(t.name) FROM terminals t WHERE t.id = g.value) AS label, g.n
          FROM (SELECT pod_terminal_id AS value, count(*) AS n FROM shipments
                WHERE synced_at IS NOT NULL AND pod_terminal_id IS NOT NULL GROUP BY pod_terminal_id) g`,
  },
  tags: { sql: 'SELECT tag AS value, tag AS label, count(*) AS n FROM shipment_tags GROUP BY tag' },
  holdTypes: {
    sql: `SELECT json_extract(h.value, '$.name') AS value, NULL AS label, count(*) AS n
          FROM containers c, json_each(c.holds) h WHERE c.synced_at IS NOT NULL AND c.holds_count > 0
          GROUP BY value`,
    labels: holdLabel,
  },
  failedReasons: {
    sql: `SELECT failed_reason AS value, failed_reason AS label, count(*) AS n FROM ${trackingRequests.table}
          WHERE synced_at IS NOT NULL AND failed_reason IS NOT NULL GROUP BY failed_reason`,
    labels: (value) => failedReasonLabels[value],
  },
};

/** How a source's values are listed before any text narrows them: by name, failure reasons the commonest first. */
function ordered(source: FilterSource, options: FilterOption[]): FilterOption[] {
  if (source === 'failedReasons') return options.sort((a, b) => b.count - a.count || a.label.localeCompare(b.label));
  return options.sort((a, b) => {
    const x = foldCase(a.label);
    const y = foldCase(b.label);
    return x < y ? -1 : x > y ? 1 : a.value < b.value ? -1 : a.value > b.value ? 1 : 0;
  });
}

/** The values whose name or code start with `text` (case folded), then those that hold it further in. */
function matching(options: FilterOption[], text: string): FilterOption[] {
  if (text === '') return options;
  const folded = foldCase(text);
  const starts = options.filter((option) => matchOf(option, folded) === 'start');
  return [...starts, ...options.filter((option) => matchOf(option, folded) === 'inside')];
}

/**
 * The customers that start with `text` then those that hold it further in, in the index's order
 * (ignoring case, then exactly), each counted: `limit + 1` at most, so the caller knows of more.
 */
function customers(db: Db, text: string, limit: number): FilterOption[] {
  const group =
    'GROUP BY customer_name COLLATE NOCASE, customer_name ORDER BY customer_name COLLATE NOCASE, customer_name';
  // The text bound as it is (never a LIKE pattern: % and _ are letters here); U+10FFFF sorts after
  // every other character, so the range holds exactly the names that start with the text.
  const starts = db
    .prepare(
      `SELECT customer_name AS value, customer_name AS label, count(*) AS n FROM shipments
       WHERE synced_at IS NOT NULL AND customer_name >= @text COLLATE NOCASE
         AND customer_name < (@text || char(1114111)) COLLATE NOCASE AND customer_name <> ''
       ${group} LIMIT @limit`,
    )
    .all({ text, limit: limit + 1 }) as OptionRow[];
  if (text === '' || starts.length > limit) return optionsOf(starts);
  const inside = db
    .prepare(
      `SELECT customer_name AS value, customer_name AS label, count(*) AS n FROM shipments
       WHERE synced_at IS NOT NULL AND customer_name IS NOT NULL AND instr(lower(customer_name), lower(@text)) > 1
       ${group} LIMIT @limit`,
    )
    .all({ text, limit: limit + 1 - starts.length }) as OptionRow[];
  return optionsOf([...starts, ...inside]);
}

/** The values of `source` that match `query` (trimmed; empty: all), at most `limit`, and whether more match. */
export function filterValues(
  db: Db,
  { source, query = '', limit = FILTER_VALUES_LIMIT }: FilterValuesQuery,
): FilterValues {
  const text = query.trim();
  let options: FilterOption[];
  if (source === 'customers') {
    options = customers(db, text, limit);
  } else {
    const { sql, labels } = smallSources[source];
    options = matching(ordered(source, optionsOf(db.prepare(sql).all() as OptionRow[], labels)), text);
  }
  return { options: options.slice(0, limit), more: options.length > limit };
}
