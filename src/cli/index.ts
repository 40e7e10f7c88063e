/**
 * `npm run cli -- <command>`: headless Quayside for scripts, cron jobs and checks.
 * Runs straight from source (tsx), no build step.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { resolveDataDir } from '../core/paths';
import { defaultDataDir } from './data-dir';
import { exitCodes } from './exit-codes';
import { UsageError, type CommandIo } from './io';
import { readPackageVersion } from './package-version';

export { exitCodes };

type Run = (args: string[], io: CommandIo) => Promise<number>;

/**
 * Each command's module, loaded when the command runs: a cron job's `sync` loads the sync and
 * not the whole app (through tsx, every module loaded is also kept transpiled: loading them all
 * held some 20 MB more through a sync). Help loads them all for their usage lines.
 */
const commands: Record<string, () => Promise<{ run: Run; usage?: string }>> = {
  info: () => Promise.resolve({ run: info }),
  sync: async () => import('./commands/sync').then((m) => ({ run: m.runSync, usage: m.syncUsage })),
  status: async () => import('./commands/status').then((m) => ({ run: m.runStatus, usage: m.statusUsage })),
  export: async () => import('./commands/export').then((m) => ({ run: m.runExport, usage: m.exportUsage })),
  import: async () => import('./commands/import').then((m) => ({ run: m.runImport, usage: m.importUsage })),
  changes: async () => import('./commands/changes').then((m) => ({ run: m.runChanges, usage: m.changesUsage })),
  alerts: async () => import('./commands/alerts').then((m) => ({ run: m.runAlerts, usage: m.alertsUsage })),
  insights: async () => import('./commands/insights').then((m) => ({ run: m.runInsights, usage: m.insightsUsage })),
  raw: async () => import('./commands/raw').then((m) => ({ run: m.runRaw, usage: m.rawUsage })),
  hub: async () => import('./commands/hub').then((m) => ({ run: m.runHub, usage: m.hubUsage })),
  demo: async () =>
    import('./commands/demo').then((m) => ({
      run: (args: string[], io: CommandIo) => m.runDemo(args, io, () => resolveDataDir(process.env, defaultDataDir())),
      usage: m.demoUsage,
    })),
  sandbox: async () => import('./commands/sandbox').then((m) => ({ run: m.runSandbox, usage: m.sandboxUsage })),
};

async function usageText(): Promise<string> {
  const lines: string[] = [];
  for (const load of Object.values(commands)) {
    const { usage } = await load();
    if (usage) lines.push(`  ${usage}`);
  }
  return `Usage: npm run cli -- <command> [options]

Quayside keeps an offline copy of your ocean shipments from the Shipment Tracking API.

Commands:
  info [--json]       Version, data folder and mode (demo or live) of this installation.
${lines.join('\n')}
  help                This text.

The data folder is QUAYSIDE_DATA_DIR when set, else the app's user-data folder.
Exit codes: 0 ok, 1 failure, 2 usage, 3 API key refused or missing, 4 rate limited,
5 network or service unavailable (a redirect included), 6 validation, 7 busy (another sync
of the same database is running), 8 the service's answer unusable (unreadable, or a list that
loops), 130 cancelled.`;
}

async function info(args: string[], io: CommandIo): Promise<number> {
  let json: boolean;
  try {
    json = parseArgs({ args, options: { json: { type: 'boolean' } }, strict: true }).values.json ?? false;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const [{ createCore }, { sandboxDemoService }] = await Promise.all([
    import('../core/core'),
    import('../sandbox/demo-service'),
  ]);
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

export async function runCli(argv: string[], io: Partial<CommandIo> = {}): Promise<number> {
  const full: CommandIo = { out: io.out ?? process.stdout, err: io.err ?? process.stderr, signal: io.signal };
  const [command, ...rest] = argv;
  if (!command || command === 'help' || command === '--help' || command === '-h') {
    full.out.write(`${await usageText()}\n`);
    return command ? exitCodes.ok : exitCodes.usage;
  }
  const load = Object.hasOwn(commands, command) ? commands[command] : undefined;
  if (!load) {
    full.err.write(`Unknown command "${command}".\n\n${await usageText()}\n`);
    return exitCodes.usage;
  }
  try {
    const { run } = await load();
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
