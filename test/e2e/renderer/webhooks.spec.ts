import AxeBuilder from '@axe-core/playwright';
import { expect, ipcAnswer, test, waitForFirstSync } from '../fixtures';

const wcag = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

test('Settings → Webhooks: notifications listed, a webhook created with its secret shown once, then edited', async ({
  page,
  host,
}, testInfo) => {
  await waitForFirstSync(host);
  const notified = ipcAnswer(page, 'webhooks:notifications');
  await page.goto(`${host.url}#/settings`);
  await notified;
  const section = page.getByRole('region', { name: 'Webhooks of this account' });
  const table = section.getByRole('table', { name: 'Notifications sent' });
  await expect(table.getByRole('row')).not.toHaveCount(0);
  // Each row: when, event, delivery status, what about (the demo's webhook has failed deliveries).
  await expect(table.getByRole('cell', { name: 'Failed' }).first()).toBeVisible();
  await expect(table.getByRole('cell', { name: 'tracking_request.succeeded' }).first()).toBeVisible();

  await section.getByRole('button', { name: 'New webhook' }).click();
  const form = section.getByRole('form', { name: 'New webhook' });
  await form.getByRole('textbox', { name: 'Address' }).fill('https://tms.example.test/quayside');
  await form.getByRole('checkbox', { name: 'container.transport.full_out' }).check();
  await form.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('01-new-webhook-form.png') });
  const created = ipcAnswer(page, 'webhooks:create');
  await form.getByRole('button', { name: 'Create webhook' }).click();
  await created;
  const secret = section.getByRole('textbox', { name: 'Signing secret' });
  await expect(secret).toHaveValue(/^whsec_[0-9a-f]{36}$/);
  await expect(section.getByRole('button', { name: 'Delete webhook https://tms.example.test/quayside' })).toBeVisible();
  await section.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('02-secret-shown-once.png') });
  const scan = await new AxeBuilder({ page }).include('main').withTags(wcag).analyze();
  expect(scan.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);

  // Once dismissed, the secret is gone for good.
  await section.getByRole('button', { name: 'Done' }).click();
  await expect(secret).toHaveCount(0);

  await section.getByRole('button', { name: 'Edit webhook https://tms.example.test/quayside' }).click();
  const edit = section.getByRole('form', { name: 'Edit webhook https://tms.example.test/quayside' });
  await edit.getByRole('checkbox', { name: /Active/ }).uncheck();
  const updated = ipcAnswer(page, 'webhooks:update');
  await edit.getByRole('button', { name: 'Save webhook' }).click();
  await updated;
  await expect(edit).toHaveCount(0);
  await expect(section.getByRole('listitem').filter({ hasText: 'https://tms.example.test/quayside' })).toContainText(
    'Paused · 6 event types',
  );
});
