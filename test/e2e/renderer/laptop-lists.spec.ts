// The lists on a forwarder's laptop (run at 1280×800 and 1366×768): the containers list opens on
// what needs action with its last-free-day badge whole, a dashboard tile's filters say they are
// filters and stay with the tile, and the keyboard reaches the rows, the headings and Back.
import { expect, expectRowsLoaded, test, waitForFirstSync } from '../fixtures';

test('containers open on what needs action: overdue first, the badge whole, boxes done last', async ({
  page,
  host,
}, testInfo) => {
  await waitForFirstSync(host);
  const summary = await host.core.handlers['dashboard:summary'](undefined);
  expect(summary.overdue, 'the demo world has overdue containers').toBeGreaterThan(0);
  await page.goto(`${host.url}#/containers`);
  const grid = page.getByRole('grid', { name: 'Containers' });
  await expectRowsLoaded(grid);
  await expect(grid.getByRole('columnheader', { name: 'Last free day' })).toHaveAttribute('aria-sort', 'ascending');
  const first = grid.locator('[role="row"][data-index="0"]');
  await expect(first.locator('.left')).toHaveText(/^Overdue( today| \d+ days?)$/);
  // Every countdown on screen is shown whole: nothing cut to "Overdue 4…".
  const cut = await grid
    .locator('.row .left')
    .evaluateAll((badges) => badges.filter((b) => b.scrollWidth > b.clientWidth + 1).map((b) => b.textContent));
  expect(cut).toEqual([]);
  // The date beside it is short; the whole one is on hover.
  await expect(first.locator('.lfd-date')).toHaveAttribute('title', /^Last free day: \w{3}, \w{3} \d{1,2}, \d{4}$/);
  await page.screenshot({ path: testInfo.outputPath('containers-default.png') });

  // Turned round, the latest last free days lead, still before any box already picked up.
  await grid.getByRole('columnheader', { name: 'Last free day' }).getByRole('button').click();
  await expect(grid.getByRole('columnheader', { name: 'Last free day' })).toHaveAttribute('aria-sort', 'descending');
  await expect(first.getByRole('gridcell').nth(1)).not.toHaveText(/Picked up|Empty returned/);
  await page.screenshot({ path: testInfo.outputPath('containers-lfd-descending.png') });

  // On the container's own page the countdown (the pickup answer's) is one piece too: it may move
  // under the verdict, never break across two lines ("Last day / today").
  await grid.getByRole('columnheader', { name: 'Last free day' }).getByRole('button').click();
  await expect(grid.getByRole('columnheader', { name: 'Last free day' })).toHaveAttribute('aria-sort', 'ascending');
  await first.click();
  await expect(page).toHaveURL(/#\/containers\/[^/?]+/);
  const badge = page.getByTestId('pickup-card').locator('.urgency');
  await expect(badge).toHaveText(/^Overdue/);
  expect(await badge.evaluate((b) => b.getClientRects().length)).toBe(1);
});

test('a tile’s filters say so, clear in one click, and stay with the tile', async ({ page, host }, testInfo) => {
  await waitForFirstSync(host);
  const summary = await host.core.handlers['dashboard:summary'](undefined);
  const all = await host.core.handlers['containers:count']({ filters: {} });
  await page.goto(host.url);
  await page.getByRole('link', { name: /Overdue: past last free day/ }).click();
  const count = page.getByRole('status', { name: 'Row count' });
  await expect(count).toHaveText(`${summary.overdue} of ${all} containers`);
  await expectRowsLoaded(page.getByRole('grid', { name: 'Containers' }));
  await page.screenshot({ path: testInfo.outputPath('containers-from-tile.png') });

  // Opened from the sidebar, the list is the whole book again.
  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('link', { name: 'Containers' }).click();
  await expect(count).toHaveText(`${all} containers`);
  await expect(page.getByRole('button', { name: 'Clear filters' })).toHaveCount(0);

  // From the tile again, "Clear filters" shows everything.
  await page.goBack();
  await page.goBack();
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await page.getByRole('link', { name: /Overdue: past last free day/ }).click();
  await expect(count).toHaveText(`${summary.overdue} of ${all} containers`);
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(count).toHaveText(`${all} containers`);
});

test('the keyboard: a skip link to the table, headings focused without a box, Alt+← goes back', async ({
  page,
  host,
}) => {
  await waitForFirstSync(host);
  await page.goto(`${host.url}#/containers`);
  const grid = page.getByRole('grid', { name: 'Containers' });
  await expectRowsLoaded(grid);

  // From the top of the page: Tab, Tab, Enter reaches the first row.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to table' })).toBeFocused();
  await page.keyboard.press('Enter');
  const first = grid.locator('[role="row"][data-index="0"]');
  await expect(first).toBeFocused();
  const number = (await first.getByRole('gridcell').first().textContent())!.trim();

  // Enter opens the container; its heading takes focus, for a screen reader, and shows no box.
  await page.keyboard.press('Enter');
  const heading = page.getByRole('heading', { level: 1, name: number });
  await expect(heading).toBeFocused();
  expect(await heading.evaluate((h) => getComputedStyle(h).outlineStyle)).toBe('none');

  // Alt+← goes back to the list, as in a browser.
  await page.keyboard.press('Alt+ArrowLeft');
  const title = page.getByRole('heading', { level: 1, name: 'Containers' });
  await expect(title).toBeFocused();
  expect(await title.evaluate((h) => getComputedStyle(h).outlineStyle)).toBe('none');

  // And ⌘[ (a Mac's Back) from a detail too.
  await expectRowsLoaded(grid);
  await first.click();
  await expect(heading).toBeVisible();
  await page.keyboard.press('Meta+BracketLeft');
  await expect(title).toBeVisible();
});

test('at 1366×768 the shipments list fits, keeps its bill of lading in view and takes resized columns', async ({
  page,
  host,
}, testInfo) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  await waitForFirstSync(host);
  await page.goto(`${host.url}#/shipments`);
  const grid = page.getByRole('grid', { name: 'Shipments' });
  await expectRowsLoaded(grid);
  // The usual columns fit the screen: ETA, ATA, ETA slip, boxes and tags without scrolling.
  const fit = await grid.evaluate((g) => ({ scroll: g.scrollWidth, client: g.clientWidth }));
  expect(fit.scroll).toBeLessThanOrEqual(fit.client);
  for (const name of ['ETA', 'ATA', 'ETA slip', 'Boxes', 'Tags']) {
    await expect(grid.getByRole('columnheader', { name, exact: true })).toBeInViewport();
  }
  // No date is cut ("…06:55 CE").
  const cut = await grid
    .locator('.row time')
    .evaluateAll((times) =>
      times.filter((t) => t.parentElement!.scrollWidth > t.parentElement!.clientWidth + 1).map((t) => t.textContent),
    );
  expect(cut).toEqual([]);
  await page.screenshot({ path: testInfo.outputPath('shipments-1366.png') });

  // Drag the Tags header onto Carrier's: Tags moves there, and stays after a restart
  // (both in view: the list fits).
  const names = () => grid.getByRole('columnheader').evaluateAll((hs) => hs.map((h) => h.getAttribute('data-key')));
  await grid.getByRole('columnheader', { name: 'Tags' }).dragTo(grid.getByRole('columnheader', { name: 'Carrier' }));
  await expect.poll(names).toEqual(['bl', 'tags', 'carrier', 'customer', 'pod', 'eta', 'ata', 'slip', 'containers']);
  await page.reload();
  await expectRowsLoaded(grid);
  await expect.poll(names).toEqual(['bl', 'tags', 'carrier', 'customer', 'pod', 'eta', 'ata', 'slip', 'containers']);

  // Drag the Customer column's edge 80 px wider: the list remembers it after a restart.
  const customer = grid.getByRole('columnheader', { name: 'Customer' });
  const before = (await customer.boundingBox())!;
  const edge = customer.locator('.resize');
  const box = (await edge.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 40, box.y + box.height / 2);
  await page.mouse.move(box.x + box.width / 2 + 80, box.y + box.height / 2);
  await page.mouse.up();
  await expect.poll(async () => Math.round((await customer.boundingBox())!.width)).toBe(Math.round(before.width) + 80);
  await page.reload();
  await expectRowsLoaded(grid);
  await expect.poll(async () => Math.round((await customer.boundingBox())!.width)).toBe(Math.round(before.width) + 80);
  // Moved and resized, every cell still lies under its own header: same left edge, same width.
  const misaligned = () =>
    grid.evaluate((g) => {
      const headers = [...g.querySelectorAll('[role="columnheader"]')].map((h) => h.getBoundingClientRect());
      const cells = [...g.querySelectorAll('[role="row"][data-index="0"] [role="gridcell"]')].map((c) =>
        c.getBoundingClientRect(),
      );
      if (cells.length !== headers.length) return [`${cells.length} cells under ${headers.length} headers`];
      return cells.flatMap((c, i) =>
        Math.abs(c.left - headers[i]!.left) > 1 || Math.abs(c.width - headers[i]!.width) > 1
          ? [`cell ${i} at ${c.left}+${c.width}, header at ${headers[i]!.left}+${headers[i]!.width}`]
          : [],
      );
    });
  await expect.poll(misaligned).toEqual([]);

  // Scrolled right, the bill of lading stays at the left edge.
  await grid.evaluate((g) => g.scrollTo({ left: g.scrollWidth }));
  await expect.poll(() => grid.evaluate((g) => g.scrollLeft)).toBeGreaterThan(0);
  const bl = grid.locator('[role="row"][data-index="0"] [role="gridcell"]').first();
  const gridBox = (await grid.boundingBox())!;
  await expect.poll(async () => Math.round((await bl.boundingBox())!.x - gridBox.x)).toBeLessThanOrEqual(1);
  await expect(bl).toBeInViewport();
  await page.screenshot({ path: testInfo.outputPath('shipments-scrolled-right.png') });
});

