import AxeBuilder from '@axe-core/playwright';
import { expect, ipcAnswer, test, waitForFirstSync } from '../fixtures';

const wcag = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

test('the new tracking request form suggests the carrier as the number is typed', async ({ page, host }, testInfo) => {
  await waitForFirstSync(host);
  await page.goto(`${host.url}#/tracking-requests`);
  await page.getByRole('button', { name: 'New tracking request' }).click();
  const carrier = page.getByRole('combobox', { name: 'Carrier' });
  await expect(carrier).toHaveValue('');
  const asked = ipcAnswer(
    page,
    'trackingRequests:inferCarrier',
    (arg) => (arg as { number: string }).number === 'MEDU48123301',
  );
  // Typed as a forwarder would, key by key: MEDU is MSC's bill of lading prefix.
  await page.getByRole('textbox', { name: 'Number', exact: true }).pressSequentially('MEDU 4812 3301');
  await asked;
  await expect(carrier).toHaveValue('MSCU');
  await expect(page.getByRole('status').filter({ hasText: 'Carrier filled in from the number' })).toHaveText(
    /Carrier filled in from the number:\s+Mediterranean Shipping Company \(MSCU\)\./,
  );
  await page.screenshot({ path: testInfo.outputPath('01-carrier-suggested.png') });
  const scan = await new AxeBuilder({ page }).include('form').withTags(wcag).analyze();
  expect(scan.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
});

test('Refresh now asks the service to refresh the container, fetches its events and says so', async ({
  page,
  host,
}, testInfo) => {
  await waitForFirstSync(host);
  const { rows } = await host.core.handlers['containers:list']({ filters: {}, page: { limit: 1 } });
  const container = rows[0]!;
  await page.goto(`${host.url}#/containers/${container.id}`);
  await expect(page.getByRole('heading', { level: 1, name: container.number! })).toBeVisible();
  const button = page.getByRole('button', { name: 'Refresh now' });
  // The page's one refresh: no other button refreshes anything.
  await expect(page.getByRole('button', { name: /refresh/i })).toHaveCount(1);
  const answered = ipcAnswer(page, 'containers:refresh');
  const fetched = ipcAnswer(page, 'containers:events', (arg) => (arg as { refresh?: boolean }).refresh === true);
  await button.click();
  await Promise.all([answered, fetched]);
  await expect(button).toHaveAccessibleDescription(
    /^Started refresh for Shipping line, Terminal(, Rail)?\. What they report arrives with the next sync; the events below are the latest the service has\.$/,
  );
  await page.screenshot({ path: testInfo.outputPath('02-refresh-started.png') });
  const scan = await new AxeBuilder({ page }).withTags(wcag).analyze();
  expect(scan.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
});
