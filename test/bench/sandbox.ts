import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { DEMO_API_KEY, startSandbox } from '../../src/sandbox/index';
import { measure, percentile, type Measure } from './report';

const root = resolve(import.meta.dirname, '../..');

/** Wall time from launching `npm run cli -- sandbox --shipments N` to its "listening" line. */
async function cliStartMs(shipments: number): Promise<number> {
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [
      resolve(root, 'node_modules/tsx/dist/cli.mjs'),
      resolve(root, 'src/cli/index.ts'),
      'sandbox',
      '--shipments',
      String(shipments),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise<void>((done, fail) => {
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('sandbox listening on')) done();
    });
    child.once('exit', (code) => fail(new Error(`sandbox exited early with ${code}`)));
  });
  const elapsed = performance.now() - started;
  const exited = new Promise((done) => child.once('exit', done));
  child.kill('SIGTERM');
  await exited;
  return elapsed;
}

export async function benchSandbox(): Promise<Measure[]> {
  const measures: Measure[] = [];
  measures.push(measure('sandbox start, 10k shipments (CLI)', await cliStartMs(10_000), 'ms', { below: 5000 }));

  const sandbox = await startSandbox({
    seed: 'bench',
    shipments: 10_000,
    rateLimit: { limit: 100_000, windowSeconds: 60 },
  });
  try {
    const headers = { authorization: `Token ${DEMO_API_KEY}` };
    const pages: [string, string][] = [
      [
        'shipments page of 100 + includes',
        '/shipments?page[size]=100&include=containers,port_of_lading,port_of_discharge,destination,pod_terminal',
      ],
      ['containers page of 100 + events', '/containers?page[size]=100&include=transport_events'],
      ['tracking requests page of 100', '/tracking_requests?page[size]=100'],
    ];
    for (const [name, path] of pages) {
      const samples: number[] = [];
      for (let i = 0; i < 60; i++) {
        const url = `${sandbox.url}${path}&page[number]=${(i % 50) + 1}`;
        const started = performance.now();
        const response = await fetch(url, { headers });
        await response.arrayBuffer();
        samples.push(performance.now() - started);
      }
      measures.push(measure(`sandbox ${name}, p50`, percentile(samples, 50), 'ms', { below: 50 }));
      measures.push(measure(`sandbox ${name}, p95`, percentile(samples, 95), 'ms', { below: 50 }));
    }
  } finally {
    await sandbox.close();
  }
  return measures;
}