test('the new tracking request form is a dialog over the list: focus goes in, Escape closes, focus returns', async ({
  page,
  host,
}, testInfo) => {
  await waitForFirstSync(host);
  await page.goto(`${host.url}#/tracking-requests`);
  const grid = page.getByRole('grid', { name: 'Tracking requests' });
  await expectRowsLoaded(grid);
  const opener = page.getByRole('button', { name: 'New tracking request' });
  await opener.click();
  const dialog = page.getByRole('dialog', { name: 'New tracking request' });
  await expect(dialog).toBeVisible();
  await expect(dialog.locator(':focus')).toHaveCount(1);
  // The list keeps its rows behind it.
  expect(await grid.locator('[role="row"][data-index]').count()).toBeGreaterThan(8);
  await page.screenshot({ path: testInfo.outputPath('tracking-requests-form-open.png') });
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();
  await page.screenshot({ path: testInfo.outputPath('tracking-requests-1366.png') });
});

test('each list’s title and count keep one line beside its tools; Export is one menu, from the keyboard too', async ({
  page,
  host,
}, testInfo) => {
  await waitForFirstSync(host);
  /** How many lines an element's text takes on screen. */
  const lines = (element: HTMLElement): number => {
    const range = document.createRange();
    range.selectNodeContents(element);
    return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
  };
  for (const [view, title] of [
    ['shipments', 'Shipments'],
    ['containers', 'Containers'],
    ['email-submissions', 'Email submissions'],
    // Last, the fullest header (Import…, New tracking request): the menu's keys are tried there.
    ['tracking-requests', 'Tracking requests'],
  ] as const) {
    await page.goto(`${host.url}#/${view}?from=menu`);
    const heading = page.getByRole('heading', { level: 1, name: title });
    const count = page.getByRole('status', { name: 'Row count' });
    await expect(count).toHaveText(/^\d[\d,]* /);
    expect(await heading.evaluate(lines), `${title}: the title on one line`).toBe(1);
    expect(await count.evaluate(lines), `${title}: the count on one line`).toBe(1);
    // The tools stand on the title's row, not under it; Export, CSV, Excel and Print are one button.
    const exportButton = page.getByRole('button', { name: 'Export', exact: true });
    await expect(exportButton).toHaveAttribute('aria-haspopup', 'menu');
    await expect(page.getByRole('button', { name: /^(Export CSV|Export Excel|Print…)$/ })).toHaveCount(0);
    const h = (await heading.boundingBox())!;
    const b = (await exportButton.boundingBox())!;
    expect(b.y, `${title}: Export on the title's row`).toBeLessThan(h.y + h.height);
    expect(b.x + b.width).toBeLessThanOrEqual(page.viewportSize()!.width);
    await page.screenshot({
      path: testInfo.outputPath(`${view}-header.png`),
      clip: { x: 0, y: 0, ...{ width: page.viewportSize()!.width, height: 150 } },
    });
  }

  // The menu from the keyboard.
  const exportButton = page.getByRole('button', { name: 'Export', exact: true });
  const menu = page.getByRole('menu', { name: 'Export this list' });
  const item = (name: string) => menu.getByRole('menuitem', { name });
  await exportButton.focus();
  await expect(exportButton).toHaveAttribute('aria-expanded', 'false');
  await page.keyboard.press('ArrowUp');
  await expect(item('Print…')).toBeFocused();
  await expect(exportButton).toHaveAttribute('aria-expanded', 'true');
  await expect(exportButton).toHaveAttribute('aria-controls', (await menu.getAttribute('id'))!);
  await page.screenshot({ path: testInfo.outputPath('tracking-requests-export-menu.png') });
  await page.keyboard.press('ArrowDown');
  await expect(item('Export CSV')).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(item('Print…')).toBeFocused();
  await page.keyboard.press('Home');
  await expect(item('Export CSV')).toBeFocused();
  await page.keyboard.press('End');
  await expect(item('Print…')).toBeFocused();
  await page.keyboard.press('e');
  await expect(item('Export CSV')).toBeFocused();
  await page.keyboard.press('e');
  await expect(item('Export Excel')).toBeFocused();
  // Escape closes it and gives focus back to the button.
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(exportButton).toBeFocused();
  await expect(exportButton).toHaveAttribute('aria-expanded', 'false');
  // Enter opens it on its first item; Tab closes it and moves on.
  await page.keyboard.press('Enter');
  await expect(item('Export CSV')).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(menu).toBeHidden();
  await expect(exportButton).not.toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(exportButton).toBeFocused();
  // A click outside closes it.
  await exportButton.click();
  await expect(menu).toBeVisible();
  await page.getByRole('heading', { level: 1, name: 'Tracking requests' }).click();
  await expect(menu).toBeHidden();
});

test('in a short window the sidebar scrolls and its Demo badge stays whole', async ({ page, host }) => {
  await page.setViewportSize({ width: 900, height: 560 });
  await page.goto(`${host.url}#/dashboard`);
  const badge = page.getByTitle('No API key is set: the app shows generated demo data.');
  await expect(badge).toHaveText(/demo/i);
  // Its text fits its box: squeezed, the box was a 4 px sliver under the brand.
  await expect
    .poll(() => badge.evaluate((b) => ({ fits: b.scrollHeight <= b.clientHeight + 1, tall: b.clientHeight >= 12 })))
    .toEqual({ fits: true, tall: true });
  // What does not fit is reached by scrolling the sidebar.
  const account = page.getByRole('combobox', { name: 'Account' });
  await account.scrollIntoViewIfNeeded();
  await expect(account).toBeInViewport();
});
