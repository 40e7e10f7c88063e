import { join } from 'node:path';
import { openSync } from '../../core/sync/open-sync';
import { sandboxDemoService } from '../../sandbox/demo-service';
import { parseLatency, type Latency } from '../../sandbox/latency';
import { exitCodes } from '../exit-codes';
import { UsageError, type CommandIo, parseCommandLine } from '../io';
import { summaryJson, summaryText } from './sync';

export const demoUsage = `demo [--db PATH] [--shipments N] [--latency realistic|none|MS] [--json]
                      Start the sandbox in-process, sync it into PATH (default demo.sqlite in the
                      data folder) and print the summary. The sandbox answers with the live
                      service's delays unless --latency says otherwise.`;

export async function runDemo(args: string[], io: CommandIo, dataDir: () => string): Promise<number> {
  const values = parseCommandLine({
    args,
    strict: true,
    options: {
      db: { type: 'string' },
      shipments: { type: 'string' },
      latency: { type: 'string' },
      json: { type: 'boolean' },
    },
  }).values;
  const shipments = values.shipments === undefined ? 250 : Number(values.shipments);
  if (!Number.isInteger(shipments) || shipments < 0) throw new UsageError('--shipments must be a whole number');
  // The same demo service the app's demo account syncs from, in this process on loopback.
  let latency: Latency = 'realistic';
  try {
    if (values.latency !== undefined) latency = parseLatency(values.latency);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const server = await sandboxDemoService({ seed: 'demo', shipments, latency }).start();
  try {
    // Opened inside the try: a database that cannot be opened must not leave the service running
    // (the process would never exit).
    const sync = openSync({
      dbPath: values.db ?? join(dataDir(), 'demo.sqlite'),
      baseUrl: server.url,
      apiKey: server.apiKey,
      isolatedLimiter: true,
    });
    try {
      const summary = await sync.engine.run({ mode: 'auto' });
      io.out.write(values.json ? `${summaryJson(summary)}\n` : summaryText(summary));
      return summary.status === 'ok' ? exitCodes.ok : exitCodes.failure;
    } finally {
      sync.close();
    }
  } finally {
    await server.close();
  }
}
