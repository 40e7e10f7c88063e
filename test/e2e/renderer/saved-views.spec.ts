// A list's filters, sort and columns saved under a name, pinned in the sidebar
// (reached by keyboard, named for screen readers), opened later as saved, renamed, updated and
// deleted; a view the list has outgrown opens with what still applies and says what it left out;
// Print lays out every matching row, titled with the view's name, for a trucker's pickup list.
import AxeBuilder from '@axe-core/playwright';
import { chooseExport, expect, expectRowsLoaded, test, waitForFirstSync } from '../fixtures';

const NAME = 'Pickups for Harbor Trucking';

test('a saved view is pinned, opens as saved after a reload, prints, and is renamed, updated and deleted', async ({
  page,
  host,
}, testInfo) => {
  test.setTimeout(120_000);
  await waitForFirstSync(host);
  await page.addInitScript(() => {
    (window as unknown as { printed: number }).printed = 0;
    window.print = () => void ((window as unknown as { printed: number }).printed += 1);
  });
  const available = await host.core.handlers['containers:count']({ filters: { statuses: ['available'] } });
  const all = await host.core.handlers['containers:count']({ filters: {} });
  expect(available, 'the demo world has containers available for pickup').toBeGreaterThan(0);

  await page.goto(`${host.url}#/containers?filters=${encodeURIComponent('{"statuses":["available"]}')}`);
  const grid = page.getByRole('grid', { name: 'Containers' });
  await expectRowsLoaded(grid);
  const count = page.getByRole('status', { name: 'Row count' });
  await expect(count).toHaveText(`${available.toLocaleString('en-US')} of ${all.toLocaleString('en-US')} containers`);

  // Save: a named dialog, its name checked (empty is refused with a sentence).
  await page.getByRole('button', { name: 'Save view…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Save view' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Save view' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Give the view a name.');
  await dialog.getByRole('textbox', { name: 'Name' }).fill(NAME);
  await page.screenshot({ path: testInfo.outputPath('save-dialog.png') });
  const violations = (await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze()).violations.filter(
    (v) => v.impact === 'serious' || v.impact === 'critical',
  );
  expect(violations.map((v) => v.id)).toEqual([]);
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  const pinned = page.getByRole('navigation', { name: 'Main' }).getByRole('link', {
    name: `${NAME}, saved view of Containers`,
  });
  await expect(pinned).toBeVisible();
  await expect(page.getByText(`View: ${NAME}`)).toBeVisible();

  // Elsewhere, then back by keyboard from the sidebar after a restart (reload): the view as saved.
  await page.getByRole('link', { name: 'Shipments', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Shipments');
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Shipments');
  await pinned.focus();
  await page.keyboard.press('Enter');
  await expectRowsLoaded(grid);
  await expect(count).toHaveText(`${available.toLocaleString('en-US')} of ${all.toLocaleString('en-US')} containers`);
  await expect(pinned).toHaveAttribute('aria-current', 'page');
  await page.screenshot({ path: testInfo.outputPath('sidebar-pinned-view.png') });

  // Print: every matching row, not the visible window; titled with the view, filters in words.
  await chooseExport(page, 'Print…');
  await expect.poll(() => page.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1);
  await page.emulateMedia({ media: 'print' });
  const sheet = page.locator('.print-sheet');
  await expect(sheet.getByRole('heading', { level: 1 })).toHaveText(NAME);
  await expect(sheet).toContainText('Filters: Status: Available for pickup');
  await expect(sheet).toContainText(/Printed .+ · Times in .+ \(this computer’s time zone\)/);
  await expect(sheet.locator('tbody tr')).toHaveCount(Math.min(available, 5000));
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
  await expect(page.getByRole('button', { name: 'Export', exact: true })).toBeHidden();
  await page.screenshot({ path: testInfo.outputPath('print-layout.png'), fullPage: true });
  await page.pdf({ path: testInfo.outputPath('print.pdf'), landscape: true, format: 'A4', preferCSSPageSize: true });
  await page.emulateMedia({ media: 'screen' });

  // Update: a new sort, then "Save changes to this view" keeps it across a reload.
  const saveChanges = page.getByRole('button', { name: 'Save changes to this view' });
  await expect(saveChanges).toBeDisabled();
  await grid.getByRole('columnheader', { name: 'Container' }).getByRole('button').click();
  await expect(grid.getByRole('columnheader', { name: 'Container' })).toHaveAttribute('aria-sort', 'ascending');
  await saveChanges.click();
  await expect(saveChanges).toBeDisabled();
  await page.getByRole('link', { name: 'Containers', exact: true }).click();
  await expect(page.getByText(`View: ${NAME}`)).toBeHidden();
  await pinned.click();
  await expect(grid.getByRole('columnheader', { name: 'Container' })).toHaveAttribute('aria-sort', 'ascending');

  // Rename, then delete: it leaves the sidebar.
  await page.getByRole('button', { name: 'Rename…' }).click();
  const rename = page.getByRole('dialog', { name: 'Rename view' });
  await rename.getByRole('textbox', { name: 'Name' }).fill('Harbor pickups');
  await rename.getByRole('button', { name: 'Rename' }).click();
  const renamed = page.getByRole('link', { name: 'Harbor pickups, saved view of Containers' });
  await expect(renamed).toBeVisible();
  await page.getByRole('button', { name: 'Delete…' }).click();
  const remove = page.getByRole('dialog', { name: 'Delete view' });
  await remove.getByRole('button', { name: 'Delete view' }).click();
  await expect(renamed).toBeHidden();
  await expect(page.getByRole('button', { name: 'Save view…' })).toBeVisible();
});

test('a view the list has outgrown opens with what still applies and says what was left out', async ({
  page,
  host,
}, testInfo) => {
  await waitForFirstSync(host);
  await page.goto(`${host.url}#/dashboard`);
  await page.evaluate(() => {
    const view = {
      id: 'old',
      list: 'containers',
      name: 'Old rail view',
      filters: { statuses: ['available', 'gone_status'], noSuchFilter: ['x'] },
      sort: { field: 'number', direction: 'desc' },
      columns: ['number', 'retiredColumn', 'status'],
      widths: {},
      labels: { 'column:retiredColumn': 'Rail ramp', 'filter:noSuchFilter': 'Rail ramp' },
      savedAt: '2026-01-01T00:00:00.000Z',
    };
    localStorage.setItem('quayside:views:demo', JSON.stringify({ version: 1, views: [view] }));
  });
  await page.reload();
  await page.getByRole('link', { name: 'Old rail view, saved view of Containers' }).click();
  const note = page.getByRole('status').filter({ hasText: 'no longer applies' });
  await expect(note).toHaveText(
    /Part of “Old rail view” no longer applies to this list and was left out: the column “Rail ramp”, Status: “gone_status” and the filter “Rail ramp”\./,
  );
  const grid = page.getByRole('grid', { name: 'Containers' });
  await expectRowsLoaded(grid);
  await expect(grid.getByRole('columnheader')).toHaveCount(2);
  await page.screenshot({ path: testInfo.outputPath('outgrown-view.png') });
});

test('the whole list prints, not just the rows on screen, its header on every page', async ({
  page,
  host,
}, testInfo) => {
  await waitForFirstSync(host);
  await page.addInitScript(() => {
    window.print = () => document.body.setAttribute('data-printed', 'yes');
  });
  const all = await host.core.handlers['containers:count']({ filters: {} });
  expect(all, 'more rows than the table keeps on screen').toBeGreaterThan(100);
  await page.goto(`${host.url}#/containers?from=menu`);
  await expectRowsLoaded(page.getByRole('grid', { name: 'Containers' }));
  await chooseExport(page, 'Print…');
  await expect(page.locator('body')).toHaveAttribute('data-printed', 'yes');
  await page.emulateMedia({ media: 'print' });
  const sheet = page.getByRole('region', { name: 'Print layout' });
  await expect(sheet.getByRole('heading', { level: 1 })).toHaveText('Containers');
  await expect(sheet).toContainText('No filters: every row.');
  await expect(sheet.locator('tbody tr')).toHaveCount(all);
  await expect(sheet.locator('thead')).toHaveCSS('display', 'table-header-group');
  await page.pdf({
    path: testInfo.outputPath('print-all.pdf'),
    landscape: true,
    format: 'Letter',
    preferCSSPageSize: true,
  });
});
