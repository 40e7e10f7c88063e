import { describe, expect, it, vi } from 'vitest';
import type * as SandboxIndex from '../../src/sandbox/index';
import { LatencyPlan, parseLatency, realisticLatency } from '../../src/sandbox/latency';

const started = vi.hoisted(() => [] as unknown[]);
vi.mock('../../src/sandbox/index', async (importOriginal) => ({
  ...(await importOriginal<typeof SandboxIndex>()),
  startSandbox: (options: unknown) => {
    started.push(options);
    return Promise.resolve({ url: 'http://127.0.0.1:1/v2', close: () => Promise.resolve() });
  },
}));

const draws = (plan: LatencyPlan, n: number) => Array.from({ length: n }, () => plan.next());

describe('sandbox latency plans', () => {
  it('realistic: tens to hundreds of ms, about one answer in 50 slow (1-3 s), the same for the same seed', () => {
    const delays = draws(new LatencyPlan('realistic', 'demo'), 5000);
    const slow = delays.filter((ms) => ms >= 1000);
    const ordinary = delays.filter((ms) => ms < 1000);
    expect(ordinary.every((ms) => ms >= realisticLatency.minMs && ms <= realisticLatency.maxMs)).toBe(true);
    expect(slow.every((ms) => ms <= 3000)).toBe(true);
    expect(slow.length / delays.length).toBeGreaterThan(0.01);
    expect(slow.length / delays.length).toBeLessThan(0.03);
    const mean = ordinary.reduce((a, b) => a + b, 0) / ordinary.length;
    expect(mean).toBeGreaterThan(60);
    expect(mean).toBeLessThan(200);
    // Seeded: the n-th answer of a sandbox waits the same every run, and another seed differs.
    expect(draws(new LatencyPlan('realistic', 'demo'), 5000)).toEqual(delays);
    expect(draws(new LatencyPlan('realistic', 'other'), 50)).not.toEqual(delays.slice(0, 50));
  });

  it('none waits nothing, a number that long every time, a profile within its bounds', () => {
    expect(draws(new LatencyPlan('none', 's'), 20)).toEqual(Array(20).fill(0));
    expect(draws(new LatencyPlan(120, 's'), 20)).toEqual(Array(20).fill(120));
    const profile = { minMs: 5, maxMs: 10, slowRate: 1, slowMinMs: 400, slowMaxMs: 500 };
    expect(draws(new LatencyPlan(profile, 's'), 200).every((ms) => ms >= 400 && ms <= 500)).toBe(true);
    expect(() => new LatencyPlan({ ...profile, minMs: 20 }, 's')).toThrow(/minMs ≤ maxMs/);
    expect(() => new LatencyPlan(-1, 's')).toThrow(/≥ 0/);
  });

  it('parses the CLI value', () => {
    expect(parseLatency('none')).toBe('none');
    expect(parseLatency(' Realistic ')).toBe('realistic');
    expect(parseLatency('60')).toBe(60);
    expect(() => parseLatency('fast')).toThrow(/none, realistic or a whole number/);
  });
});

describe('the demo service', () => {
  it('answers at the realistic latency unless told otherwise', async () => {
    const { sandboxDemoService } = await import('../../src/sandbox/demo-service');
    started.length = 0;
    await sandboxDemoService().start();
    await sandboxDemoService({ seed: 'x', shipments: 3, latency: 'none' }).start();
    // Each demo service its own key (one limiter per key per process), the demo key accepted too.
    const ownKey = [expect.stringMatching(/^quayside-demo-key-[0-9a-f-]{36}$/), 'quayside-demo-key'];
    expect(started).toEqual([
      { apiKeys: ownKey, seed: 'demo', shipments: 300, latency: 'realistic' },
      { apiKeys: ownKey, seed: 'x', shipments: 3, latency: 'none' },
    ]);
  });
});

describe('npm run cli -- sandbox options', () => {
  it('takes --latency as none, realistic or milliseconds (none by default) and --shape live or reference', async () => {
    const { parseSandboxArgs } = await import('../../src/cli/commands/sandbox');
    expect(parseSandboxArgs([])).toMatchObject({ latency: 'none' });
    expect(parseSandboxArgs([]).shape).toBeUndefined();
    expect(parseSandboxArgs(['--latency', '60', '--shape', 'reference'])).toMatchObject({
      latency: 60,
      shape: 'reference',
    });
    expect(parseSandboxArgs(['--latency', 'realistic'])).toMatchObject({ latency: 'realistic' });
    expect(() => parseSandboxArgs(['--shape', 'openapi'])).toThrow(/--shape must be live or reference/);
    expect(() => parseSandboxArgs(['--latency', 'slow'])).toThrow(/latency must be none, realistic/);
  });
});
