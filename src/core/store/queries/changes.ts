/**
 * The change history (migration 0006's `record_changes`): pages and counts of the changes a
 * period and filters pick, newest or oldest first, each with its record's number and its
 * shipment's BL, customer and carrier; one record's changes (its successive ETAs); the whole
 * stream for the CSV export and the CLI; the "last looked at" mark; and the retention prune.
 */
import { arrivalOf } from '../../../shared/changes';
import { QuaysideError } from '../../errors';
import type { Db } from '../database';
import { perDb } from '../statements';

/** Which changes, as SQL sees them: seen within [from, to] (from exclusive when `fromExclusive`), of these kinds and shipments' customers and carriers. */
export interface ChangeQuery {
  from: string | null;
  fromExclusive?: boolean;
  to: string | null;
  fields?: readonly string[];
  customers?: readonly string[];
  carriers?: readonly string[];
  /**
   * As events (the Changes view and its export): an ETA cleared in the sync that gave its arrival
   * is left out, the arrival's row tells it (`arrivalOf`). The CLI reads every change as recorded.
   */
  asEvents?: boolean;
}

/** An ETA cleared by its arrival: the arrival's change of the same record, seen in the same sync. */
const clearedByArrival = `(ch.new_value IS NULL AND ch.field IN (${Object.keys(arrivalOf)
  .map((f) => `'${f}'`)
  .join(', ')}) AND EXISTS (SELECT 1 FROM record_changes a
    WHERE a.record_id = ch.record_id AND a.seen_at = ch.seen_at AND a.new_value IS NOT NULL
      AND a.field = CASE ch.field ${Object.entries(arrivalOf)
        .map(([eta, ata]) => `WHEN '${eta}' THEN '${ata}'`)
        .join(' ')} END))`;

export interface ChangeDbRow {
  id: number;
  resource: 'shipment' | 'container';
  record_id: string;
  shipment_id: string | null;
  field: string;
  detail: string | null;
  old_value: string | null;
  new_value: string | null;
  seen_at: string;
  number: string | null;
  bill_of_lading: string | null;
  customer_name: string | null;
  shipping_line_scac: string | null;
  zone: string | null;
}

const select = `SELECT ch.id, ch.resource, ch.record_id, ch.shipment_id, ch.field, ch.detail, ch.old_value,
    ch.new_value, ch.seen_at,
    CASE ch.resource WHEN 'shipment' THEN coalesce(s.bill_of_lading, s.normalized_number) ELSE c.number END AS number,
    coalesce(s.bill_of_lading, s.normalized_number) AS bill_of_lading, s.customer_name, s.shipping_line_scac,
    CASE WHEN ch.field IN ('destination_eta', 'destination_ata') THEN s.destination_timezone
         WHEN ch.field IN ('eta', 'ata') THEN s.pod_timezone END AS zone
  FROM record_changes ch
  LEFT JOIN shipments s ON s.id = ch.shipment_id
  LEFT JOIN containers c ON ch.resource = 'container' AND c.id = ch.record_id`;

function whereOf(q: ChangeQuery): { where: string[]; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  if (q.from !== null) {
    where.push(q.fromExclusive ? 'ch.seen_at > ?' : 'ch.seen_at >= ?');
    params.push(q.from);
  }
  if (q.to !== null) {
    where.push('ch.seen_at <= ?');
    params.push(q.to);
  }
  const oneOf = (column: string, values: readonly string[] | undefined) => {
    if (!values || values.length === 0) return;
    where.push(`${column} IN (${values.map(() => '?').join(', ')})`);
    params.push(...values);
  };
  oneOf('ch.field', q.fields);
  oneOf('s.customer_name', q.customers);
  oneOf('s.shipping_line_scac', q.carriers);
  if (q.asEvents) where.push(`NOT ${clearedByArrival}`);
  return { where, params };
}

const sqlWhere = (where: string[]) => (where.length > 0 ? ` WHERE ${where.join(' AND ')}` : '');

function encodeCursor(row: ChangeDbRow): string {
  return Buffer.from(JSON.stringify([row.seen_at, row.id])).toString('base64url');
}

