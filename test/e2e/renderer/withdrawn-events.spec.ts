/**
 * Withdrawn and corrected events in the views: a container whose carrier withdrew a
 * departure or discharge shows the corrected time on its timeline, and the withdrawn event in the
 * same step, struck through and labelled in words (one list, the timeline, not a second event
 * list); its events export says which one was withdrawn. A screenshot of the detail.
 */
import AxeBuilder from '@axe-core/playwright';
import { readFileSync } from 'node:fs';
import type { TransportEventRow } from '../../../src/shared/types';
import { expect, test, waitForFirstSync } from '../fixtures';

test('a container with a withdrawn event shows the correction as its milestone and marks the withdrawn event', async ({
  page,
  host,
  exportPath,
}, testInfo) => {
  await waitForFirstSync(host);
  // The demo world withdraws a few departures and discharges; find one, a discharge if there is one.
  const found: { id: string; number: string; withdrawn: TransportEventRow; correction: TransportEventRow }[] = [];
  let cursor: string | undefined;
  do {
    const page = await host.core.handlers['containers:list']({
      filters: {},
      page: { limit: 500, ...(cursor ? { after: cursor } : {}) },
    });
    for (const row of page.rows) {
      const { events } = await host.core.handlers['containers:events']({ id: row.id, refresh: false });
      const withdrawn = events.find((e) => e.withdrawnAt !== null);
      const correction = withdrawn && events.find((e) => e.replaces === withdrawn.id);
      if (withdrawn && correction) found.push({ id: row.id, number: row.number!, withdrawn, correction });
    }
    cursor = page.next ?? undefined;
  } while (cursor);
  expect(found.length, 'the demo world has containers with a withdrawn event').toBeGreaterThan(2);
  const { id, number, withdrawn, correction } =
    found.find((f) => f.withdrawn.event.endsWith('vessel_discharged')) ?? found[0]!;
  const label = withdrawn.label;

  await page.goto(`${host.url}#/containers/${id}`);
  await expect(page.getByRole('heading', { level: 1, name: number })).toBeVisible();

  // One list, not two: the timeline holds the events; there is no separate event list.
  const section = page.getByRole('region', { name: 'Milestones and transport events' });
  await expect(section.getByRole('list', { name: `Milestones of ${number}` })).toHaveCount(1);
  await expect(page.getByRole('list', { name: /^Milestones of / })).toHaveCount(1);

  // The milestone is the correction, said to be one; the withdrawn report is listed in the same
  // step, struck through and said in words, with when it was withdrawn and what it was corrected to.
  const timeline = section.getByRole('list', { name: `Milestones of ${number}` });
  const step = timeline
    .locator(':scope > li')
    .filter({ has: page.locator(`.when time[datetime="${correction.timestamp}"]`) });
  await expect(step).toHaveCount(1);
  await expect(step).toContainText(label);
  await expect(step).toContainText('Corrected: the carrier withdrew an earlier report');
  const old = step.getByRole('listitem').filter({ has: page.locator(`time[datetime="${withdrawn.timestamp}"]`) });
  await expect(old).toContainText('Withdrawn by the carrier');
  await expect(old).toContainText(label);
  await expect(old.locator(`time[datetime="${withdrawn.withdrawnAt}"]`)).toBeVisible();
  await expect(old).toContainText('Corrected to');
  await expect(old.locator(`.when time[datetime="${withdrawn.timestamp}"]`)).toBeVisible();
  await expect(old.locator('.when')).toHaveCSS('text-decoration-line', 'line-through');
  // The correction is the step's own time, not listed again beneath it: the withdrawn report is.
  await expect(step.getByRole('listitem')).toHaveCount(1);
  await expect(step.getByText('Replaces a report the carrier withdrew.')).toHaveCount(0);
  const events = section;
  await old.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('container-withdrawn-event.png'), fullPage: true });

  // Its events export says which event was withdrawn, and when.
  await events.getByRole('button', { name: 'Export events (CSV)' }).click();
  await expect(events.getByRole('status')).toContainText(/^Exported \d+ events to /);
  await events.getByRole('heading', { name: 'Milestones and transport events' }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('container-events-exported.png') });
  const [header, ...rows] = readFileSync(exportPath, 'utf8')
    .replace(/^\uFEFF/, '')
    .trimEnd()
    .split('\r\n')
    .map((line) => line.split(','));
  const column = (name: string) => header!.indexOf(name);
  const withdrawnRows = rows.filter((row) => row[column('Withdrawn by the carrier')] === 'yes');
  expect(withdrawnRows.map((row) => [row[column('Event id')], row[column('Withdrawn (UTC)')]])).toEqual([
    [withdrawn.id, withdrawn.withdrawnAt],
  ]);

  // The marks pass an accessibility scan (contrast included) in both themes.
  for (const theme of ['light', 'dark'] as const) {
    await host.core.handlers['settings:update']({ theme });
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    const results = await new AxeBuilder({ page })
      .include('section[aria-labelledby="events"]')
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
      .analyze();
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(
      serious.map((v) => ({ id: v.id, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) })),
      `${theme} theme`,
    ).toEqual([]);
  }
  await old.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('container-withdrawn-event-dark.png') });
});
