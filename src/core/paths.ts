import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * The folder for databases and settings: QUAYSIDE_DATA_DIR when set (tests, portable use),
 * else the platform's user-data folder that the caller passes in.
 */
export function resolveDataDir(env: Record<string, string | undefined>, userDataDir: string): string {
  const override = env.QUAYSIDE_DATA_DIR?.trim();
  const dir = resolve(override ? override : userDataDir);
  mkdirSync(dir, { recursive: true });
  return dir;
}
