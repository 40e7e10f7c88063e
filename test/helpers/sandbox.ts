import { afterAll, beforeAll } from 'vitest';
import { forgetRateLimiter, rateLimiterFor } from '../../src/core/api/rate-limiter';
import { DEMO_API_KEY, startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/index';

export interface ApiResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body, or undefined when there is none. */
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read documents freely
}

/**
 * A limit no test can spend, for the overall bucket and every special one. A test about a limit
 * sets the one it is about (`liveRateLimits` for the service's own); any other test would only
 * wait out windows it is not testing, and a few more requests in one test would move such a wait
 * into the next.
 */
export const unspendableLimit = { limit: 1_000_000, windowSeconds: 60 };

/**
 * What a test sandbox starts with unless its test says otherwise: no routing (route maps are
 * requests of their own, which tests that count requests do not expect), the unspendable limit in
 * every bucket the test does not set, and a clock that stands still, so what a test counts at the
 * service cannot change between a sync and its check (a test about time moves it with `advance`).
 */
function testSandboxOptions(options: SandboxOptions): SandboxOptions {
  return {
    seed: 'tests',
    shipments: 60,
    routing: false,
    tick: 0,
    ...options,
    rateLimit: options.rateLimit ?? unspendableLimit,
    rateBuckets: {
      create_tracking_request: unspendableLimit,
      infer_number: unspendableLimit,
      refresh_container: unspendableLimit,
      ...options.rateBuckets,
    },
  };
}

/**
 * Gives the client's limiter of `apiKey` in this process (the core and the CLI keep one per key,
 * made with the live limits on first use) the unspendable limit too.
 */
function unthrottleKey(apiKey: string): void {
  const spec = { limit: unspendableLimit.limit, windowMs: unspendableLimit.windowSeconds * 1000 };
  forgetRateLimiter(apiKey);
  rateLimiterFor(apiKey, {
    ...spec,
    buckets: { create_tracking_request: spec, infer_number: spec, refresh_container: spec },
  });
}

/**
 * A sandbox with the test defaults above, for the test to close. Unless the test sets a limit,
 * the client's limiters for the sandbox's keys in this process get the unspendable one as well.
 */
export async function startTestSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const sandbox = await startSandbox(testSandboxOptions(options));
  if (options.rateLimit === undefined && options.rateBuckets === undefined) {
    for (const key of sandbox.apiKeys) unthrottleKey(key);
  }
  return sandbox;
}

/** A sandbox for the whole file (with the test defaults above), started once and closed at the end. */
export function useSandbox(options: SandboxOptions = {}): { get: () => Sandbox } {
  let sandbox: Sandbox | undefined;
  beforeAll(async () => {
    sandbox = await startTestSandbox(options);
  });
  afterAll(async () => {
    await sandbox?.close();
  });
  return {
    get: () => {
      if (!sandbox) throw new Error('sandbox not started');
      return sandbox;
    },
  };
}

/** One request to the sandbox with the demo key (or the given headers). */
export async function call(
  sandbox: Sandbox,
  path: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string>; key?: string | null } = {},
): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.key !== null) headers.authorization = `Token ${init.key ?? DEMO_API_KEY}`;
  let body: string | undefined;
  if (init.body !== undefined) {
    body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
    headers['content-type'] ??= 'application/vnd.api+json';
  }
  const response = await fetch(`${sandbox.url}${path}`, { method: init.method ?? 'GET', headers, body });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: text ? JSON.parse(text) : undefined };
}
