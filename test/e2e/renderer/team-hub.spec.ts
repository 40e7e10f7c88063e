/**
 * A team hub account, end to end: a throwaway PostgreSQL, the sandbox, the hub's command run
 * once; then Settings adds a Team hub account by hand, its lists fill from the hub, an action
 * that writes to the service says the account is read-only here, and with PostgreSQL stopped the
 * app says the hub cannot be reached and keeps showing the copy. Skips with the reason printed
 * where the PostgreSQL binaries are missing; fails there when QUAYSIDE_REQUIRE_POSTGRES=1.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { runCli } from '../../../src/cli/index';
import { READ_ONLY_MESSAGE } from '../../../src/core/team/hub-account';
import { DEMO_API_KEY, startSandbox } from '../../../src/sandbox/index';
import { startPostgresOrSkip } from '../../helpers/postgres-cluster';
import { expect, seriousViolations, syncStatus, test, waitForFirstSync } from '../fixtures';
import type { Page } from '@playwright/test';
import type { TestHost } from '../host/server';

const SHIPMENTS = 30;

/** The hub's command, once, in this process: syncs the sandbox and publishes into PostgreSQL. */
async function publishOnce(postgresUrl: string, baseUrl: string): Promise<void> {
  let text = '';
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  const saved = process.env.T49_API_TOKEN;
  process.env.T49_API_TOKEN = DEMO_API_KEY;
  try {
    const db = join(mkdtempSync(join(tmpdir(), 'quayside-hub-')), 'hub.sqlite');
    const code = await runCli(['hub', '--postgres', postgresUrl, '--db', db, '--base-url', baseUrl], {
      out: sink,
      err: sink,
    });
    expect(code, text).toBe(0);
  } finally {
    if (saved === undefined) delete process.env.T49_API_TOKEN;
    else process.env.T49_API_TOKEN = saved;
  }
}

async function dark(page: Page, host: TestHost) {
  await host.core.handlers['settings:update']({ theme: 'dark' });
  await expect(page.locator('html[data-theme=dark]')).toHaveCount(1);
}

async function light(page: Page, host: TestHost) {
  await host.core.handlers['settings:update']({ theme: 'light' });
  await expect(page.locator('html[data-theme=dark]')).toHaveCount(0);
}

test('a Team hub account added in Settings fills its lists from the hub, is read-only here, and outlives a stopped hub', async ({
  page,
  host,
}, testInfo) => {
  test.setTimeout(240_000);
  const postgres = await startPostgresOrSkip('the team hub e2e');
  test.skip(postgres === null, 'PostgreSQL binaries are missing (the reason is printed above)');
  const sandbox = await startSandbox({
    seed: 'team-hub-e2e',
    shipments: SHIPMENTS,
    rateLimit: { limit: 10_000, windowSeconds: 60 },
  });
  let stopped = false;
  try {
    const hubUrl = await postgres!.createDatabase('team');
    await publishOnce(hubUrl, sandbox.url);
    const requestsAfterHub = sandbox.stats.requests;

    // The demo account is shown until the team's account is added.
    await waitForFirstSync(host);
    await page.goto(`${host.url}#/settings`);
    await page.getByRole('button', { name: 'Add a team hub' }).click();
    const form = page.getByRole('form', { name: 'Add a team hub account' });
    await form.getByRole('textbox', { name: 'Name' }).fill('Team');
    await form.getByRole('textbox', { name: 'PostgreSQL address' }).fill(hubUrl);
    await form.getByLabel('Password of the read-only role').fill('reader-secret-e2e');
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: testInfo.outputPath('01-add-team-hub.png') });

    await form.getByRole('button', { name: 'Add team hub' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Team added' })).toContainText(
      'Team added: its lists come from the team hub, read-only on this computer.',
    );
    const account = page.getByRole('listitem').filter({ hasText: 'Team hub' });
    await expect(page.getByRole('combobox', { name: 'Account' })).toContainText('Team (team hub)');
    await expect(account).toContainText('read-only here (no API key on this computer)');
    await expect(account).not.toContainText('reader-secret-e2e');
    await waitForFirstSync(host);
    const status = await host.core.handlers['sync:status'](undefined);
    expect(status.lastRun).toMatchObject({ kind: 'hub', status: 'ok', requests: 0 });
    await page.screenshot({ path: testInfo.outputPath('02-team-hub-added.png') });

    // Its lists are the hub's, and filling them sent nothing to the service.
    await page.goto(`${host.url}#/shipments`);
    const count = page.getByRole('status', { name: 'Row count' });
    await expect(count).toHaveText(`${SHIPMENTS} shipments`);
    expect(sandbox.stats.requests).toBe(requestsAfterHub);
    await page.screenshot({ path: testInfo.outputPath('03-shipments-light.png') });
    await dark(page, host);
    await page.screenshot({ path: testInfo.outputPath('04-shipments-dark.png') });
    await light(page, host);

    // An action that writes to the service says this account is read-only here.
    const { rows } = await host.core.handlers['containers:list']({ filters: {}, page: { limit: 1 } });
    const container = rows[0]!;
    await page.goto(`${host.url}#/containers/${container.id}`);
    await expect(page.getByRole('heading', { level: 1, name: container.number! })).toBeVisible();
    const refresh = page.getByRole('button', { name: 'Refresh now' });
    await refresh.click();
    await expect(refresh).toHaveAccessibleDescription(READ_ONLY_MESSAGE);
    expect(sandbox.stats.requests).toBe(requestsAfterHub);
    await page.screenshot({ path: testInfo.outputPath('05-read-only-light.png') });

    // PostgreSQL stops: the next sync says the hub cannot be reached; the lists stay.
    await postgres!.stop();
    stopped = true;
    await page.goto(`${host.url}#/shipments`);
    await expect(count).toHaveText(`${SHIPMENTS} shipments`);
    const failed = syncStatus(host, (s) => s.state === 'failed');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('button', { name: 'Sync now' }).click();
    const after = await test.step('wait for the pull to fail', () => failed);
    expect(after.error).toBe(
      `The team hub cannot be reached: you are seeing the copy on this computer, as of the last pull; the next sync tries again (${hubUrl}).`,
    );
    await expect(nav.getByText('Sync failed')).toBeVisible();
    await expect(nav).toContainText('The team hub cannot be reached');
    await expect(count).toHaveText(`${SHIPMENTS} shipments`);
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: testInfo.outputPath('06-hub-unreachable-light.png') });
    await dark(page, host);
    await page.screenshot({ path: testInfo.outputPath('07-hub-unreachable-dark.png') });
  } finally {
    await sandbox.close();
    if (!stopped) await postgres?.stop();
  }
});
