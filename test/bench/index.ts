/**
 * `npm run bench`: performance figures against the sandbox, printed as a table and written
 * to bench-results.json as [{ name, value, unit, target, pass }]. Not a test: it never fails
 * the build, it reports.
 */
import { printTable, writeResults, type Measure } from './report';
import { benchSandbox } from './sandbox';

const measures: Measure[] = [];
measures.push(...(await benchSandbox()));
printTable(measures);
writeResults(measures);
console.log(
  `\n${measures.filter((m) => m.pass).length}/${measures.length} measures within target; written to bench-results.json`,
);
