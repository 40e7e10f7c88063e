/**
 * `npm run bench`: performance figures against the sandbox, printed as a table and written to
 * bench-results.json as [{ name, value, unit, target, targetKind, pass, anchor, ratio }] (see
 * report.ts). Not a test: it never fails the build, it reports. `npm run bench -- sandbox sync
 * urgent client loop import store renderer scale` picks suites.
 */
import { requireSupportedNode } from '../../src/cli/node-guard';
import type { Measure } from './report';

// Before any suite loads better-sqlite3: an old Node would crash on it without a word.
requireSupportedNode();
const { printTable, writeResults } = await import('./report');
const { benchRenderer } = await import('./renderer');
const { benchSandbox } = await import('./sandbox');
const { benchStore } = await import('./store');
const { benchSync } = await import('./sync');
const { benchUrgentFirst } = await import('./urgent');
const { benchClient } = await import('./client');
const { benchCoreLoop } = await import('./core-loop');
const { benchImport } = await import('./import');
const { benchScale } = await import('./scale');

const suites: Record<string, () => Promise<Measure[]>> = {
  sandbox: benchSandbox,
  sync: benchSync,
  urgent: benchUrgentFirst,
  client: benchClient,
  loop: benchCoreLoop,
  import: benchImport,
  store: benchStore,
  renderer: benchRenderer,
  scale: benchScale,
};
const chosen = process.argv.slice(2).filter((name) => name in suites);
const measures: Measure[] = [];
for (const name of chosen.length > 0 ? chosen : Object.keys(suites)) {
  console.error(`running ${name}…`);
  measures.push(...(await suites[name]!()));
}
printTable(measures);
writeResults(measures);
console.log(
  `\n${measures.filter((m) => m.pass).length}/${measures.length} measures within target; written to bench-results.json`,
);