function decodeCursor(raw: string): [string, number] {
  try {
    const [seenAt, id] = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as unknown[];
    if (typeof seenAt === 'string' && typeof id === 'number' && Number.isInteger(id)) return [seenAt, id];
  } catch {
    // falls through
  }
  throw new QuaysideError(
    'invalid_argument',
    'The page cursor is not one this list gave out; start from the first page.',
  );
}

/** A keyset page of changes: newest first (or oldest), `limit` of them after the cursor. */
export function listChanges(
  db: Db,
  q: ChangeQuery,
  order: 'newest' | 'oldest',
  page: { limit: number; after?: string },
): { rows: ChangeDbRow[]; next: string | null } {
  const { where, params } = whereOf(q);
  const desc = order === 'newest';
  if (page.after !== undefined) {
    const [seenAt, id] = decodeCursor(page.after);
    const op = desc ? '<' : '>';
    where.push(`(ch.seen_at ${op} ? OR (ch.seen_at = ? AND ch.id ${op} ?))`);
    params.push(seenAt, seenAt, id);
  }
  const dir = desc ? 'DESC' : 'ASC';
  const rows = db
    .prepare<unknown[], ChangeDbRow>(`${select}${sqlWhere(where)} ORDER BY ch.seen_at ${dir}, ch.id ${dir} LIMIT ?`)
    .all(...params, page.limit + 1);
  const more = rows.length > page.limit;
  if (more) rows.pop();
  return { rows, next: more ? encodeCursor(rows[rows.length - 1]!) : null };
}

/** How many changes the query picks. */
export function countChanges(db: Db, q: ChangeQuery): number {
  const { where, params } = whereOf(q);
  // The shipment is joined only when a filter is about it.
  const from = where.some((w) => w.startsWith('s.'))
    ? 'record_changes ch LEFT JOIN shipments s ON s.id = ch.shipment_id'
    : 'record_changes ch';
  return (
    db
      .prepare<unknown[], number>(`SELECT count(*) FROM ${from}${sqlWhere(where)}`)
      .pluck()
      .get(...params) ?? 0
  );
}

/** Every change the query picks, in order, one row at a time (the CSV export, the CLI). */
export function iterateChanges(db: Db, q: ChangeQuery, order: 'newest' | 'oldest'): IterableIterator<ChangeDbRow> {
  const { where, params } = whereOf(q);
  const dir = order === 'newest' ? 'DESC' : 'ASC';
  return db
    .prepare<unknown[], ChangeDbRow>(`${select}${sqlWhere(where)} ORDER BY ch.seen_at ${dir}, ch.id ${dir}`)
    .iterate(...params);
}

const ofRecord = perDb((db) =>
  db.prepare<[string], ChangeDbRow>(`${select} WHERE ch.record_id = ? ORDER BY ch.seen_at, ch.id`),
);

/** One shipment's or container's changes, oldest first; of some kinds only when `fields` names them. */
export function changesOfRecord(db: Db, id: string, fields?: readonly string[]): ChangeDbRow[] {
  const rows = ofRecord(db).all(id);
  return fields && fields.length > 0 ? rows.filter((r) => fields.includes(r.field)) : rows;
}

const LOOKED = 'looked_at';
const readMark = perDb((db) => db.prepare<[string], string>('SELECT at FROM change_marks WHERE name = ?').pluck());
// Apart from the read: a read-only copy refuses a writing statement at prepare.
const writeMark = perDb((db) =>
  db.prepare<[string, string]>(
    'INSERT INTO change_marks (name, at) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET at = excluded.at',
  ),
);

/** When this database's changes were last marked as looked at, or null. */
export function changesLookedAt(db: Db): string | null {
  return readMark(db).get(LOOKED) ?? null;
}

export function markChangesLooked(db: Db, at: string): void {
  writeMark(db).run(LOOKED, at);
}

const prune = perDb((db) => db.prepare<[string]>('DELETE FROM record_changes WHERE seen_at < ?'));

/** Deletes the changes seen before `before` (retention); returns how many went. */
export function pruneChanges(db: Db, before: string): number {
  return prune(db).run(before).changes;
}
