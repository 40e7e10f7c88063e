/**
 * Issue 14, withdrawn and corrected events in the views: a container whose carrier withdrew a
 * departure or discharge shows the corrected time on its timeline, never the withdrawn one, and
 * its event list keeps the withdrawn event, struck through and labelled in words; its events
 * export says which one was withdrawn. A screenshot of the detail.
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

  // The timeline: the milestone is the correction, said to be one; the withdrawn time is nowhere on it.
  const timeline = page.getByRole('list', { name: `Milestones of ${number}` });
  const step = timeline.getByRole('listitem').filter({ has: page.locator(`time[datetime="${correction.timestamp}"]`) });
  await expect(step).toHaveCount(1);
  await expect(step).toContainText(label);
  await expect(step).toContainText('Corrected: the carrier withdrew an earlier report');
  await expect(timeline.locator(`time[datetime="${withdrawn.timestamp}"]`)).toHaveCount(0);

  // The event list keeps both: the withdrawn one struck through and labelled, the correction labelled.
  const events = page.getByRole('region', { name: 'Transport events' });
  const old = events.getByRole('listitem').filter({ has: page.locator(`time[datetime="${withdrawn.timestamp}"]`) });
  await expect(old).toContainText('Withdrawn by the carrier');
  await expect(old).toContainText(label);
  await expect(old.locator(`time[datetime="${withdrawn.withdrawnAt}"]`)).toBeVisible();
  await expect(old).toContainText('Corrected to');
  await expect(old.locator('.label')).toHaveCSS('text-decoration-line', 'line-through');
  const fix = events.getByRole('listitem').filter({ hasText: 'Replaces a report the carrier withdrew.' });
  await expect(fix).toHaveCount(1);
  await expect(fix.locator(`time[datetime="${correction.timestamp}"]`)).toBeVisible();
  await expect(fix.locator('.label')).toHaveCSS('text-decoration-line', 'none');
  await old.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('container-withdrawn-event.png'), fullPage: true });

  // Its events export says which event was withdrawn, and when.
  await events.getByRole('button', { name: 'Export events (CSV)' }).click();
  await expect(events.getByRole('status')).toContainText(/^Exported \d+ events to /);
  await events.getByRole('heading', { name: 'Transport events' }).scrollIntoViewIfNeeded();
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
      .include(`ol[aria-label="Milestones of ${number}"]`)
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
