import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The folder of the installed `electron` package. */
export function electronPackageDir(): string {
  return dirname(createRequire(import.meta.url).resolve('electron/package.json'));
}

/**
 * The path of the installed Electron executable, or null when its binary was never
 * downloaded. Reads what `electron`'s own index.js reads, without requiring it: requiring
 * it starts a download when the binary is missing.
 */
export function findElectronBinary(env: Record<string, string | undefined> = process.env): string | null {
  let dir: string;
  try {
    dir = electronPackageDir();
  } catch {
    return null;
  }
  const pathFile = join(dir, 'path.txt');
  const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : '';
  if (env.ELECTRON_OVERRIDE_DIST_PATH) {
    const overridden = join(env.ELECTRON_OVERRIDE_DIST_PATH, relative || 'electron');
    return existsSync(overridden) ? overridden : null;
  }
  if (!relative) return null;
  const binary = join(dir, 'dist', relative);
  return existsSync(binary) ? binary : null;
}
