/**
 * The team hub tests' engine: where PostgreSQL's binaries are missing and the engine is required
 * (`.ci/run`, the Linux CI job), the tests fail with the reason (a skip there would hide that the
 * hub was never tested); elsewhere they skip with it.
 */
import { describe, expect, it } from 'vitest';
import { postgresSuite } from '../helpers/postgres';
import { tempDir } from '../helpers/temp-dir';

describe('the PostgreSQL the tests need', () => {
  const nowhere = () => ({ debian: tempDir(), env: { PATH: tempDir() } });

  it('fails the tests where the engine is required and its binaries are missing, saying what to install', () => {
    const { debian, env } = nowhere();
    const suite = postgresSuite({ ...env, QUAYSIDE_REQUIRE_POSTGRES: '1' }, debian);
    expect(suite).toEqual({ run: false, fail: expect.stringContaining('install Debian\'s "postgresql" package') });
  });

  it('skips them elsewhere (a macOS or Windows job without PostgreSQL too), with the same reason', () => {
    const { debian, env } = nowhere();
    for (const elsewhere of [env, { ...env, CI: 'true' }]) {
      expect(postgresSuite(elsewhere, debian)).toEqual({
        run: false,
        skip: expect.stringContaining('are not installed'),
      });
    }
  });
});
