/** The bench's database of many shipments: see test/helpers/generated-database.ts. */
export { buildBigDatabase, type BigDatabase, type BigDatabaseOptions } from '../helpers/generated-database';
