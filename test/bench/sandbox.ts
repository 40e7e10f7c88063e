import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { DEMO_API_KEY, startSandbox } from '../../src/sandbox/index';
import { measure, percentile, type Measure } from './report';

const root = resolve(import.meta.dirname, '../..');

/**
 * `npm run cli -- sandbox ARGS` as its own process, like the real service would be. `heapMb`
 * raises its V8 heap limit: the sandbox keeps its whole world in memory (about 3.2 GB at 100k
 * shipments), and under the default limit (about 4.5 GB here) it spends its time collecting.
 * `counting` has it log its requests (`--log`) and counts those whose line holds that text.
 */
export async function spawnSandbox(
  args: string[],
  options: { heapMb?: number; counting?: string; nice?: number } = {},
): Promise<{ url: string; startMs: number; counted: () => number; stop: () => Promise<void> }> {
  const started = performance.now();
  const env = { ...process.env };
  if (options.heapMb !== undefined) {
    env.NODE_OPTIONS = `${env.NODE_OPTIONS ?? ''} --max-old-space-size=${options.heapMb}`.trim();
  }
  const counting = options.counting;
  const command = [
    process.execPath,
    resolve(root, 'node_modules/tsx/dist/cli.mjs'),
    resolve(root, 'src/cli/index.ts'),
    'sandbox',
    ...args,
    ...(counting ? ['--log'] : []),
  ];
  // `nice`: the sandbox yields the machine's cores to the processes under test (POSIX `nice`).
  if (options.nice !== undefined && process.platform !== 'win32') command.unshift('nice', '-n', String(options.nice));
  const child = spawn(command[0]!, command.slice(1), {
    stdio: ['ignore', 'pipe', counting ? 'pipe' : 'inherit'],
    env,
  });
  let counted = 0;
  if (counting && child.stderr) {
    let rest = '';
    child.stderr.on('data', (chunk: Buffer) => {
      const lines = (rest + chunk.toString()).split('\n');
      rest = lines.pop()!;
      for (const line of lines) if (line.includes(counting)) counted++;
    });
  }
  const url = await new Promise<string>((done, fail) => {
    let text = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const match = /sandbox listening on (\S+)/.exec(text);
      if (match) done(match[1]!);
    });
    child.once('exit', (code) => fail(new Error(`sandbox exited early with ${code}`)));
  });
  const startMs = performance.now() - started;
  return {
    url,
    startMs,
    counted: () => counted,
    stop: async () => {
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export async function benchSandbox(): Promise<Measure[]> {
  const measures: Measure[] = [];
  const cli = await spawnSandbox(['--shipments', '10000']);
  await cli.stop();
  measures.push(measure('sandbox start, 10k shipments (CLI)', cli.startMs, 'ms', { below: 5000 }));

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
      // Warmed first, untimed, as a running service is: its first answers of a kind compile the
      // code that makes them (the shipments page's first three: 129, 44 and 48 ms, then 14-25 at
      // p50-p95). The start is measured above.
      for (let i = 0; i < 10; i++)
        await (await fetch(`${sandbox.url}${path}&page[number]=${i + 1}`, { headers })).arrayBuffer();
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
