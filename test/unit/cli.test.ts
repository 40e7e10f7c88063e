import { describe, expect, it } from 'vitest';
import { capture } from '../helpers/capture';
import { exitCodes, runCli } from '../../src/cli/index';
import { tempDir } from '../helpers/temp-dir';

describe('cli', () => {
  it('prints usage for --help and exits 0', async () => {
    const out = capture();
    expect(await runCli(['--help'], { out: out.stream })).toBe(exitCodes.ok);
    expect(out.text()).toContain('Usage: npm run cli -- <command>');
  });

  it('exits with the usage code for an unknown command or option', async () => {
    const err = capture();
    expect(await runCli(['frobnicate'], { out: capture().stream, err: err.stream })).toBe(exitCodes.usage);
    expect(err.text()).toContain('Unknown command "frobnicate"');
    expect(await runCli(['info', '--bogus'], { out: capture().stream, err: capture().stream })).toBe(exitCodes.usage);
  });

  it('reports the data folder from QUAYSIDE_DATA_DIR as JSON', async () => {
    const dir = tempDir();
    const previous = process.env.QUAYSIDE_DATA_DIR;
    process.env.QUAYSIDE_DATA_DIR = dir;
    try {
      const out = capture();
      expect(await runCli(['info', '--json'], { out: out.stream })).toBe(exitCodes.ok);
      expect(JSON.parse(out.text())).toMatchObject({ name: 'Quayside', dataDir: dir, demo: true });
    } finally {
      if (previous === undefined) delete process.env.QUAYSIDE_DATA_DIR;
      else process.env.QUAYSIDE_DATA_DIR = previous;
    }
  });
});
