/**
 * Change history, written as the writer upserts. A descriptor's `history`
 * names the fields to watch; for the records of those types a page carries, the writer reads the
 * stored values of those columns in one query before the page's upserts, compares each record's
 * new values with them and inserts one `record_changes` row per change, seen at the page's time.
 *
 * A record not stored before, or stored only as a stub, is appearing for the first time: no
 * change (a first sync records nothing). A container whose hash (`raw_hash`) is unchanged changed
 * nothing the history watches and is not compared. Holds are compared per hold type: a change
 * when one is put on or released. The old values are read once per page and per resource, for
 * the page's ids only, so a page pays one indexed query per watched resource (the page-write
 * bench's anchor, SQLite alone, does none).
 */
import type Database from 'better-sqlite3';
import type { ChangeField, ChangeValue, HoldState } from '../../shared/changes';
import { resources as registry, type ResourceDescriptor } from '../resources';
import type { TrackedField } from '../resources/define';
import type { Db } from './database';
import type { StoredResource } from './resource';

type Row = Record<string, unknown>;
/** A stored row's watched columns, and whether it was synced (not a stub). */
type Before = Map<string, Row>;

const SYNCED = '_synced';

/** One descriptor's history statements and column places in its upsert row. */
export interface HistoryPlan {
  resource: 'shipment' | 'container';
  types: ReadonlySet<string>;
  /** The watched columns (and those naming a field, the shipment, the hash) and their places in the upsert row. */
  columns: { name: string; index: number }[];
  fields: readonly TrackedField[];
  shipment: string;
  unchangedWhenEqual: string | undefined;
  read: Database.Statement;
  insert: Database.Statement;
  /** Name lookups of `{ nameIn }` fields, by resource. */
  names: Map<string, Database.Statement>;
}

