/**
 * The team hub tests' engine: where PostgreSQL's binaries are missing, CI fails the tests with
 * the reason (a skip there would hide that the hub was never tested); elsewhere they skip with it.
 */
import { describe, expect, it } from 'vitest';
import { postgresSuite } from '../helpers/postgres';
import { tempDir } from '../helpers/temp-dir';

describe('the PostgreSQL the tests need', () => {
  const nowhere = () => ({ debian: tempDir(), env: { PATH: tempDir() } });

  it('fails the tests in CI when its binaries are missing, saying what to install', () => {
    const { debian, env } = nowhere();
    for (const ci of [{ CI: 'true' }, { QUAYSIDE_REQUIRE_POSTGRES: '1' }]) {
      const suite = postgresSuite({ ...env, ...ci }, debian);
      expect(suite).toEqual({ run: false, fail: expect.stringContaining('install Debian\'s "postgresql" package') });
    }
  });

  it('skips them elsewhere, with the same reason', () => {
    const { debian, env } = nowhere();
    expect(postgresSuite(env, debian)).toEqual({ run: false, skip: expect.stringContaining('are not installed') });
  });
});
