/**
 * The PostgreSQL schema a team hub publishes into, created and migrated by the hub, versioned
 * like the SQLite store (`store/migrations`): `quayside.meta` holds the schema version, and a
 * schema newer than this build knows is refused with one sentence, before anything is written.
 * Migrations run in one transaction under an advisory lock, so two hubs started at once never
 * both apply one. A migration is never edited once released, only added.
 *
 * Everything lives in the schema `quayside` (created here when missing, or beforehand by the
 * setup SQL of `hub --print-setup`, owned by the hub's role): names are always qualified, so a
 * role's search_path never decides which table is read.
 *
 * Version 1:
 *   quayside.meta       one row: schema_version; hub, the id of the hub database publishing here
 *                       (kept in that database's sync state; another hub database is refused);
 *                       cursor, the hub's publish cursor (`publisher.ts`), written in the same
 *                       transaction as each page of rows.
 *   quayside.published  what the hub publishes, one row per (kind, type, id), each with seq:
 *     kind   'record'   a record as the service sent it: type is its JSON:API type, id its id,
 *                       body its JSON exactly as `quayside raw TYPE ID` prints it; body NULL
 *                       when the record was deleted (a tombstone, kept so readers learn of it);
 *            'change'   a row of the change history: type is its resource (shipment, container),
 *                       id the hub's change id, body its columns as the SQLite store keeps them;
 *            'sync_run' a row of the hub's sync log: type 'sync_run', id the run's id, body its columns.
 *     seq    from quayside.published_seq, given again each time a row's body changes (a row
 *            whose body is unchanged keeps its seq), so the seqs only grow. Pages are committed
 *            one at a time holding the meta row's lock, so seqs become visible in the order
 *            they were given: a reader that has applied everything up to N misses nothing by
 *            reading after N next time.
 *
 * How a reader pulls (one indexed query per page, on published_seq_order; repeat until a page
 * comes back short, each page in its own snapshot):
 *   SELECT seq, kind, type, id, body FROM quayside.published WHERE seq > $1 ORDER BY seq LIMIT $2
 * and keeps the last seq it applied. Each row is the latest state of its key: apply records,
 * delete where body IS NULL, insert changes and sync runs by id.
 */
import type { ClientBase } from 'pg';
import { HubError, quoted } from './errors';

export const PG_SCHEMA = 'quayside';

interface PgMigration {
  version: number;
  up: string;
}

const migrations: readonly PgMigration[] = [
  {
    version: 1,
    up: `
CREATE TABLE quayside.meta (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  schema_version integer NOT NULL,
  hub text,
  cursor jsonb
);
INSERT INTO quayside.meta (schema_version) VALUES (0);
CREATE SEQUENCE quayside.published_seq AS bigint;
CREATE TABLE quayside.published (
  seq bigint NOT NULL,
  kind text NOT NULL CHECK (kind IN ('record', 'change', 'sync_run')),
  type text NOT NULL,
  id text NOT NULL,
  body json,
  PRIMARY KEY (kind, type, id)
);
CREATE UNIQUE INDEX published_seq_order ON quayside.published (seq);
`,
  },
];

/** The schema version this build writes. */
export const hubSchemaVersion = migrations[migrations.length - 1]!.version;

/** The advisory lock key migrations hold (any constant; the same in every hub). */
const MIGRATION_LOCK = 7_340_231_955;

/** The sentence refusing a schema written by a newer hub. */
export function newerSchemaMessage(where: string, version: number): string {
  return `PostgreSQL at ${where} holds a team hub schema newer than this Quayside knows (version ${version}; this one knows ${hubSchemaVersion}): update Quayside to use it.`;
}

/**
 * The schema version in `quayside.meta`, or 0 when there is none yet; a value no hub writes (not
 * a whole number, negative) is refused with one sentence naming `where`.
 */
export async function readSchemaVersion(client: ClientBase, where = 'the team hub'): Promise<number> {
  const exists = await client.query<{ found: string | null }>(`SELECT to_regclass('quayside.meta')::text AS found`);
  if (!exists.rows[0]?.found) return 0;
  const row = await client.query<{ schema_version: unknown }>('SELECT schema_version FROM quayside.meta');
  const value = row.rows[0]?.schema_version ?? 0;
  const version =
    typeof value === 'number' ? value : typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(version) || version < 0) {
    throw new HubError(
      'failure',
      `PostgreSQL at ${where} holds a schema version (${quoted(value)}) that no team hub writes; point Quayside at the database a hub publishes into.`,
    );
  }
  return version;
}

/**
 * Creates or migrates the schema to this build's version; refuses a newer one (a HubError of
 * kind 'failure') without writing anything.
 */
export async function ensureSchema(client: ClientBase, where: string): Promise<void> {
  // Most runs find the schema current: no lock, no transaction.
  const seen = await readSchemaVersion(client, where);
  if (seen > hubSchemaVersion) throw new HubError('failure', newerSchemaMessage(where, seen));
  if (seen === hubSchemaVersion) return;
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    const current = await readSchemaVersion(client, where);
    if (current > hubSchemaVersion) throw new HubError('failure', newerSchemaMessage(where, current));
    const schema = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [PG_SCHEMA]);
    // CREATE SCHEMA checks the right to create one even with IF NOT EXISTS: only when missing.
    if (schema.rowCount === 0) await client.query(`CREATE SCHEMA ${PG_SCHEMA}`);
    for (const migration of migrations.filter((m) => m.version > current)) await client.query(migration.up);
    await client.query('UPDATE quayside.meta SET schema_version = $1', [hubSchemaVersion]);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
