import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { DEMO_API_KEY, startSandbox } from '../../../src/sandbox/index';
import { expect, ipcAnswer, test, waitForFirstSync } from '../fixtures';
import { startTestHost } from '../host/server';

test('an API key is checked, refused with the reason next to the field, then kept and shown by its last four characters only', async ({
  page,
  host,
}, testInfo) => {
  const service = await startSandbox({ seed: 'settings-e2e', shipments: 20 });
  try {
    await page.goto(`${host.url}#/settings`);
    await page.getByRole('button', { name: 'Add an API key' }).click();
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Head office');
    const key = page.getByLabel('API key', { exact: true });
    await key.fill('not-the-right-key-1234');
    await page.getByRole('textbox', { name: /Service address/ }).fill(service.url);
    // The key is checked with the service: the refusal shows once that call is answered.
    const refused = ipcAnswer(page, 'profiles:add');
    await page.getByRole('button', { name: 'Add account' }).click();
    await refused;
    await expect(key).toHaveAttribute('aria-invalid', 'true');
    await expect(key).toHaveAccessibleDescription(/refused|not accepted|invalid/i);
    await expect(key).toHaveValue('');
    await page.screenshot({ path: testInfo.outputPath('key-refused.png') });

    await key.fill(DEMO_API_KEY);
    // Checked with the service, kept in the keychain, then the account opens.
    const accepted = ipcAnswer(page, 'profiles:add');
    await page.getByRole('button', { name: 'Add account' }).click();
    await accepted;
    const last4 = DEMO_API_KEY.slice(-4);
    await expect(page.getByRole('status').filter({ hasText: 'Head office added' })).toBeVisible();
    await expect(page.getByRole('main')).toContainText(`Key ending …${last4}`);
    await expect(page.getByRole('combobox', { name: 'Account' })).toContainText(`Head office (…${last4})`);
    expect(await page.content()).not.toContain(DEMO_API_KEY);
    await expect(page.getByRole('navigation', { name: 'Main' }).getByText('Demo', { exact: true })).toHaveCount(0);
    await page.screenshot({ path: testInfo.outputPath('key-accepted.png') });
  } finally {
    await service.close();
  }
});

test('times show in this computer’s zone or in the port’s, always naming the zone', async ({ page, host }) => {
  await waitForFirstSync(host);
  const { rows } = await host.core.handlers['shipments:list']({
    filters: { search: '' },
    sort: { field: 'eta', direction: 'asc' },
    page: { limit: 200 },
  });
  const far = rows.find((r) => r.eta && r.podTimezone && !/^(UTC|Etc\/|Europe\/London)/.test(r.podTimezone))!;
  await page.goto(`${host.url}#/shipments/${far.id}`);
  const eta = page.locator(`time[datetime="${far.eta}"]`).first();
  await expect(eta).toContainText('UTC');

  await page.getByRole('link', { name: 'Settings' }).click();
  const saved = ipcAnswer(page, 'settings:update');
  await page.getByRole('radio', { name: /The port’s time zone/ }).check();
  await saved;
  await page.goto(`${host.url}#/shipments/${far.id}`);
  await expect(eta).not.toContainText('UTC');
  const port = new Intl.DateTimeFormat(undefined, { timeZone: far.podTimezone!, timeZoneName: 'short' })
    .formatToParts(new Date(far.eta!))
    .find((p) => p.type === 'timeZoneName')!.value;
  await expect(eta).toContainText(port);
  // The exact value, with the zone's name, on hover.
  await eta.hover();
  await expect(eta).toHaveAttribute('title', new RegExp(far.podTimezone!.replace('/', '\\/')));
});

