/**
 * The carrier's own words beside the milestones of a container page, from the box's raw events
 * (read by the sync, the most urgent boxes first). Screenshots in both themes.
 */
import { expect, test, waitForFirstSync } from '../fixtures';

test("a container's milestones show the carrier's own wording", async ({ page, host }, testInfo) => {
  await waitForFirstSync(host);
  const { rows } = await host.core.handlers['containers:list']({ filters: {}, page: { limit: 500 } });
  let found: { id: string; number: string; label: string; wording: string } | null = null;
  for (const row of rows) {
    const detail = await host.core.handlers['containers:get']({ id: row.id });
    const milestone = detail.milestones.find(
      (m) => m.carrierWording !== undefined && m.carrierWording.toLowerCase() !== m.label.toLowerCase(),
    );
    if (milestone) {
      found = { id: row.id, number: row.number!, label: milestone.label, wording: milestone.carrierWording! };
      break;
    }
  }
  expect(found, 'the first sync read the raw events of some boxes').not.toBeNull();
  const { id, number, label, wording } = found!;

  await page.goto(`${host.url}#/containers/${id}`);
  await expect(page.getByRole('heading', { level: 1, name: number })).toBeVisible();
  const timeline = page.getByRole('list', { name: `Milestones of ${number}` });
  const step = timeline.getByRole('listitem').filter({ hasText: label }).first();
  await expect(step).toContainText(`Carrier: “${wording}”`);
  await step.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('carrier-wording-light.png') });
  await host.core.handlers['settings:update']({ theme: 'dark' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.screenshot({ path: testInfo.outputPath('carrier-wording-dark.png') });
});
