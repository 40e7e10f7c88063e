/**
 * Lookup records (shipping lines, terminals, parties, custom field definitions, email
 * submissions, ports, metro areas): found by id for the detail pages, shipping lines listed for
 * the carrier picker and checked by SCAC before a tracking request is sent; places (the
 * `locations` view) found by UN/LOCODE or name for Ctrl+K.
 */
import type { LookupName } from '../../../shared/lookups';
import { lookupOf } from '../../resources';
import type { Db } from '../database';
import { perDb } from '../statements';
import type { LocationRow } from './details';

type Text = string | null;

/** A lookup record: its id, the column that names it as `title`, its record as sent. */
export interface LookupRow {
  id: string;
  title: Text;
  raw: Text;
  synced_at: Text;
}

/** A resource looked up by id: its table, naming column and finding column, from its descriptor. */
function prepareLookup(db: Db, name: LookupName) {
  const { table, title, alt } = lookupOf(name);
  // Ports and metro areas are also found by UN/LOCODE, shipping lines by SCAC (all upper case).
  const or = alt ? ` OR ${alt} = :code` : '';
  return db.prepare<{ id: string; code?: string }, LookupRow>(
    `SELECT id, ${title} AS title, raw, synced_at FROM ${table} WHERE (id = :id${or}) AND synced_at IS NOT NULL LIMIT 1`,
  );
}

const statements = perDb((db: Db) => ({
  byName: new Map<LookupName, ReturnType<typeof prepareLookup>>(),
  shippingLines: db.prepare<[], LookupRow>(
    'SELECT id, name AS title, raw, synced_at FROM shipping_lines WHERE synced_at IS NOT NULL ORDER BY name',
  ),
  shippingLineByScac: db.prepare<[string], { name: Text; raw: string }>(
    'SELECT name, raw FROM shipping_lines WHERE scac = ? AND synced_at IS NOT NULL',
  ),
  // A code typed in full comes first, then names containing the text, by name; stubs (no name) are left out.
  locations: db.prepare<{ code: string; like: string; limit: number }, LocationRow>(
    `SELECT kind, id, code, name, city, state_abbr, country_code, time_zone FROM locations
     WHERE name IS NOT NULL AND (code = :code OR name LIKE :like ESCAPE '\\' OR code LIKE :like ESCAPE '\\')
     ORDER BY code = :code DESC, name, kind LIMIT :limit`,
  ),
  shippingLineCount: db
    .prepare<[], number>('SELECT count(*) AS n FROM shipping_lines WHERE synced_at IS NOT NULL')
    .pluck(),
}));

/** A synced lookup record by id (a port also by UN/LOCODE, a shipping line by SCAC). */
export function lookupRow(db: Db, name: LookupName, id: string): LookupRow | undefined {
  const { byName } = statements(db);
  let statement = byName.get(name);
  if (!statement) {
    statement = prepareLookup(db, name);
    byName.set(name, statement);
  }
  return statement.get(lookupOf(name).alt ? { id, code: id.toUpperCase() } : { id });
}

/** Every synced shipping line, by name. */
export function shippingLineRows(db: Db): LookupRow[] {
  return statements(db).shippingLines.all();
}

/** The synced shipping line with this SCAC: its name and its record as sent. */
export function shippingLineByScac(db: Db, scac: string): { name: Text; raw: string } | undefined {
  return statements(db).shippingLineByScac.get(scac);
}

/** How many shipping lines have been synced (none: the carrier list is not known yet). */
export function countShippingLines(db: Db): number {
  return statements(db).shippingLineCount.get() ?? 0;
}

/** Ports and metro areas whose UN/LOCODE is `text` or whose name or code contains it, at most `limit`. */
export function searchLocations(db: Db, text: string, limit: number): LocationRow[] {
  const trimmed = text.trim();
  if (trimmed.length < 2) return [];
  const like = `%${trimmed.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return statements(db).locations.all({ code: trimmed.toUpperCase(), like, limit });
}
