import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { syncNow, testCore, value } from '../helpers/core';
import { startTestSandbox } from '../helpers/sandbox';
import { tempDir } from '../helpers/temp-dir';

const KEY = 'qs-known-key-5f2a9c81d4';

describe('logs and diagnostics never carry the API key', () => {
  const logDir = tempDir();
  const lines: string[] = [];
  const { core } = testCore({ logDir, log: (line) => lines.push(line) });
  afterAll(() => core.close());

  it('a demo account synced with a known key, through faults, leaves the key in no log line', async () => {
    const service = await startTestSandbox({ seed: 'logs', shipments: 30, apiKeys: [KEY] });
    try {
      // A refused key first (logged as a failure), then the right one.
      expect((await core.call('profiles:add', { name: 'Ops', apiKey: `${KEY}-wrong`, baseUrl: service.url })).ok).toBe(
        false,
      );
      await value(core, 'profiles:add', { name: 'Ops', apiKey: KEY, baseUrl: service.url });
      expect((await syncNow(core, 'full')).state).toBe('idle');
      // Faults: resets and server errors until the sync gives up and says why.
      service.setFaults('reset=1');
      const failed = await syncNow(core, 'full');
      expect(failed.state).toBe('failed');
    } finally {
      await service.close();
    }
    const files = readdirSync(logDir);
    expect(files).toContain('quayside.log');
    const text = files.map((f) => readFileSync(join(logDir, f), 'utf8')).join('\n');
    expect(text).toMatch(/ERROR .*sync/i);
    expect(text).not.toContain(KEY);
    expect(lines.join('\n')).not.toContain(KEY);

    const diagnostics = await value<{ text: string; logPath: string }>(core, 'app:diagnostics');
    expect(diagnostics.logPath).toBe(join(logDir, 'quayside.log'));
    expect(diagnostics.text).toContain('Quayside 0.0.0-test');
    expect(diagnostics.text).toMatch(/Database .*: \d+ bytes; 30 shipments/);
    expect(diagnostics.text).toMatch(/Recent syncs:\n {2}#\d+ full .* failed/);
    expect(diagnostics.text).toMatch(/Recent errors:\n.*ERROR/);
    expect(diagnostics.text).not.toContain(KEY);
  });
});
