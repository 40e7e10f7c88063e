/**
 * `npm run bench`: performance figures against the sandbox, printed as a table and written
 * to bench-results.json as [{ name, value, unit, target, pass }]. Not a test: it never fails
 * the build, it reports. `npm run bench -- sandbox sync store renderer` picks suites.
 */
import { printTable, writeResults, type Measure } from './report';
import { benchRenderer } from './renderer';
import { benchSandbox } from './sandbox';
import { benchStore } from './store';
import { benchSync } from './sync';

const suites: Record<string, () => Promise<Measure[]>> = {
  sandbox: benchSandbox,
  sync: benchSync,
  store: benchStore,
  renderer: benchRenderer,
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
