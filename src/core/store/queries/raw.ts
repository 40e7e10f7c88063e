/**
 * The service's record as the store keeps it, by JSON:API type and id: what `quayside raw`
 * prints, so an attribute Quayside has no column for is never lost to a user.
 * A table whose columns hold members of the record keeps only the rest in `raw` (the residual,
 * `store/residual.ts`): the record is put back together here, the one place that reads it whole.
 */
import type Database from 'better-sqlite3';
import {
  descriptors,
  descriptorOfType,
  instantText,
  internedText,
  storedUuid,
  uuidText,
  type ResourceDescriptor,
} from '../../resources';
import type { Db } from '../database';
import { heldColumns, recordFrom, residualSpec, type ResidualSpec } from '../residual';

/** The JSON:API types whose records keep their `raw` JSON, in registry order. */
export const rawTypes: readonly string[] = descriptors.filter((d) => 'raw' in d.columns).flatMap((d) => d.types);

export type RawRecord =
  | { found: 'record'; raw: string }
  /** A row only known by reference: a record pointed at it, the service's own copy not read yet. */
  | { found: 'stub' }
  | { found: 'none' };

interface RecordRead {
  statement: Database.Statement<[string | Buffer], Record<string, unknown>>;
  spec: ResidualSpec | null;
  held: { name: string; index: number }[];
  width: number;
  /** The table keeps its ids as UUID bytes (`Column.uuid`). */
  idUuid: boolean;
}

const reads = new WeakMap<Db, Map<ResourceDescriptor, RecordRead>>();
function readOf(db: Db, d: ResourceDescriptor): RecordRead {
  let byTable = reads.get(db);
  if (byTable === undefined) reads.set(db, (byTable = new Map<ResourceDescriptor, RecordRead>()));
  let read = byTable.get(d);
  if (read === undefined) {
    const spec = residualSpec(d);
    const held = spec ? heldColumns(d) : [];
    // An interned, epoch or UUID column gives back its text (`Column.interned`, `epochMs`, `uuid`).
    const textOf = (name: string) => `${columnText(d, name, 't')} AS ${name}`;
    const select = ['raw', ...held.map((h) => textOf(h.name))].join(', ');
    read = {
      statement: db.prepare<[string | Buffer], Record<string, unknown>>(
        `SELECT ${select} FROM ${d.table} t WHERE id = ?`,
      ),
      spec,
      held,
      width: Object.keys(d.columns).length,
      idUuid: d.columns.id?.uuid === true,
    };
    byTable.set(d, read);
  }
  return read;
}

/**
 * The record `id` of resource `d` as the service sent it (its members in the store's order), null
 * for a stub, undefined when the table has no such row.
 */
export function storedRecord(db: Db, d: ResourceDescriptor, id: string): Record<string, unknown> | null | undefined {
  const read = readOf(db, d);
  const row = read.statement.get(read.idUuid ? storedUuid(id) : id);
  if (row === undefined) return undefined;
  const raw = row.raw;
  if (typeof raw !== 'string') return null;
  if (read.spec === null) return JSON.parse(raw) as Record<string, unknown>;
  const values = new Array<unknown>(read.width).fill(null);
  for (const h of read.held) values[h.index] = row[h.name];
  return recordFrom(read.spec, id, raw, values);
}

function descriptorWithRaw(type: string): ResourceDescriptor {
  const d = descriptorOfType(type);
  if (d === undefined || !('raw' in d.columns)) throw new Error(`no stored records of type ${type}`);
  return d;
}

/** The record of the table that keeps `type` (its attributes, relationships…), as `storedRecord`. */
export function storedRecordOf(db: Db, type: string, id: string): Record<string, unknown> | null | undefined {
  return storedRecord(db, descriptorWithRaw(type), id);
}

/** The record of `type` with `id`, or why there is none; `type` must be one of `rawTypes`. */
export function readRaw(db: Db, type: string, id: string): RawRecord {
  const d = descriptorWithRaw(type);
  const record = storedRecord(db, d, id);
  if (record === undefined) return { found: 'none' };
  if (record === null) return { found: 'stub' };
  // A table may keep several types (terminals and rail terminals): the record's own type must match.
  if (d.types.length > 1 && record.type !== type) return { found: 'none' };
  return { found: 'record', raw: JSON.stringify(record) };
}

/**
 * The ids of the records of `type` the store keeps (stubs left out), as text: what `quayside raw`
 * takes (a table of many rows keeps UUIDs as bytes, `Column.uuid`), in the table's id order.
 */
export function storedRecordIds(db: Db, type: string): string[] {
  const d = descriptorWithRaw(type);
  const id = d.columns.id?.uuid ? uuidText('t', 'id') : 't.id';
  return db.prepare<[], string>(`SELECT ${id} FROM ${d.table} t WHERE t.raw IS NOT NULL ORDER BY t.id`).pluck().all();
}

/**
 * The SQL that reads a descriptor's column as the record's text (an interned key's text, an
 * instant's, a UUID's), for `alias`: what a comparison of stored rows across files reads.
 */
export function columnText(d: ResourceDescriptor, name: string, alias: string): string {
  const column = d.columns[name];
  if (column?.interned) return internedText(alias, name);
  if (column?.epochMs) return instantText(alias, name);
  if (column?.uuid) return uuidText(alias, name);
  return `${alias}.${name}`;
}
