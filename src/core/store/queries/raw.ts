/**
 * The service's record as the store keeps it (`raw`), by JSON:API type and id: what `quayside raw`
 * prints, so an attribute Quayside has no column for is never lost to a user (issue 17 item 2).
 */
import { descriptors, descriptorOfType } from '../../resources';
import type { Db } from '../database';

/** The JSON:API types whose records keep their `raw` JSON, in registry order. */
export const rawTypes: readonly string[] = descriptors.filter((d) => 'raw' in d.columns).flatMap((d) => d.types);

export type RawRecord =
  | { found: 'record'; raw: string }
  /** A row only known by reference: a record pointed at it, the service's own copy not read yet. */
  | { found: 'stub' }
  | { found: 'none' };

/** The record of `type` with `id`, or why there is none; `type` must be one of `rawTypes`. */
export function readRaw(db: Db, type: string, id: string): RawRecord {
  const d = descriptorOfType(type);
  if (d === undefined || !('raw' in d.columns)) throw new Error(`no stored records of type ${type}`);
  // A table may keep several types (terminals and rail terminals): the record's own type must match.
  const row = db.prepare<[string], { raw: string | null }>(`SELECT raw FROM ${d.table} WHERE id = ?`).get(id);
  if (row === undefined) return { found: 'none' };
  if (row.raw === null) return { found: 'stub' };
  if (d.types.length > 1 && (JSON.parse(row.raw) as { type?: unknown }).type !== type) return { found: 'none' };
  return { found: 'record', raw: row.raw };
}
