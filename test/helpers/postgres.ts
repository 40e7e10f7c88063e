/**
 * The throwaway PostgreSQL cluster (`postgres-cluster.ts`) for vitest files: `usePostgres` starts
 * one for the whole file and removes it at the end, skipping with the reason printed where the
 * binaries are missing, failing where QUAYSIDE_REQUIRE_POSTGRES=1.
 */
import { afterAll, beforeAll } from 'vitest';
import { postgresSuite, startPostgres, type TestPostgres } from './postgres-cluster';

export * from './postgres-cluster';

/**
 * A cluster for the whole file, started once and removed at the end. `available` is false where
 * the suite skips (its reason printed once); where it is required a missing engine fails the file's tests.
 */
export function usePostgres(): { available: boolean; get: () => TestPostgres } {
  const suite = postgresSuite();
  if (!suite.run && 'skip' in suite) {
    console.warn(`Skipping the team hub tests: ${suite.skip}.`);
    return {
      available: false,
      get: () => {
        throw new Error(suite.skip);
      },
    };
  }
  let cluster: (TestPostgres & { stop(): Promise<void> }) | undefined;
  beforeAll(async () => {
    if (!suite.run) throw new Error('fail' in suite ? suite.fail : 'no PostgreSQL');
    cluster = await startPostgres();
  }, 120_000);
  afterAll(async () => {
    await cluster?.stop();
  }, 60_000);
  return {
    available: true,
    get: () => {
      if (!cluster) throw new Error('PostgreSQL not started');
      return cluster;
    },
  };
}
