/**
 * Routing: a container at sea shows its route drawn offline (bundled coastline,
 * ports named, the vessel, sailed and planned legs, the vessel's estimated track from its future
 * positions) with the legs and the next positions in words; an account without
 * the paid feature reads one sentence instead. Screenshots at the window size of the project.
 */
import AxeBuilder from '@axe-core/playwright';
import type { ContainerRoute } from '../../../src/shared/routing';
import { sandboxDemoService } from '../../../src/sandbox/demo-service';
import { expect, test, waitForFirstSync } from '../fixtures';
import { startTestHost } from '../host/server';

test('a container at sea shows its route map, readable and in words', async ({ page, host }, testInfo) => {
  await waitForFirstSync(host);
  // A box the first sync stored a map for with the vessel under way and its estimated track.
  const { rows } = await host.core.handlers['containers:list']({
    filters: { statuses: ['in_transit'] },
    page: { limit: 200 },
  });
  let found: { id: string; number: string; route: Extract<ContainerRoute, { state: 'map' }> } | null = null;
  for (const row of rows) {
    const route = await host.core.handlers['containers:route']({ id: row.id });
    // The one with the longest track ahead, so the screenshot shows it.
    if (route.state === 'map' && route.vessel && route.track && route.ports.length >= 2) {
      if (!found || route.track.positions.length > found.route.track!.positions.length)
        found = { id: row.id, number: row.number!, route };
    }
  }
  expect(found, 'the demo sync stored a map for a box at sea').not.toBeNull();
  const { id, number, route } = found!;

  // Offline as far as the page goes: every request it makes stays on the test host.
  const foreign: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith(host.url)) foreign.push(request.url());
  });
  await page.goto(`${host.url}#/containers/${id}`);
  await expect(page.getByRole('heading', { level: 1, name: number })).toBeVisible();
  const section = page.getByRole('region', { name: 'Route' });
  const map = section.getByRole('img', { name: /^Map of the route / });
  await expect(map).toBeVisible();
  await expect(map).toHaveAccessibleName(`Map of the route ${route.ports.map((p) => p.name).join(' → ')}`);
  // Ports named on the map, the vessel marked, sailed and planned legs drawn apart, the coastline under them.
  for (const port of route.ports) await expect(map.locator('.port text', { hasText: port.name })).toHaveCount(1);
  await expect(map.locator('.vessel text')).toHaveText(route.vessel!.name);
  await expect(map.locator('path.leg.past')).not.toHaveCount(0);
  await expect(map.locator('path.leg.estimated')).not.toHaveCount(0);
  expect((await map.locator('path.land').getAttribute('d'))!.length).toBeGreaterThan(1000);
  // The text alternative: one line per leg, the one under way naming the vessel.
  const legs = section.getByRole('list', { name: 'Legs of the route' });
  await expect(legs.getByRole('listitem')).toHaveCount(route.ports.length - 1);
  await expect(legs).toContainText(`under way on ${route.vessel!.name}`);
  await expect(legs.getByRole('listitem').first()).toContainText(
    `${route.ports[0]!.name} (POL) → ${route.ports[1]!.name} (${route.ports[1]!.label})`,
  );
  // The vessel's estimated track (its future positions), drawn and in the legend, then in words.
  await expect(map.locator('path.leg.track')).toHaveCount(1);
  await expect(section.locator('figcaption')).toContainText("Vessel's estimated track");
  const next = section.getByRole('list', { name: /^Next positions of / });
  await expect(next).toBeVisible();
  await expect(section.getByRole('heading', { level: 4, name: /^Next positions of / })).toHaveText(
    `Next positions of ${route.track!.vesselName} on its way to ${route.track!.toName} (estimated)`,
  );
  const items = next.getByRole('listitem');
  await expect(items).toHaveCount(Math.min(6, route.track!.positions.length - 1));
  // Each a time and a position in words; the last, where it arrives.
  await expect(items.first()).toHaveText(/^.+: \d+\.\d° [NS], \d+\.\d° [EW]$/);
  const [lon, lat] = route.track!.positions.at(-1)!.at;
  const ns = `${Math.abs(lat).toFixed(1)}° ${lat >= 0 ? 'N' : 'S'}`;
  await expect(items.last()).toContainText(ns);
  expect(Math.abs(lon)).toBeLessThanOrEqual(540);
  await expect(map).toHaveAttribute('aria-describedby', 'route-legs next-positions');
  await expect(section.getByText(/^Stored on this computer, fetched /)).toBeVisible();
  await section.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('route-map.png') });
  expect(foreign).toEqual([]);

  const results = await new AxeBuilder({ page })
    .include('section[aria-labelledby="route-title"]')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  expect(results.violations.map((v) => v.id)).toEqual([]);
});

test('an account without routing reads one sentence where the map would be', async ({ page }, testInfo) => {
  const host = await startTestHost({
    dataDir: testInfo.outputPath('data-no-routing'),
    demo: sandboxDemoService({ latency: 'none', routing: false }),
  });
  try {
    await waitForFirstSync(host);
    const [container] = (
      await host.core.handlers['containers:list']({ filters: { statuses: ['in_transit'] }, page: { limit: 1 } })
    ).rows;
    await page.goto(`${host.url}#/containers/${container!.id}`);
    const section = page.getByRole('region', { name: 'Route' });
    await expect(section).toContainText(
      'Route maps are a paid feature of the Tracking API that this account does not have, so Quayside has stopped asking for them.',
    );
    await expect(section.getByRole('img')).toHaveCount(0);
    await section.scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath('route-not-entitled.png') });
  } finally {
    await host.close();
  }
});
