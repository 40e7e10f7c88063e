/**
 * `npm start` (and `npm run dev`): checks the Node version first (node-guard.ts), makes sure
 * the Electron binary is present, fetching it once if it is not, then builds and runs the app.
 * Offline, it ends with one clear sentence. Only Node built-ins and the guard are imported
 * statically; the rest comes after the check.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { requireSupportedNode } from './node-guard';

requireSupportedNode();
const { electronPackageDir, findElectronBinary } = await import('./electron-binary');

const dev = process.argv.includes('--dev');

if (!findElectronBinary()) {
  console.log('Fetching the Electron binary (once)…');
  const install = spawnSync(process.execPath, [join(electronPackageDir(), 'install.js')], {
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
  });
  if (install.status !== 0 || !findElectronBinary()) {
    console.error(
      'Quayside could not start: the Electron binary is not installed and could not be downloaded (no connection to its download host); connect to the internet and run `npm start` again.',
    );
    process.exit(1);
  }
}

const electronVite = join(import.meta.dirname, '../../node_modules/electron-vite/bin/electron-vite.js');
const run = spawnSync(process.execPath, [electronVite, dev ? 'dev' : 'preview'], { stdio: 'inherit' });
process.exit(run.status ?? 1);
