import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '../fixtures';
import { startTestHost } from '../host/server';

test('a profiles.json from a newer Quayside is named in Settings in core’s sentence, and the file is left as it was', async ({
  page,
}, testInfo) => {
  const dataDir = testInfo.outputPath('newer-profiles');
  mkdirSync(dataDir, { recursive: true });
  const newer = `${JSON.stringify({ version: 4, profiles: [], activeId: null, teams: ['ops'] }, null, 2)}\n`;
  writeFileSync(join(dataDir, 'profiles.json'), newer);
  const sentence =
    'profiles.json was written by a newer Quayside (version 4); update Quayside to use it. It has not been changed.';
  const host = await startTestHost({ dataDir });
  try {
    await page.goto(`${host.url}#/settings`);
    await expect(page.getByRole('alert').filter({ hasText: 'profiles.json' })).toHaveText(sentence);
    await page.screenshot({ path: testInfo.outputPath('newer-profiles.png') });
    expect(readFileSync(join(dataDir, 'profiles.json'), 'utf8')).toBe(newer);
  } finally {
    await host.close();
  }
});
