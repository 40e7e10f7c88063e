/**
 * What the store's writer derives from the resource registry besides its statements: the
 * positional upsert built from a column list, the order a page's types are written in, search
 * rows written only when their text changed, and the cache of reference rows (ports,
 * terminals: descriptors marked `cacheUnchanged`) that lets a page skip the ones it repeats.
 */
import type Database from 'better-sqlite3';
import { descriptors } from '../resources';
import type { Db } from './database';
import type { StoredResource } from './resource';

/**
 * An idempotent upsert keyed by id, from a column list: positional parameters (binding 40
 * named ones costs more than the insert itself) and, on conflict, every column but id replaced
 * by the new value, or set by the expression `onConflict` gives for it.
 */
export function upsertSql(
  table: string,
  columns: readonly string[],
  onConflict: Readonly<Record<string, string | undefined>> = {},
): string {
  const updates = columns.filter((c) => c !== 'id').map((c) => `${c} = ${onConflict[c] ?? `excluded.${c}`}`);
  return `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})
     ON CONFLICT (id) DO UPDATE SET ${updates.join(', ')}`;
}

/** Reference resources first, so the rows that point at them find them (or their stubs) present. */
const ranks = new Map(descriptors.flatMap((d) => d.types.map((type) => [type, d.writeRank])));
const lastRank = Math.max(...ranks.values()) + 1;
export function rank(type: string): number {
  return ranks.get(type) ?? lastRank;
}

/**
 * Keeps a search row equal to `body` (none when null), writing only when it differs: a page
 * synced again mostly repeats what the store holds, and an FTS5 row rewritten costs its
 * whole trigram list twice (out, then in).
 */
export function syncSearchRow(
  current: Database.Statement,
  remove: Database.Statement,
  insert: Database.Statement,
  rowid: number,
  body: string | null,
): void {
  const existing = current.get(rowid) as string | undefined;
  if (existing === (body ?? undefined)) return;
  if (existing !== undefined) remove.run(rowid);
  if (body !== null) insert.run(rowid, body);
}

/**
 * Every shipment page includes the same ports and terminals again; remember what each small
 * reference row last held so an unchanged one is not written again.
 */
const referenceCache = new WeakMap<Db, Map<string, string>>();
const cachedTypes = new Set(descriptors.filter((d) => d.cacheUnchanged).flatMap((d) => d.types));
export function unchangedReference(
  db: Db,
  resource: StoredResource,
  rawOf: () => string,
  written: Map<string, string>,
): boolean {
  if (!cachedTypes.has(resource.type)) return false;
  const raw = rawOf();
  const key = `${resource.type}:${resource.id}`;
  if (referenceCache.get(db)?.get(key) === raw) return true;
  // Remembered only once the page has committed: a rolled-back page must be written again.
  written.set(key, raw);
  return false;
}

/** The reference rows a committed page wrote, so the next page can skip them when unchanged. */
export function rememberReferences(db: Db, written: Map<string, string>): void {
  let cache = referenceCache.get(db);
  if (!cache) {
    cache = new Map<string, string>();
    referenceCache.set(db, cache);
  }
  for (const [key, raw] of written) cache.set(key, raw);
}