test('copy diagnostics gathers what support needs and puts it on the clipboard', async ({ page, host, context }) => {
  await waitForFirstSync(host);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto(`${host.url}#/settings`);
  // An error the page does not handle is reported to the local log, and shows in diagnostics.
  const reported = ipcAnswer(page, 'app:reportError');
  await page.evaluate(() => {
    // Thrown from a task of its own, so nothing catches it.
    setTimeout(() => {
      throw new Error('e2e: a page error nobody caught');
    });
  });
  await reported;
  await page.getByRole('button', { name: 'Copy diagnostics' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Copied to the clipboard' })).toBeVisible();
  const text = await page.evaluate(() => navigator.clipboard.readText());
  expect(text).toContain('Quayside 0.0.0-test (demo data)');
  expect(text).toMatch(/Database .*: \d+ bytes; 300 shipments/);
  expect(text).toMatch(/Recent syncs:\n {2}#\d+ /);
  expect(text).toMatch(/renderer error at #\/settings \| Error: e2e: a page error nobody caught/);
  await expect(page.getByRole('textbox', { name: 'Diagnostics' })).toHaveValue(text);
});

test('a profile whose stored base URL Quayside refuses says why, sends no key, and is fixed with a base URL and the key', async ({
  page,
}, testInfo) => {
  // profiles.json from elsewhere: its key would go over plain http to another machine.
  const dataDir = testInfo.outputPath('refused-url');
  mkdirSync(dataDir, { recursive: true });
  const stored = {
    id: 'branch',
    name: 'Branch office',
    baseUrl: 'http://tracking.example.com/v2',
    keyLast4: 'abcd',
    keyStatus: 'accepted',
    keyStorage: 'session',
    createdAt: '2026-01-01T00:00:00Z',
  };
  writeFileSync(join(dataDir, 'profiles.json'), JSON.stringify({ version: 1, profiles: [stored], activeId: 'branch' }));
  const service = await startSandbox({ seed: 'refused-url-e2e', shipments: 5 });
  const host = await startTestHost({ dataDir });
  try {
    // A sync asked for says why it cannot run, in the words of the profile's problem.
    await host.core.handlers['sync:start']({ mode: 'incremental' });
    const status = await host.core.handlers['sync:status'](undefined);
    expect(status.error).toMatch(/will not send this profile's key there/);

    await page.goto(`${host.url}#/settings`);
    const main = page.getByRole('main');
    await expect(main).toContainText('key not sent');
    const fix = page.getByRole('button', { name: 'Fix base URL and key' });
    await expect(fix).toHaveAccessibleDescription(/will not send this profile's key there/);
    await page.screenshot({ path: testInfo.outputPath('base-url-refused.png') });

    await fix.click();
    const url = page.getByRole('textbox', { name: 'Base URL for Branch office' });
    await expect(url).toHaveValue(stored.baseUrl);
    await page.getByLabel('New API key for Branch office').fill(DEMO_API_KEY);
    // Still refused with a key: the reason shows next to the base URL.
    const refused = ipcAnswer(page, 'profiles:update');
    await page.getByRole('button', { name: 'Check and save' }).click();
    await refused;
    await expect(url).toHaveAttribute('aria-invalid', 'true');
    await expect(url).toHaveAccessibleDescription(/https/);

    await url.fill(service.url);
    await page.getByLabel('New API key for Branch office').fill(DEMO_API_KEY);
    const saved = ipcAnswer(page, 'profiles:update');
    await page.getByRole('button', { name: 'Check and save' }).click();
    await saved;
    await expect(main).toContainText('accepted by the service');
    await expect(main).toContainText(service.url);
    await expect(fix).toHaveCount(0);
    await page.screenshot({ path: testInfo.outputPath('base-url-fixed.png') });
  } finally {
    await host.close();
    await service.close();
  }
});

test('an account at an address that answers with a web page is not added: the form says which address and why, and the account shown stays shown', async ({
  page,
  host,
}, testInfo) => {
  // Two key checks with the service and a keychain write: slow when both cores are busy.
  test.setTimeout(180_000);
  const service = await startSandbox({ seed: 'address-e2e', shipments: 5 });
  // An intranet page on this computer: something answers, but not the Tracking API.
  const intranet = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Intranet</title>');
  });
  await new Promise<void>((resolve) => intranet.listen(0, '127.0.0.1', resolve));
  const wrong = `http://127.0.0.1:${(intranet.address() as AddressInfo).port}/v2`;
  try {
    await host.core.handlers['profiles:add']({ name: 'Head office', apiKey: DEMO_API_KEY, baseUrl: service.url });
    await page.goto(`${host.url}#/settings`);
    const account = page.getByRole('combobox', { name: 'Account' });
    await expect(account).toContainText('Head office');
    await page.getByRole('button', { name: 'Add an API key' }).click();
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Branch office');
    await page.getByLabel('API key', { exact: true }).fill(DEMO_API_KEY);
    const address = page.getByRole('textbox', { name: /Service address/ });
    await address.fill(wrong);
    const answered = ipcAnswer(page, 'profiles:add');
    await page.getByRole('button', { name: 'Add account' }).click();
    await answered;
    await expect(address).toHaveAttribute('aria-invalid', 'true');
    await expect(address).toHaveAccessibleDescription(
      `Quayside could not use ${wrong}: something answers there, but it is not the Tracking API (it sent back a web page, or another service’s answer). Nothing was saved; Head office is still shown.`,
    );
    await expect(page.getByRole('status').filter({ hasText: 'added' })).toHaveCount(0);
    await expect(account.locator('option:checked')).toContainText('Head office');
    const accounts = page.getByRole('main').getByRole('listitem').filter({ hasText: 'Key ending' });
    await expect(accounts).toHaveCount(1);
    await expect(accounts.first()).toContainText('shown now');
    expect((await host.core.handlers['profiles:list'](undefined)).profiles.map((p) => p.name)).toEqual(['Head office']);
    await address.scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath('address-failed.png') });

    // The key typed stays, so fixing the address is all it takes.
    await expect(page.getByLabel('API key', { exact: true })).toHaveValue(DEMO_API_KEY);
    await address.fill(service.url);
    await page.getByRole('button', { name: 'Add account' }).click();
    // The key is checked with the service, then kept: with both cores busy that took over 20 s.
    await expect(page.getByRole('button', { name: 'Checking the key…' })).toHaveCount(0, { timeout: 90_000 });
    await expect(page.getByRole('status').filter({ hasText: 'Branch office added' })).toBeVisible();
    await expect(accounts).toHaveCount(2);
  } finally {
    await new Promise((resolve) => intranet.close(resolve));
    await service.close();
  }
});
