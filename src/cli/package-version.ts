import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** The app's version from package.json (Electron's app.getVersion() reads the same field). */
export function readPackageVersion(): string {
  const pkg = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../package.json'), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}
