/**
 * `npm run bench`: performance figures against the sandbox, printed as a table and written to
 * bench-results.json as [{ name, value, unit, target, targetKind, pass, anchor, ratio }] (see
 * report.ts). Not a test: it never fails the build, it reports. `npm run bench -- sandbox sync
 * urgent client memory loop import store renderer scale team` picks suites.
 *
 * Each suite runs in a Node process of its own (this file again, with `--suite NAME`, handing its
 * figures back in a JSON file): a suite that hosts the core or measures its own process's RSS
 * would otherwise carry the heaps the suites before it left (the renderer's fling, whose list pages
 * come from a test host in this process, had rows still loading in 39 frames after seven suites,
 * in none run alone).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requireSupportedNode } from '../../src/cli/node-guard';
import type { Measure } from './report';

// Before any suite loads better-sqlite3: an old Node would crash on it without a word.
requireSupportedNode();
const { printTable, writeResults } = await import('./report');

const suites: Record<string, () => Promise<() => Promise<Measure[]>>> = {
  sandbox: async () => (await import('./sandbox')).benchSandbox,
  sync: async () => (await import('./sync')).benchSync,
  urgent: async () => (await import('./urgent')).benchUrgentFirst,
  client: async () => (await import('./client')).benchClient,
  memory: async () => (await import('./memory')).benchMemory,
  loop: async () => (await import('./core-loop')).benchCoreLoop,
  import: async () => (await import('./import')).benchImport,
  store: async () => (await import('./store')).benchStore,
  renderer: async () => (await import('./renderer')).benchRenderer,
  scale: async () => (await import('./scale')).benchScale,
  team: async () => (await import('./team')).benchTeam,
};

const args = process.argv.slice(2);
const one = args.indexOf('--suite');
if (one >= 0) {
  // A child: one suite, its figures to the file named after it.
  const [name, out] = [args[one + 1]!, args[one + 2]!];
  const measures = await (await suites[name]!())();
  writeFileSync(out, JSON.stringify(measures));
  process.exit(0);
}

/** Runs one suite in a process of its own (same Node, same loader) and reads back its figures. */
async function inItsOwnProcess(name: string, dir: string): Promise<Measure[]> {
  const out = join(dir, `${name}.json`);
  const child = spawn(process.execPath, [...process.execArgv, import.meta.filename, '--suite', name, out], {
    stdio: 'inherit',
  });
  const code = await new Promise<number | null>((done) => child.once('exit', done));
  if (code !== 0) throw new Error(`the ${name} suite exited with ${code}`);
  return JSON.parse(readFileSync(out, 'utf8')) as Measure[];
}

const chosen = args.filter((name) => name in suites);
const measures: Measure[] = [];
const dir = mkdtempSync(join(tmpdir(), 'quayside-bench-run-'));
try {
  for (const name of chosen.length > 0 ? chosen : Object.keys(suites)) {
    console.error(`running ${name}…`);
    measures.push(...(await inItsOwnProcess(name, dir)));
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
printTable(measures);
writeResults(measures);
console.log(
  `\n${measures.filter((m) => m.pass).length}/${measures.length} measures within target; written to bench-results.json`,
);
