/**
 * Ctrl+K reaches the service: a number the local copy does not have yet is found through the
 * Tracking API's search, in a section "On the service" after the local results, and opened by
 * keyboard (fetched into the local copy first); a number the service does not have either is
 * offered to track, opening the new tracking request form with it filled in. 1366×768, light and
 * dark, axe.
 */
import { DEMO_API_KEY, startSandbox, type Sandbox } from '../../../src/sandbox/index';
import type { TrackingRequestPlan } from '../../../src/sandbox/model';
import { expect, seriousViolations, test, waitForFirstSync } from '../fixtures';

test.use({ viewport: { width: 1366, height: 768 } });

/** A bill of lading tracked on the service behind the app's back, which the line has answered. */
function trackedElsewhere(sandbox: Sandbox, numbers: (i: number) => string): TrackingRequestPlan {
  const line = sandbox.store.world.shippingLines.find((l) => l.data.supported)!;
  for (let i = 0; i < 50; i++) {
    const request = sandbox.store.createTrackingRequest({
      requestType: 'bill_of_lading',
      requestNumber: numbers(i),
      scac: line.data.scac,
      refNumbers: [],
      tags: [],
      customer: null,
      now: sandbox.clock.now(),
    });
    if (request.shipment) return request;
  }
  throw new Error('no request was answered with a shipment');
}

test('a number not synced yet is found on the service and opened; one nowhere is offered to track', async ({
  page,
  host,
}, testInfo) => {
  test.setTimeout(120_000);
  // A clock that moves only when told, and a limit the test cannot spend.
  const service = await startSandbox({
    seed: 'palette-service',
    shipments: 20,
    tick: 0,
    rateLimit: { limit: 10_000, windowSeconds: 60 },
  });
  try {
    await host.core.handlers['profiles:add']({ name: 'Harbour Ltd', apiKey: DEMO_API_KEY, baseUrl: service.url });
    await waitForFirstSync(host);

    // Two bills of lading with one stem, tracked elsewhere after the sync: not in the local copy.
    const prefix = service.store.world.shippingLines.find((l) => l.data.supported)!.data.bolPrefix;
    const first = trackedElsewhere(service, (i) => `${prefix}66418${i}01`);
    const second = trackedElsewhere(service, (i) => `${prefix}66418${i}02`);
    // The line has answered both, and their boxes are on them.
    const ready = Math.max(...[first, second].flatMap((r) => r.shipment!.containers.map((c) => c.createdAt)));
    service.advance(Math.ceil((ready - service.clock.now()) / 1000) + 1);
    const stem = first.requestNumber.slice(0, -2);
    expect(second.requestNumber.startsWith(stem)).toBe(true);

    await page.goto(host.url);
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    await page.keyboard.press('Control+k');
    const search = page.getByRole('combobox', { name: /Search BL, booking, container/ });
    await expect(search).toBeFocused();
    await search.pressSequentially(stem.toLowerCase());

    const results = page.getByRole('listbox', { name: 'Results' });
    const found = results.getByRole('option', { name: /On the service|Open/ });
    await expect(results.getByRole('option', { name: new RegExp(first.requestNumber) })).toContainText('Open');
    await expect(results.getByRole('option', { name: new RegExp(second.requestNumber) })).toContainText('Shipment');
    await expect(found).toHaveCount(2);
    await expect(page.getByRole('status').filter({ hasText: 'on this computer' })).toHaveText(
      'Nothing found on this computer. 2 more on the Tracking API.',
    );
    await expect(page.getByText('Nothing in the local data matches')).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: testInfo.outputPath('service-found-light.png') });

    // The arrows reach the section; Enter fetches the one chosen and opens it.
    const target = (await found.nth(1).textContent())!.includes(second.requestNumber) ? second : first;
    await search.press('ArrowDown');
    await expect(found.nth(1)).toHaveAttribute('aria-selected', 'true');
    await search.press('Enter');
    await expect(page.getByRole('heading', { level: 1 })).toContainText(target.requestNumber);
    await expect(page.getByRole('dialog', { name: 'Search everything' })).toBeHidden();
    const stored = await host.core.handlers['shipments:get']({ id: target.shipment!.id });
    expect(stored.containers.map((c) => c.container.number).sort()).toEqual(
      target.shipment!.containers.map((c) => c.number).sort(),
    );
    await page.screenshot({ path: testInfo.outputPath('service-opened-light.png') });

    // Dark: a number nowhere, offered to track.
    await host.core.handlers['settings:update']({ theme: 'dark' });
    await expect(page.locator('html[data-theme=dark]')).toHaveCount(1);
    const nowhere = `${prefix}90317${'5'.repeat(5)}`;
    await page.keyboard.press('Control+k');
    await expect(search).toBeFocused();
    await search.fill(nowhere);
    const track = results.getByRole('option', { name: `Track ${nowhere}…` });
    await expect(track).toBeVisible();
    await expect(track).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('status').filter({ hasText: 'on this computer' })).toHaveText(
      `Nothing found on this computer. Not on the Tracking API either: Track ${nowhere}… is offered.`,
    );
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: testInfo.outputPath('service-track-dark.png') });

    await search.press('Enter');
    const form = page.getByRole('dialog', { name: 'New tracking request' });
    await expect(form).toBeVisible();
    await expect(form.getByRole('textbox', { name: 'Number', exact: true })).toHaveValue(nowhere);
    await expect(form.getByRole('radio', { name: 'Bill of lading' })).toBeChecked();
    await expect(page).toHaveURL(/#\/tracking-requests$/);
    await page.screenshot({ path: testInfo.outputPath('service-track-form-dark.png') });
  } finally {
    await service.close();
  }
});
