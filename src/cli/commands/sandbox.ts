import {
  DEMO_API_KEY,
  parseFaults,
  parseLatency,
  parseRateLimit,
  startSandbox,
  type SandboxOptions,
} from '../../sandbox/index';
import { UsageError, type CommandIo, parseCommandLine } from '../io';

export const sandboxUsage = `sandbox [options]   Run the local simulator of the Tracking API on 127.0.0.1.
    --port N                 port (default 0: any free port)
    --seed TEXT              data seed (default "quayside"); same seed, same data
    --shipments N            shipments to generate (default 250); containers and requests scale with it
    --api-key KEY            accepted key, repeatable (default ${DEMO_API_KEY})
    --rate-limit N/SECONDS   requests per rolling window per key (default 100/60)
    --latency MS|realistic   delay before every answer: milliseconds, or realistic (tens to
                             hundreds of ms, 1 in 50 answers 1-3 s, seeded); default none
    --shape live|reference   list links and meta, shipping-line paging, unknown filters and
                             tracking-request tags as the live service (default) or the reference
    --faults SPEC            e.g. 500=0.05,502=0.01,503=0.01,reset=0.01,timeout=0.01,malformed=0.01
    --tick SECONDS           simulated seconds per real second (default 1)
    --log                    print one line per request to stderr`;

function wholeNumber(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value)) throw new UsageError(`--${name} must be a whole number, not "${value}"`);
  return Number(value);
}

/** Parses the sandbox options; a bad value is a usage error naming the option. */
export function parseSandboxArgs(args: string[]): SandboxOptions {
  const values = parseCommandLine({
    args,
    strict: true,
    options: {
      port: { type: 'string' },
      seed: { type: 'string' },
      shipments: { type: 'string' },
      'api-key': { type: 'string', multiple: true },
      'rate-limit': { type: 'string' },
      latency: { type: 'string' },
      shape: { type: 'string' },
      faults: { type: 'string' },
      tick: { type: 'string' },
      log: { type: 'boolean' },
    },
  }).values;
  const options: SandboxOptions = {
    port: wholeNumber(values.port, 'port', 0),
    seed: values.seed ?? 'quayside',
    shipments: wholeNumber(values.shipments, 'shipments', 250),
    apiKeys: values['api-key'] ?? [DEMO_API_KEY],
  };
  if (values.shape !== undefined) {
    if (values.shape !== 'live' && values.shape !== 'reference')
      throw new UsageError(`--shape must be live or reference, not "${values.shape}"`);
    options.shape = values.shape;
  }
  if (options.port! > 65535) throw new UsageError('--port must be at most 65535');
  try {
    if (values['rate-limit'] !== undefined) options.rateLimit = parseRateLimit(values['rate-limit']);
    if (values.faults !== undefined) options.faults = parseFaults(values.faults);
    options.latency = values.latency === undefined ? 'none' : parseLatency(values.latency);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.tick !== undefined) {
    const tick = Number(values.tick);
    if (!(tick > 0) || !Number.isFinite(tick))
      throw new UsageError(`--tick must be a positive number, not "${values.tick}"`);
    options.tick = tick;
  }
  if (values.log) options.log = (line) => process.stderr.write(`${line}\n`);
  return options;
}

/** Starts the sandbox, prints its one line, and runs until SIGINT or SIGTERM. */
export async function runSandbox(args: string[], io: CommandIo): Promise<number> {
  const options = parseSandboxArgs(args);
  const sandbox = await startSandbox(options);
  io.out.write(`sandbox listening on ${sandbox.url}\n`);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    io.signal?.addEventListener('abort', stop);
  });
  await sandbox.close();
  return 0;
}
