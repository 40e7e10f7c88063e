import type { Route } from '@playwright/test';
import { expect, test, waitForFirstSync } from '../fixtures';

// On a busy machine several keys land before the page draws the row the last
// one asked for, and the rows past the first page are still on their way. Every key must count.
test('every arrow key counts when keys come faster than the list can draw and fetch rows', async ({ page, host }) => {
  await waitForFirstSync(host);
  const sort = { field: 'eta', direction: 'asc' } as const;
  const presses = 120;
  const { rows } = await host.core.handlers['shipments:list']({ filters: {}, sort, page: { limit: presses + 1 } });
  const target = rows[presses]!;

  // The rows after the first page are held back until all the keys are in.
  const held: Route[] = [];
  let holding = true;
  await page.route('**/__host/ipc', async (route) => {
    const body = route.request().postDataJSON() as { channel: string; arg?: { page?: { after?: string } } };
    if (holding && body.channel === 'shipments:list' && body.arg?.page?.after !== undefined) held.push(route);
    else await route.continue();
  });

  await page.goto(`${host.url}#/shipments?filters=${encodeURIComponent('{}')}&sort=eta:asc`);
  const grid = page.getByRole('grid', { name: 'Shipments' });
  const first = grid.locator('[role="row"][aria-rowindex="2"]');
  await expect(first).toHaveAccessibleName(`Shipment ${rows[0]!.billOfLading}`);
  await first.focus();
  await expect(first).toBeFocused();
  // The list asks for the next rows at once; they are held.
  await expect.poll(() => held.length).toBe(1);

  // Keys in one task, as a busy page receives them: nothing is drawn between them.
  const burst = (count: number) =>
    page.evaluate((n) => {
      for (let i = 0; i < n; i += 1) {
        const init = { key: 'ArrowDown', code: 'ArrowDown', bubbles: true, cancelable: true };
        document.activeElement?.dispatchEvent(new KeyboardEvent('keydown', init));
      }
    }, count);
  await burst(30);
  const focused = grid.locator('[role="row"]:focus');
  await expect(focused).toHaveAttribute('aria-rowindex', String(30 + 2));
  await expect(focused).toHaveAccessibleName(`Shipment ${rows[30]!.billOfLading}`);

  // Real key presses on a CPU four times slower than this one: frames (and the scroll events that
  // bring rows on screen) fall behind the keys. Twenty of them bound the test on a loaded machine.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  for (let i = 0; i < 20; i += 1) await page.keyboard.press('ArrowDown');
  await expect(focused).toHaveAttribute('aria-rowindex', String(50 + 2));
  // And the rest in one task, past the rows loaded so far.
  await burst(presses - 50);

  // The focused row is the 121st, though its data has not arrived yet.
  await expect(focused).toHaveAttribute('aria-rowindex', String(presses + 2));
  await expect(focused).toHaveAccessibleName('Loading');

  holding = false;
  for (const route of held.splice(0)) await route.continue();
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  await expect(focused).toHaveAccessibleName(`Shipment ${target.billOfLading}`);
  await expect(focused).toHaveAttribute('aria-rowindex', String(presses + 2));

  // Back up a few keys as fast, then Enter opens the row the focus is on.
  for (let i = 0; i < 5; i += 1) await page.keyboard.press('ArrowUp');
  const opened = rows[presses - 5]!;
  await expect(focused).toHaveAttribute('aria-rowindex', String(presses - 5 + 2));
  await expect(focused).toHaveAccessibleName(`Shipment ${opened.billOfLading}`);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1 })).toContainText(opened.billOfLading!);
});
