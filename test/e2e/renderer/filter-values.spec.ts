/**
 * A filter chip's values as a forwarder types at 1366×768: the Customer chip's find box asks the
 * store a key at a time; the customer being typed stays listed after every key, never behind
 * "Loading values…"; the list holds what the store answers for the text, said in a sentence; the
 * customer is ticked by keyboard and the list shows its shipments. Screenshots in light and dark;
 * axe on the open chip.
 */
import { expect, ipcAnswer, seriousViolations, test, waitForFirstSync } from '../fixtures';

test.use({ readsAside: 'always' });

test('Customer: typed a key at a time, found at once, ticked by keyboard, the list filtered to it', async ({
  page,
  host,
}, testInfo) => {
  test.setTimeout(120_000);
  await waitForFirstSync(host);
  const shot = (name: string) => page.screenshot({ path: testInfo.outputPath(`${name}.png`) });
  const all = await host.core.handlers['shipments:count']({ filters: {} });
  // The last customer by name: the one furthest down the list before anything is typed.
  const every = await host.core.handlers['filters:values']({ source: 'customers', query: '', limit: 500 });
  expect(every.options.length, 'the demo account has many customers').toBeGreaterThan(10);
  const customer = every.options.at(-1)!;
  const typed = customer.label.toLowerCase();
  const found = await host.core.handlers['filters:values']({ source: 'customers', query: typed, limit: 200 });
  expect(found.options[0], 'the whole name, in any case, finds it first').toEqual(customer);

  await page.goto(`${host.url}#/shipments`);
  const count = page.getByRole('status', { name: 'Row count' });
  await expect(count).toHaveText(`${all.toLocaleString('en-US')} shipments`);
  await page.getByRole('button', { name: '+ Filter' }).click();
  await page.getByRole('menu', { name: 'Add a filter' }).getByRole('menuitem', { name: 'Customer' }).click();
  const editor = page.getByRole('dialog', { name: 'Filter: Customer' });
  const values = editor.getByRole('list', { name: 'Customer values' });
  const box = editor.getByRole('searchbox', { name: 'Find a customer' });
  await expect(box).toBeFocused();
  await expect(values.getByRole('checkbox')).toHaveCount(every.options.length);
  await expect(editor.getByRole('status')).toHaveText(`${every.options.length} match.`);
  await shot('customer-values-light');
  expect(await seriousViolations(page), 'the open Customer chip').toEqual([]);

  // A key at a time: the customer stays listed after each, the list never blank while the store reads.
  const named = values.getByRole('checkbox', { name: customer.label });
  for (const key of typed.slice(0, -1)) {
    await page.keyboard.type(key);
    await expect(named).toBeVisible();
    await expect(editor.getByText('Loading values…')).toBeHidden();
    await expect(editor.getByText('Nothing matches.')).toBeHidden();
  }
  const answered = ipcAnswer(page, 'filters:values', (arg) => (arg as { query?: string }).query === typed);
  await page.keyboard.type(typed.at(-1)!);
  await answered;
  await expect(values.getByRole('listitem')).toHaveCount(found.options.length);
  await expect(values.getByRole('checkbox').first()).toHaveAccessibleName(`${customer.label} ${customer.count}`);
  await expect(editor.getByRole('status')).toHaveText(
    found.options.length === 1 ? 'One matches.' : `${found.options.length} match.`,
  );
  await shot('customer-typed-light');

  // By keyboard: Tab to the first value, Space ticks it; the list is the customer's shipments.
  await page.keyboard.press('Tab');
  await expect(named).toBeFocused();
  await page.keyboard.press('Space');
  await expect(named).toBeChecked();
  await expect(count).toHaveText(
    `${customer.count.toLocaleString('en-US')} of ${all.toLocaleString('en-US')} shipments`,
  );
  expect(await host.core.handlers['shipments:count']({ filters: { customers: [customer.value] } })).toBe(
    customer.count,
  );
  await editor.getByRole('button', { name: 'Done' }).click();
  await expect(editor).toBeHidden();
  const chip = page.getByRole('button', { name: `Customer: ${customer.label}` });
  await expect(chip).toBeVisible();
  await shot('customer-filtered-light');

  // Dark: the chip opened again, a few letters typed that several names hold.
  await host.core.handlers['settings:update']({ theme: 'dark' });
  await expect(page.locator('html[data-theme=dark]')).toBeAttached();
  await chip.click();
  await expect(named).toBeChecked();
  const part = every.options[0]!.label.slice(0, 2).toLowerCase();
  const partAnswer = await host.core.handlers['filters:values']({ source: 'customers', query: part, limit: 200 });
  const partAnswered = ipcAnswer(page, 'filters:values', (arg) => (arg as { query?: string }).query === part);
  await box.fill(part);
  await partAnswered;
  await expect(values.getByRole('listitem')).toHaveCount(partAnswer.options.length);
  await expect(values.getByRole('checkbox').first()).toHaveAccessibleName(
    `${partAnswer.options[0]!.label} ${partAnswer.options[0]!.count}`,
  );
  await shot('customer-typed-dark');
  expect(await seriousViolations(page), 'the open Customer chip, dark').toEqual([]);
});
