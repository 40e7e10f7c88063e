import { openDatabase, openReader } from '../../src/core/store/database';
import { iterateShipments } from '../../src/core/store/queries/shipments';
import { lists } from '../../src/core/resources/lists';
import { writeCsv } from '../../src/core/export/csv';
import { createWriteStream } from 'node:fs';
const db = openReader(openDatabase('/tmp/big/big.sqlite'));
const cols = lists.shipments.export as any[];
for (let k = 0; k < 2; k++) {
  let t = performance.now(); let n = 0;
  for (const r of iterateShipments(db, {})) n++;
  const a = performance.now() - t;
  t = performance.now(); n = 0; let x = 0;
  for (const r of iterateShipments(db, {})) { for (const c of cols) { const v = c.value(r); if (v) x++; } n++; }
  const b = performance.now() - t;
  t = performance.now();
  await writeCsv({ rows: iterateShipments(db, {}), columns: cols, out: createWriteStream('/dev/null') });
  const c = performance.now() - t;
  console.log(`rows ${a.toFixed(0)} ms, +values ${b.toFixed(0)} ms, writeCsv ${c.toFixed(0)} ms`);
}
