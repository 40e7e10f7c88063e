import { openDatabase, openReader } from '../../src/core/store/database';
import { shipmentView } from '../../src/core/store/queries/shipments';
const db = openReader(openDatabase('/tmp/big/big.sqlite'));
const q = shipmentView.orderedSql(db, {}) as any;
console.log(JSON.stringify(q).slice(0, 300));
const stmts = Array.isArray(q) ? q : [q];
for (let k = 0; k < 2; k++) for (const mode of ['obj', 'raw']) {
  const t = performance.now(); let n = 0;
  for (const s of stmts) { const st = db.prepare(s.sql ?? s); if (mode === 'raw') st.raw(); for (const r of st.iterate(...(s.params ?? []))) n++; }
  console.log(mode, n, (performance.now() - t).toFixed(0));
}
