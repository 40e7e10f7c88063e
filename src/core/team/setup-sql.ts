/**
 * The SQL an administrator runs once to host a team hub (`hub --print-setup`): a role for the
 * hub, which owns the schema `quayside` and creates and migrates its tables there, and a role
 * for the laptops that can only read them (USAGE on the schema and SELECT on its tables, now and
 * on every table the hub adds later; its transactions read-only besides). Both get a fresh
 * random password each time the SQL is printed. A streaming replica carries the roles and
 * grants with the data, so laptops may read from one as from the primary.
 */
import { randomBytes } from 'node:crypto';
import { PG_SCHEMA } from './schema';

export const HUB_ROLE = 'quayside_hub';
export const READER_ROLE = 'quayside_reader';

/** A password of 24 URL-safe characters: nothing to escape in SQL or in a URL. */
function password(): string {
  return randomBytes(18).toString('base64url');
}

export function setupSql(passwords: { hub: string; reader: string } = { hub: password(), reader: password() }): string {
  return `-- Quayside team hub: run once as a PostgreSQL superuser, connected to the database the hub
-- publishes into (for a new one: CREATE DATABASE quayside; then connect to it), e.g.
--   psql -h HOST -U postgres -d quayside -f setup.sql
-- Keep both passwords (printed fresh each time): the hub's goes into its --postgres URL
-- (postgres://${HUB_ROLE}:PASSWORD@HOST/quayside), the laptops' into their Settings.

CREATE ROLE ${HUB_ROLE} LOGIN PASSWORD '${passwords.hub}';
CREATE ROLE ${READER_ROLE} LOGIN PASSWORD '${passwords.reader}';

-- The hub creates and migrates its tables in a schema of its own.
CREATE SCHEMA ${PG_SCHEMA} AUTHORIZATION ${HUB_ROLE};
REVOKE ALL ON SCHEMA ${PG_SCHEMA} FROM PUBLIC;

-- Laptops read and only read: SELECT on the hub's tables, those there now and those it adds.
GRANT USAGE ON SCHEMA ${PG_SCHEMA} TO ${READER_ROLE};
GRANT SELECT ON ALL TABLES IN SCHEMA ${PG_SCHEMA} TO ${READER_ROLE};
ALTER DEFAULT PRIVILEGES FOR ROLE ${HUB_ROLE} IN SCHEMA ${PG_SCHEMA} GRANT SELECT ON TABLES TO ${READER_ROLE};
ALTER ROLE ${READER_ROLE} SET default_transaction_read_only = on;
`;
}