/** The history plan of a descriptor that declares one, for one database; null otherwise. */
export function prepareHistory(db: Db, d: ResourceDescriptor, names: readonly string[]): HistoryPlan | null {
  const history = d.history;
  if (!history) return null;
  const resource = d.types[0];
  if (resource !== 'shipment' && resource !== 'container') {
    throw new Error(`${d.name}: the change history keeps shipments and containers only`);
  }
  const wanted = new Set<string>([history.shipment]);
  if (history.unchangedWhenEqual) wanted.add(history.unchangedWhenEqual);
  for (const f of history.fields) {
    wanted.add(f.column);
    if (f.fieldBy) wanted.add(f.fieldBy.column);
  }
  const columns = [...wanted].map((name) => {
    const index = names.indexOf(name);
    if (index < 0) throw new Error(`${d.name}: history column ${name} is not one the writer fills`);
    return { name, index };
  });
  const lookups = new Map<string, Database.Statement>();
  for (const f of history.fields) {
    if (typeof f.as !== 'object') continue;
    const target = registry[f.as.nameIn as keyof typeof registry] as ResourceDescriptor | undefined;
    if (!target?.lookup) throw new Error(`${d.name}: ${f.as.nameIn} has no name to tell ${f.field} by`);
    lookups.set(f.as.nameIn, db.prepare(`SELECT ${target.lookup.title} FROM ${target.table} WHERE id = ?`).pluck());
  }
  return {
    resource,
    types: new Set(d.types),
    columns,
    fields: history.fields,
    shipment: history.shipment,
    unchangedWhenEqual: history.unchangedWhenEqual,
    read: db.prepare(
      `SELECT id, raw IS NOT NULL AS ${SYNCED}, ${columns.map((c) => c.name).join(', ')} FROM ${d.table}
       WHERE id IN (SELECT value FROM json_each(?))`,
    ),
    insert: db.prepare(
      `INSERT INTO record_changes (resource, record_id, shipment_id, field, detail, old_value, new_value, seen_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    names: lookups,
  };
}

/**
 * The stored watched values of the page's records, read in one query per plan before the page's
 * upserts (inside its transaction). Only the plans whose types the page carries are read.
 */
export function readBefore(plans: readonly HistoryPlan[], page: readonly StoredResource[]): Map<HistoryPlan, Before> {
  const out = new Map<HistoryPlan, Before>();
  for (const plan of plans) {
    const ids: string[] = [];
    for (const r of page) if (plan.types.has(r.type)) ids.push(r.id);
    if (ids.length === 0) continue;
    const before: Before = new Map();
    for (const row of plan.read.all(JSON.stringify(ids)) as Row[]) before.set(row.id as string, row);
    out.set(plan, before);
  }
  return out;
}

/**
 * Records the changes between what `before` holds for `id` and the values about to be written,
 * then remembers those values (a record the page carries twice is compared with its first write).
 */
export function recordChanges(
  plan: HistoryPlan,
  before: Before | undefined,
  id: string,
  values: readonly unknown[],
  seenAt: string,
): void {
  if (before === undefined) return;
  const next: Row = { [SYNCED]: 1 };
  for (const c of plan.columns) next[c.name] = values[c.index] ?? null;
  const old = before.get(id);
  before.set(id, next);
  if (old === undefined || old[SYNCED] !== 1) return;
  if (plan.unchangedWhenEqual && old[plan.unchangedWhenEqual] === next[plan.unchangedWhenEqual]) return;
  const shipmentId =
    plan.shipment === 'id' ? id : ((next[plan.shipment] ?? old[plan.shipment] ?? null) as string | null);
  const write = (field: ChangeField, detail: string | null, from: ChangeValue, to: ChangeValue) =>
    plan.insert.run(plan.resource, id, shipmentId, field, detail, json(from), json(to), seenAt);
  for (const f of plan.fields) {
    const was = (old[f.column] ?? null) as ChangeValue;
    const now = (next[f.column] ?? null) as ChangeValue;
    if (was === now) continue;
    const field = f.fieldBy
      ? (f.fieldBy.fields[String(next[f.fieldBy.column] ?? old[f.fieldBy.column])] ?? f.field)
      : f.field;
    if (f.as === 'holds') {
      for (const [type, from, to] of holdChanges(was, now)) write(field, type, from, to);
    } else if (f.as === 'flag') {
      write(field, null, flag(was), flag(now));
    } else if (typeof f.as === 'object') {
      const lookup = plan.names.get(f.as.nameIn)!;
      const name = (value: ChangeValue) => (value === null ? null : ((lookup.get(value) as string | null) ?? value));
      const from = name(was);
      const to = name(now);
      if (from !== to) write(field, null, from, to);
    } else {
      write(field, null, was, now);
    }
  }
}

function json(value: ChangeValue): string | null {
  return value === null ? null : JSON.stringify(value);
}

function flag(value: ChangeValue): boolean | null {
  return value === null ? null : value === 1 || value === true;
}

/** Each hold type's state in a stored holds list: on hold when any of its holds is, else released. */
function holdStates(text: ChangeValue): Map<string, HoldState> {
  const states = new Map<string, HoldState>();
  if (typeof text !== 'string') return states;
  let list: unknown;
  try {
    list = JSON.parse(text);
  } catch {
    return states;
  }
  if (!Array.isArray(list)) return states;
  for (const hold of list as { name?: unknown; status?: unknown }[]) {
    if (typeof hold !== 'object' || hold === null) continue;
    const type = typeof hold.name === 'string' && hold.name !== '' ? hold.name : 'hold';
    const state: HoldState = hold.status === 'released' ? 'released' : 'hold';
    if (states.get(type) !== 'hold') states.set(type, state);
  }
  return states;
}

/**
 * The hold types put on or released between two holds lists: [type, before, after], where a hold
 * put on was released or not listed before (null), and a hold no longer listed counts as released.
 */
export function holdChanges(before: ChangeValue, after: ChangeValue): [string, HoldState | null, HoldState][] {
  const was = holdStates(before);
  const now = holdStates(after);
  const out: [string, HoldState | null, HoldState][] = [];
  for (const type of new Set([...was.keys(), ...now.keys()])) {
    const from = was.get(type) ?? null;
    const to = now.get(type) ?? null;
    if (to === 'hold' && from !== 'hold') out.push([type, from, 'hold']);
    else if (from === 'hold' && to !== 'hold') out.push([type, 'hold', 'released']);
  }
  return out;
}
