import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseFaults } from '../../src/sandbox/faults';
import { call, useSandbox } from '../helpers/sandbox';

describe('sandbox fault knobs', () => {
  const sandbox = useSandbox({ seed: 'faults', shipments: 10 });

  it('answers injected 500, 502 and 503 with JSON:API error bodies, then recovers', async () => {
    for (const status of ['500', '502', '503'] as const) {
      sandbox.get().injectFault(status);
      const failed = await call(sandbox.get(), '/shipping_lines');
      expect(failed.status).toBe(Number(status));
      expect(failed.body.errors[0].status).toBe(status);
    }
    expect((await call(sandbox.get(), '/shipping_lines')).status).toBe(200);
  });

  it('resets the connection', async () => {
    sandbox.get().injectFault('reset');
    await expect(call(sandbox.get(), '/shipping_lines')).rejects.toThrow();
    expect((await call(sandbox.get(), '/shipping_lines')).status).toBe(200);
  });

  it('hangs until the client gives up', async () => {
    sandbox.get().injectFault('timeout');
    const started = Date.now();
    const outcome = await fetch(`${sandbox.get().url}/shipping_lines`, {
      headers: { authorization: 'Token quayside-demo-key' },
      signal: AbortSignal.timeout(300),
    }).then(
      () => 'answered',
      (error: Error) => error.name,
    );
    expect(outcome).toBe('TimeoutError');
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('sends a truncated body that does not parse', async () => {
    sandbox.get().injectFault('malformed');
    const response = await fetch(`${sandbox.get().url}/shipments`, {
      headers: { authorization: 'Token quayside-demo-key' },
    });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(() => JSON.parse(text) as unknown).toThrow();
    expect(text.startsWith('{"data":[')).toBe(true);
  });

  it('fails about the share of requests the rates ask for', async () => {
    sandbox.get().setFaults('503=0.3');
    let failures = 0;
    for (let i = 0; i < 200; i++) if ((await call(sandbox.get(), '/shipping_lines')).status === 503) failures++;
    sandbox.get().setFaults({});
    expect(failures).toBeGreaterThan(35);
    expect(failures).toBeLessThan(85);
  });

  it('parses fault specs and refuses nonsense', () => {
    expect(parseFaults('500=0.05, reset=1%,timeout=0')).toEqual({ '500': 0.05, reset: 0.01, timeout: 0 });
    expect(() => parseFaults('404=0.1')).toThrow(/KIND=RATE/);
    expect(() => parseFaults('500=2')).toThrow(/at most 1/);
  });
});

describe('sandbox latency', () => {
  const slow = useSandbox({ seed: 'slow', shipments: 2, latencyMs: 120 });

  it('waits before every answer', async () => {
    const started = performance.now();
    await call(slow.get(), '/shipping_lines');
    expect(performance.now() - started).toBeGreaterThanOrEqual(115);
  });
});

describe('npm run cli -- sandbox', () => {
  it('prints exactly one line with its URL and serves that URL until stopped', async () => {
    const cli = resolve(import.meta.dirname, '../../src/cli/index.ts');
    const tsx = resolve(import.meta.dirname, '../../node_modules/tsx/dist/cli.mjs');
    const child = spawn(
      process.execPath,
      [tsx, cli, 'sandbox', '--shipments', '20', '--api-key', 'k1', '--api-key', 'k2'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    const line = await new Promise<string>((done, fail) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        if (stdout.includes('\n')) done(stdout.split('\n')[0]!);
      });
      child.on('exit', (code) => fail(new Error(`sandbox exited with ${code}`)));
    });
    try {
      expect(line).toMatch(/^sandbox listening on http:\/\/127\.0\.0\.1:\d+\/v2$/);
      const url = line.replace('sandbox listening on ', '');
      for (const key of ['k1', 'k2']) {
        expect((await fetch(`${url}/shipping_lines`, { headers: { authorization: `Token ${key}` } })).status).toBe(200);
      }
      expect(
        (await fetch(`${url}/shipping_lines`, { headers: { authorization: 'Token quayside-demo-key' } })).status,
      ).toBe(401);
    } finally {
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      await exited;
    }
    expect(stdout.trim().split('\n')).toHaveLength(1);
  });
});
