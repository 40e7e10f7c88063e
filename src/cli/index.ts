/**
 * `npm run cli -- <command>`: headless Quayside for scripts, cron jobs and checks.
 * Runs straight from source (tsx), no build step.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createCore } from '../core/core';
import { resolveDataDir } from '../core/paths';
import { defaultDataDir } from './data-dir';
import { readPackageVersion } from './package-version';

export const exitCodes = { ok: 0, failure: 1, usage: 2 } as const;

const usage = `Usage: npm run cli -- <command> [options]

Quayside keeps an offline copy of your ocean shipments from the Shipment Tracking API.

Commands:
  info [--json]     Version, data folder and mode (demo or live) of this installation.
  help              This text.

Options:
  -h, --help        This text.

The data folder is QUAYSIDE_DATA_DIR when set, else the app's user-data folder.
Exit codes: 0 ok, 1 failure, 2 usage error.`;

interface Output {
  write(text: string): unknown;
}

export async function runCli(
  argv: string[],
  out: Output = process.stdout,
  err: Output = process.stderr,
): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === 'help' || command === '--help' || command === '-h') {
    out.write(`${usage}\n`);
    return command ? exitCodes.ok : exitCodes.usage;
  }
  if (command === 'info') {
    let json: boolean;
    try {
      json = parseArgs({ args: rest, options: { json: { type: 'boolean' } }, strict: true }).values.json ?? false;
    } catch (error) {
      err.write(`${(error as Error).message}\n\n${usage}\n`);
      return exitCodes.usage;
    }
    const core = createCore({
      dataDir: resolveDataDir(process.env, defaultDataDir()),
      appVersion: readPackageVersion(),
    });
    const info = await core.handlers['app:info'](undefined);
    await core.close();
    out.write(
      json
        ? `${JSON.stringify(info)}\n`
        : `Quayside ${info.version}\nData folder: ${info.dataDir}\nMode: ${info.demo ? 'demo (no API key set)' : 'live'}\n`,
    );
    return exitCodes.ok;
  }
  err.write(`Unknown command "${command}".\n\n${usage}\n`);
  return exitCodes.usage;
}

// Run when executed directly (import.meta.main needs Node 24; the project supports 22.14).
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await runCli(process.argv.slice(2));
}
