/**
 * `npm run cli -- <command>`: headless Quayside for scripts, cron jobs and checks.
 * Runs straight from source (tsx), no build step.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createCore } from '../core/core';
import { resolveDataDir } from '../core/paths';
import { sandboxDemoService } from '../sandbox/demo-service';
import { alertsUsage, runAlerts } from './commands/alerts';
import { changesUsage, runChanges } from './commands/changes';
import { demoUsage, runDemo } from './commands/demo';
import { exportUsage, runExport } from './commands/export';
import { hubUsage, runHub } from './commands/hub';
import { importUsage, runImport } from './commands/import';
import { insightsUsage, runInsights } from './commands/insights';
import { rawUsage, runRaw } from './commands/raw';
import { runSandbox, sandboxUsage } from './commands/sandbox';
import { runStatus, statusUsage } from './commands/status';
import { runSync, syncUsage } from './commands/sync';
import { defaultDataDir } from './data-dir';
import { exitCodes } from './exit-codes';
import { UsageError, type CommandIo } from './io';
import { readPackageVersion } from './package-version';

export { exitCodes };

const usage = `Usage: npm run cli -- <command> [options]

Quayside keeps an offline copy of your ocean shipments from the Shipment Tracking API.

Commands:
  info [--json]       Version, data folder and mode (demo or live) of this installation.
  ${syncUsage}
  ${statusUsage}
  ${exportUsage}
  ${importUsage}
  ${changesUsage}
  ${alertsUsage}
  ${insightsUsage}
  ${rawUsage}
  ${hubUsage}
  ${demoUsage}
  ${sandboxUsage}
  help                This text.

The data folder is QUAYSIDE_DATA_DIR when set, else the app's user-data folder.
Exit codes: 0 ok, 1 failure, 2 usage, 3 API key refused or missing, 4 rate limited,
5 network or service unavailable (a redirect included), 6 validation, 7 busy (another sync
of the same database is running), 8 the service's answer unusable (unreadable, or a list that
loops), 130 cancelled.`;

async function info(args: string[], io: CommandIo): Promise<number> {
  let json: boolean;
  try {
    json = parseArgs({ args, options: { json: { type: 'boolean' } }, strict: true }).values.json ?? false;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const core = createCore({
    dataDir: resolveDataDir(process.env, defaultDataDir()),
    appVersion: readPackageVersion(),
    demo: sandboxDemoService(),
  });
  const appInfo = await core.handlers['app:info'](undefined);
  await core.close();
  io.out.write(
    json
      ? `${JSON.stringify(appInfo)}\n`
      : `Quayside ${appInfo.version}\nData folder: ${appInfo.dataDir}\nMode: ${appInfo.demo ? 'demo (no API key set)' : 'live'}\n`,
  );
  return exitCodes.ok;
}

const commands: Record<string, (args: string[], io: CommandIo) => Promise<number>> = {
  info,
  sync: runSync,
  status: runStatus,
  export: runExport,
  import: runImport,
  changes: runChanges,
  alerts: runAlerts,
  insights: runInsights,
  raw: runRaw,
  hub: runHub,
  demo: (args, io) => runDemo(args, io, () => resolveDataDir(process.env, defaultDataDir())),
  sandbox: runSandbox,
};

export async function runCli(argv: string[], io: Partial<CommandIo> = {}): Promise<number> {
  const full: CommandIo = { out: io.out ?? process.stdout, err: io.err ?? process.stderr, signal: io.signal };
  const [command, ...rest] = argv;
  if (!command || command === 'help' || command === '--help' || command === '-h') {
    full.out.write(`${usage}\n`);
    return command ? exitCodes.ok : exitCodes.usage;
  }
  const run = commands[command];
  if (!run) {
    full.err.write(`Unknown command "${command}".\n\n${usage}\n`);
    return exitCodes.usage;
  }
  try {
    return await run(rest, full);
  } catch (error) {
    if (error instanceof UsageError) {
      full.err.write(`${error.message}\n\nRun \`npm run cli -- help\` for usage.\n`);
      return exitCodes.usage;
    }
    full.err.write(`${(error as Error).message}\n`);
    return exitCodes.failure;
  }
}

// Run when executed directly (import.meta.main needs Node 24; the project supports 22.14).
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await runCli(process.argv.slice(2));
}
