/**
 * The shipment page's reference number and tag editors never overlap, at a
 * narrow window (1024 px) and at the common laptop width (1366 px), online and offline (where a
 * note joins each editor), and nothing of the header or the route leaves its card. Long values are
 * added first, so the chips wrap too. A screenshot of each.
 */
import type { Locator, Page } from '@playwright/test';
import { expect, test, waitForFirstSync } from '../fixtures';

interface Box {
  name: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Every control, heading and message of the two editors, with its box on screen. */
async function editorBoxes(page: Page): Promise<Box[]> {
  const boxes: Box[] = [];
  for (const name of ['Reference numbers', 'Tags']) {
    const editor = page.getByRole('group', { name });
    const parts: [string, Locator][] = [
      ['heading', editor.getByRole('heading')],
      ['chip', editor.getByRole('listitem')],
      ['button', editor.getByRole('button')],
      ['textbox', editor.getByRole('textbox')],
      ['note', editor.locator('p')],
    ];
    for (const [kind, locator] of parts) {
      for (const [index, element] of (await locator.all()).entries()) {
        const box = await element.boundingBox();
        expect(box, `${name} ${kind} ${index} is on screen`).not.toBeNull();
        boxes.push({ name: `${name} ${kind} ${index}`, ...box! });
      }
    }
  }
  return boxes;
}

/** Pairs of boxes that share any area (touching edges do not count); a chip holds its button. */
function overlaps(boxes: Box[]): string[] {
  const found: string[] = [];
  for (const [i, a] of boxes.entries()) {
    for (const b of boxes.slice(i + 1)) {
      const inside = (outer: Box, inner: Box) =>
        outer.name.includes(' chip ') &&
        inner.name.includes(' button ') &&
        inner.x >= outer.x - 0.5 &&
        inner.y >= outer.y - 0.5 &&
        inner.x + inner.width <= outer.x + outer.width + 0.5 &&
        inner.y + inner.height <= outer.y + outer.height + 0.5;
      if (inside(a, b) || inside(b, a)) continue;
      const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
      const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
      if (w > 0.5 && h > 0.5) found.push(`${a.name} × ${b.name}`);
    }
  }
  return found;
}

test('the shipment page’s editors do not overlap from 1024 px up, online and offline', async ({
  page,
  host,
}, testInfo) => {
  await waitForFirstSync(host);
  const { rows } = await host.core.handlers['shipments:list']({ filters: {}, page: { limit: 1 } });
  const shipment = rows[0]!;
  // Long values, one without a space, so a chip must wrap inside its cell.
  await host.core.handlers['shipments:update']({
    id: shipment.id,
    refNumbers: ['PO-2026-000482-AMSTERDAM-ROTTERDAM-DISTRIBUTION-CENTRE-NORTH', 'INV 88213'],
    tags: ['urgent', 'customs broker: Van der Berg & Zonen Expeditie'],
  });

  await page.goto(`${host.url}#/shipments/${shipment.id}`);
  await expect(page.getByRole('group', { name: 'Tags' })).toContainText('Van der Berg');

  for (const online of [true, false]) {
    if (!online) {
      // What the renderer is told when requests stop reaching the service (offline.spec.ts
      // walks the real loss of the service); the editors gain their offline note.
      host.core.events.emit('connectivity:changed', { online: false });
      await expect(page.getByText('Can be changed once back online.')).toHaveCount(2);
    }
    for (const width of [1024, 1366]) {
      await page.setViewportSize({ width, height: 768 });
      await expect(page.getByRole('button', { name: 'Add reference number' })).toBeVisible();
      expect(overlaps(await editorBoxes(page)), `${width} px, ${online ? 'online' : 'offline'}`).toEqual([]);
      // Nothing of the header or the route leaves its card.
      for (const card of [page.locator('header.card'), page.getByRole('region', { name: 'Route' })]) {
        const outside = await card.evaluate((element) => {
          const right = element.getBoundingClientRect().right;
          return [...element.querySelectorAll('*')]
            .filter((child) => child.getBoundingClientRect().right > right + 0.5)
            .map((child) => child.textContent?.trim().slice(0, 40));
        });
        expect(outside, `${width} px: what leaves its card`).toEqual([]);
      }
      await page.screenshot({
        path: testInfo.outputPath(`shipment-editors-${width}-${online ? 'online' : 'offline'}.png`),
      });
    }
  }
});
