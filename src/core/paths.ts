import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * The folder for databases and settings: QUAYSIDE_DATA_DIR when set (tests, portable use),
 * else the platform's user-data folder that the caller passes in. Created when missing; a folder
 * that cannot be created (a file in the way, no permission) is said in a sentence.
 */
export function resolveDataDir(env: Record<string, string | undefined>, userDataDir: string): string {
  const override = env.QUAYSIDE_DATA_DIR?.trim();
  const dir = resolve(override ? override : userDataDir);
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new Error(
      `Quayside could not create its data folder ${dir} (${reason}); ${
        override ? 'set QUAYSIDE_DATA_DIR to a folder you can write to' : 'check that you can write to it'
      }.`,
      { cause: error },
    );
  }
  return dir;
}
