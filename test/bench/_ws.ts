import { Worker } from 'node:worker_threads';
const t = performance.now();
const w = new Worker('/work/main/out/main/export-worker.js', { workerData: { file: '/tmp/big/big.sqlite', path: '/tmp/big/ws.csv', options: { view: 'shipments', columns: ['bill_of_lading_number'] } } });
let first = 0;
w.on('message', (m) => { if (!first) { first = performance.now() - t; } if (m.kind !== 'progress') { console.log('first message', first.toFixed(0), 'done', (performance.now() - t).toFixed(0), m.kind); w.terminate(); } });
w.on('online', () => console.log('online', (performance.now() - t).toFixed(0)));
