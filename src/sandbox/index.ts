/**
 * The local simulator of the Shipment Tracking API: demo mode, tests and benchmarks run
 * against it on loopback. Never imports electron.
 */
import type { AddressInfo } from 'node:net';
import { SimClock } from './clock';
import { FaultInjector, parseFaults, type FaultKind, type FaultRates } from './faults';
import { generateWorld } from './generate';
import { LatencyPlan, type Latency } from './latency';
import { BucketedRateLimits } from './rate-limit';
import type { RateLimitSpec, SpecialRateBucket } from '../shared/rate-buckets';
import { createSandboxServer, type SandboxStats } from './server';
import type { SandboxShape } from './serialize';
import { SandboxStore } from './store';

/** The key the sandbox accepts when no other is given; documented in the README. */
export const DEMO_API_KEY = 'quayside-demo-key';

export interface SandboxOptions {
  /** 0 (default) picks any free port. The server listens on 127.0.0.1 only. */
  port?: number;
  seed?: string;
  /** Number of shipments; containers (1–6 each) and tracking requests scale with it. */
  shipments?: number;
  apiKeys?: string[];
  /** The overall bucket per key (default 100 per 60 s, as the live service). */
  rateLimit?: RateLimitSpec;
  /** The buckets counted apart from the overall one; each defaults to the live service's limit. */
  rateBuckets?: Partial<Record<SpecialRateBucket, RateLimitSpec>>;
  /**
   * The wait before every answer: `none` (the default), a fixed number of milliseconds, `realistic`
   * (as the live service: tens to hundreds of ms, now and then a slow page of 1–3 s, seeded), or a
   * profile of one's own.
   */
  latency?: Latency;
  /** A fixed wait before every answer; `latency` wins when both are given. */
  latencyMs?: number;
  /** `live` (default): the live service's list shapes; `reference`: the API reference's. */
  shape?: SandboxShape;
  faults?: FaultRates | string;
  /**
   * Paths (after /v2) that fail every time with this fault, e.g. `{ '/custom_fields': '500' }` as
   * the live service has been seen to; `{ 'GET /custom_fields': '500' }` fails the list alone.
   */
  failingPaths?: Record<string, FaultKind>;
  /** Simulated seconds per real second. */
  tick?: number;
  /** Simulated start time (epoch ms); defaults to now. */
  start?: number;
  /** Real clock, for the rate limit (tests may pass a fake one). */
  realNow?: () => number;
  /**
   * Whether the account has the paid routing feature (map GeoJSON, future positions, vessel
   * positions); default true. Without it those paths answer 403 as the service does.
   */
  routing?: boolean;
  /** Called with one line per request when given. */
  log?: (line: string) => void;
  /** Whether the account has container refresh, a paid feature (default true; false: 403). */
  containerRefresh?: boolean;
}

export interface Sandbox {
  /** Base URL including /v2, e.g. http://127.0.0.1:5123/v2 */
  url: string;
  port: number;
  apiKeys: string[];
  store: SandboxStore;
  clock: SimClock;
  stats: SandboxStats;
  /** Moves simulated time forward. */
  advance(seconds: number): void;
  /** The next `count` admitted requests fail this way. */
  injectFault(kind: FaultKind, count?: number): void;
  setFaults(rates: FaultRates | string): void;
  /** Gives or takes a paid feature, as the service's sales team would. */
  setEntitlement(feature: 'routing', enabled: boolean): void;
  /** Every request for this path (after /v2; "GET /path" for one method) fails this way; `null` ends it. */
  failPath(path: string, kind: FaultKind | null): void;
  close(): Promise<void>;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const seed = options.seed ?? 'quayside';
  const shipments = options.shipments ?? 250;
  if (!Number.isInteger(shipments) || shipments < 0) throw new Error('shipments must be a whole number ≥ 0');
  const clock = new SimClock({ start: options.start, tick: options.tick ?? 1, realNow: options.realNow });
  const world = generateWorld({ seed, shipments, now: clock.now() });
  const store = new SandboxStore(world);
  store.entitlements.routing = options.routing ?? true;
  store.containerRefresh = options.containerRefresh ?? true;
  const apiKeys = options.apiKeys && options.apiKeys.length > 0 ? options.apiKeys : [DEMO_API_KEY];
  const limiter = new BucketedRateLimits({ ...options.rateBuckets, overall: options.rateLimit });
  const toRates = (f: FaultRates | string | undefined) => (typeof f === 'string' ? parseFaults(f) : (f ?? {}));
  const faults = new FaultInjector(toRates(options.faults), seed);
  for (const [path, kind] of Object.entries(options.failingPaths ?? {})) faults.failPath(path, kind);
  const latency = new LatencyPlan(options.latency ?? options.latencyMs ?? 'none', seed);
  const { server, stats, sockets } = createSandboxServer({
    store,
    clock,
    apiKeys: new Set(apiKeys),
    limiter,
    faults,
    latency: () => latency.next(),
    shape: options.shape ?? 'live',
    realNow: options.realNow ?? Date.now,
    log: options.log,
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/v2`,
    port,
    apiKeys,
    store,
    clock,
    stats,
    advance: (seconds) => clock.advance(seconds),
    injectFault: (kind, count) => faults.enqueue(kind, count),
    setFaults: (rates) => faults.setRates(toRates(rates)),
    setEntitlement: (feature, enabled) => {
      store.entitlements[feature] = enabled;
    },
    failPath: (path, kind) => faults.failPath(path, kind),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

export { parseFaults, type FaultKind, type FaultRates } from './faults';
export { parseRateLimit } from './rate-limit';
export { parseLatency, realisticLatency, type Latency, type LatencyProfile } from './latency';
export type { SandboxShape } from './serialize';
