/**
 * `core.close()` settles in a plain Node host: a script that syncs a profile and ends with
 * `await core.close()` exits 0, not 13 (Node's code for a top-level await that never settled,
 * which is what an idle worker the core waited for without keeping the event loop alive gave).
 * The service runs in this process, so nothing of it keeps the script's loop alive.
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox';

const key = 'core-close-test-key-7c1d';

describe('core.close() in a plain Node host', () => {
  const sandbox = useSandbox({
    seed: 'core-close',
    shipments: 12,
    apiKeys: [key],
  });

  it('settles after a sync and a read, and the script exits 0', { timeout: 60_000 }, async () => {
    const root = resolve(import.meta.dirname, '../..');
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', resolve(root, 'test/fixtures/core-close.ts'), sandbox.get().url],
      { cwd: root, env: { ...process.env, QUAYSIDE_TEST_KEY: key }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((done) => child.on('close', done));
    expect(code, stderr).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ sync: { state: 'idle', error: null }, shipments: 12 });
  });
});
