/**
 * The Electron Playwright suite, run for real (Playwright's own CLI, just the `electron` project)
 * on a machine where the Electron binary is missing: it skips with its reason where nothing asks
 * for it, and fails with one clear sentence where QUAYSIDE_REQUIRE_ELECTRON=1 (CI). The binary is
 * made missing with ELECTRON_OVERRIDE_DIST_PATH pointing at an empty folder, so this holds on CI
 * too, where the binary is installed.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir';

interface JsonTest {
  status: string;
  annotations: { type: string; description?: string }[];
  results: { status: string; errors: { message?: string }[] }[];
}
interface JsonSuite {
  specs?: { title: string; tests: JsonTest[] }[];
  suites?: JsonSuite[];
}
interface JsonReport {
  stats: { expected: number; skipped: number; unexpected: number };
  suites: JsonSuite[];
}

const specsOf = (suites: JsonSuite[]): JsonTest[] =>
  suites.flatMap((s) => [...(s.specs ?? []).flatMap((spec) => spec.tests), ...specsOf(s.suites ?? [])]);

async function runElectronSuite(require: boolean): Promise<{ code: number | null; report: JsonReport }> {
  const dir = tempDir('quayside-electron-suite-');
  const emptyDist = join(dir, 'no-electron');
  const reportFile = join(dir, 'report.json');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ELECTRON_OVERRIDE_DIST_PATH: emptyDist,
    PLAYWRIGHT_JSON_OUTPUT_NAME: reportFile,
  };
  delete env.QUAYSIDE_REQUIRE_ELECTRON;
  if (require) env.QUAYSIDE_REQUIRE_ELECTRON = '1';
  const cli = join('node_modules', '@playwright', 'test', 'cli.js');
  // Own reporter and output folder: the project's test-results/ stays as other runs left it.
  const args = [cli, 'test', '--config', 'test/e2e/playwright.config.ts', '--project', 'electron'];
  const child = spawn(process.execPath, [...args, '--reporter=json', '--output', join(dir, 'out')], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr.resume();
  const code = await new Promise<number | null>((done) => child.on('close', done));
  return { code, report: JSON.parse(readFileSync(reportFile, 'utf8')) as JsonReport };
}

// Each test starts Playwright's runner: seconds, more on a busy Windows runner.
describe('the Electron suite without the Electron binary', { timeout: 60_000 }, () => {
  it('skips, with the reason, where nothing requires it (a machine offline)', async () => {
    const { code, report } = await runElectronSuite(false);
    expect(code).toBe(0);
    expect(report.stats).toMatchObject({ expected: 0, unexpected: 0, skipped: 2 });
    const tests = specsOf(report.suites);
    expect(tests).toHaveLength(2);
    for (const test of tests) {
      expect(test.annotations).toContainEqual(
        expect.objectContaining({
          type: 'skip',
          description: expect.stringMatching(/^the Electron binary is not installed/) as string,
        }),
      );
    }
  });

  it('fails with one sentence naming the missing binary where QUAYSIDE_REQUIRE_ELECTRON=1 (CI)', async () => {
    const { code, report } = await runElectronSuite(true);
    expect(code).toBe(1);
    expect(report.stats.expected).toBe(0);
    expect(report.stats.unexpected).toBeGreaterThan(0);
    const errors = specsOf(report.suites).flatMap((t) => t.results.flatMap((r) => r.errors.map((e) => e.message)));
    expect(errors[0]).toMatch(
      /^Error: The Electron suite is required here \(QUAYSIDE_REQUIRE_ELECTRON=1\) but the Electron binary is not installed/,
    );
  });
});
