/**
 * A list flung faster than anyone reads (more than a dozen rows a frame, twice running) draws the
 * rows flying past in part, their bill of lading only, and draws them whole once it slows; a
 * wheel, the keys and a single jump always draw whole rows. What a row shows is never another
 * row's text: its other cells are hidden while it is drawn in part.
 */
import type { Locator } from '@playwright/test';
import { expect, expectRowsLoaded, test, waitForFirstSync } from '../fixtures';

/** Scrolls `grid` by `px` a frame for `frames` frames; per frame, whether a row was drawn in part, and whether one showed another cell. */
function scrollFrames(grid: Locator, px: number, frames: number) {
  return grid.evaluate(
    (element, { px, frames }) =>
      new Promise<{ sketched: number; leaked: number; frames: number }>((done) => {
        let sketched = 0;
        let leaked = 0;
        let count = 0;
        const step = () => {
          const rows = [...element.querySelectorAll<HTMLElement>('[role="row"].sketch')];
          if (rows.length > 0) sketched++;
          // A row drawn in part shows its identifying cell only: the others hold the row before's text.
          const shown = rows.some((row) =>
            [...row.querySelectorAll('[role="gridcell"]:not(.sticky)')].some(
              (cell) => getComputedStyle(cell).visibility !== 'hidden' && (cell.textContent ?? '') !== '',
            ),
          );
          if (shown) leaked++;
          if (count++ === frames) return done({ sketched, leaked, frames: count });
          element.scrollTop += px;
          requestAnimationFrame(step);
        };
        requestAnimationFrame(step);
      }),
    { px, frames },
  );
}

test('a fling draws the rows flying past in part and every row whole once it stops; a wheel and a jump draw whole rows', async ({
  page,
  host,
}, testInfo) => {
  await waitForFirstSync(host);
  const all = await host.core.handlers['shipments:count']({ filters: {} });
  // Enough rows to fly past at 20 a frame for several frames.
  expect(all).toBeGreaterThan(150);
  await page.goto(`${host.url}#/shipments`);
  const grid = page.getByRole('grid', { name: 'Shipments' });
  await expectRowsLoaded(grid);
  // Every row read first (to the end and back), so the rows flown past are there to draw.
  await grid.evaluate((element) => (element.scrollTop = element.scrollHeight));
  await expect(grid.locator(`[role="row"][data-index="${all - 1}"]`)).not.toHaveAccessibleName('Loading');
  await expect(grid.locator(`[role="row"][data-index="${all - 1}"]`)).toBeVisible();
  await grid.evaluate((element) => (element.scrollTop = 0));
  await expect(grid.locator('[role="row"][data-index="0"]')).toBeInViewport();
  await expect(grid.locator('[role="row"].sketch')).toHaveCount(0);

  // A wheel's pace (3 rows a frame): every row whole on every frame.
  const wheel = await scrollFrames(grid, 100, 30);
  expect(wheel.sketched).toBe(0);
  await grid.evaluate((element) => (element.scrollTop = 0));

  // A fling (20 rows a frame): rows drawn in part, never showing another row's cells.
  const fling = await scrollFrames(grid, 720, Math.min(12, Math.floor((all - 40) / 20)));
  expect(fling.sketched).toBeGreaterThan(0);
  expect(fling.leaked).toBe(0);
  await page.screenshot({ path: testInfo.outputPath('fling-in-part.png') });
  // Stopped: every row on screen is drawn whole, with its own carrier.
  await expect(grid.locator('[role="row"].sketch')).toHaveCount(0);
  const firstShown = await grid.evaluate((element) => {
    const top = element.getBoundingClientRect().top + 40;
    const rows = [...element.querySelectorAll<HTMLElement>('[role="row"][data-index]')];
    return Number(rows.find((row) => row.getBoundingClientRect().top >= top)!.dataset.index);
  });
  const { rows } = await host.core.handlers['shipments:list']({
    filters: {},
    sort: { field: 'eta', direction: 'asc' },
    page: { limit: firstShown + 1 },
  });
  const shown = rows[firstShown]!;
  const row = grid.locator(`[role="row"][data-index="${firstShown}"]`);
  await expect(row).toHaveAccessibleName(`Shipment ${shown.billOfLading}`);
  await expect(row).toContainText(shown.carrierScac!, { useInnerText: true });
  await expect(row).toContainText(shown.portOfDischarge!, { useInnerText: true });
  await page.screenshot({ path: testInfo.outputPath('fling-stopped.png') });

  // A jump (End on a focused row): the last rows come whole, never in part.
  await grid.evaluate((element) => {
    const seen = { sketch: false };
    (window as unknown as { __sawSketch: typeof seen }).__sawSketch = seen;
    new MutationObserver(() => {
      if (element.querySelector('[role="row"].sketch')) seen.sketch = true;
    }).observe(element, { subtree: true, attributes: true, attributeFilter: ['class'] });
  });
  await grid.locator('[role="row"][data-index]').first().focus();
  await page.keyboard.press('End');
  const last = grid.locator(`[role="row"][data-index="${all - 1}"]`);
  await expect(last).toBeFocused();
  await expect(last).not.toHaveClass(/sketch/);
  expect(
    await page.evaluate(() => (window as unknown as { __sawSketch: { sketch: boolean } }).__sawSketch.sketch),
  ).toBe(false);
});
