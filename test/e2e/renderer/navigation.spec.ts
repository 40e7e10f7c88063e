import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, ipcAnswer, test } from '../fixtures';

const sections = [
  { link: 'Dashboard', heading: 'Dashboard' },
  { link: 'Changes', heading: 'Changes' },
  { link: 'Alerts', heading: 'Alerts' },
  { link: 'Shipments', heading: 'Shipments' },
  { link: 'Containers', heading: 'Containers' },
  { link: 'Tracking requests', heading: 'Tracking requests' },
  { link: 'Settings', heading: 'Settings' },
];

test('a forwarder clicks through every section and sees where the app keeps its data', async ({
  page,
  host,
}, testInfo) => {
  await page.goto(host.url);
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();

  for (const section of sections) {
    await nav.getByRole('link', { name: section.link, exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: section.heading })).toBeVisible();
    await expect(nav.getByRole('link', { name: section.link, exact: true })).toHaveAttribute('aria-current', 'page');
    await expect(page).toHaveTitle(`${section.heading} · Quayside`);
    await page.screenshot({ path: testInfo.outputPath(`${section.link.toLowerCase().replace(/ /g, '-')}.png`) });
  }

  // app:info, as main reports it, shown in the status bar and in Settings.
  const info = await host.core.handlers['app:info'](undefined);
  const status = page.getByRole('contentinfo', { name: 'Application status' });
  await expect(status).toContainText(`Quayside ${info.version}`);
  await expect(status).toContainText(`Data: ${info.dataDir}`);
  await expect(status).toContainText('Demo data (no API key set)');
  await expect(nav.getByText('Demo', { exact: true })).toBeVisible();
  await expect(page.getByRole('main')).toContainText(info.dataDir);

  // Back returns to the previous section.
  await page.goBack();
  await expect(page.getByRole('heading', { level: 1, name: 'Tracking requests' })).toBeVisible();
});

test('the chosen theme applies at once and is still there after a restart', async ({ page, host }) => {
  await page.goto(`${host.url}#/settings`);
  const saved = ipcAnswer(page, 'settings:update');
  await page.getByRole('radio', { name: 'Dark' }).check();
  await saved;
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  expect(await host.core.handlers['settings:get'](undefined)).toMatchObject({ theme: 'dark' });

  await page.reload();
  await expect(page.getByRole('radio', { name: 'Dark' })).toBeChecked();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
});

test('the page cannot reach the network: its CSP blocks requests to any other origin', async ({ page, host }) => {
  const other = createServer((_request, response) => response.end('reached'));
  await new Promise<void>((done) => other.listen(0, '127.0.0.1', done));
  let reached = false;
  other.on('request', () => {
    reached = true;
  });
  try {
    await page.goto(host.url);
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    const { port } = other.address() as AddressInfo;
    const outcome = await page.evaluate(async (target) => {
      try {
        await fetch(target);
        return 'fetched';
      } catch {
        return 'blocked';
      }
    }, `http://127.0.0.1:${port}/`);
    expect(outcome).toBe('blocked');
    expect(reached).toBe(false);
  } finally {
    other.close();
  }
});

test('a call with a bad argument is refused with a clear error and the app keeps working', async ({ page, host }) => {
  await page.goto(host.url);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  const refused = await page.evaluate(() => window.api.invoke('settings:update', { theme: 'purple' }));
  expect(refused).toMatchObject({ ok: false, error: { code: 'invalid_argument' } });
  const unknown = await page.evaluate(() => window.api.invoke('fs:readFile', '/etc/passwd'));
  expect(unknown).toMatchObject({ ok: false, error: { code: 'unknown_channel' } });

  await page.getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByRole('radio', { name: 'Match the system' })).toBeChecked();
  expect(await host.core.handlers['settings:get'](undefined)).toMatchObject({ theme: 'system' });
});
