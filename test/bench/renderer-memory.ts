/**
 * The renderer's JS heap over 100k shipments, in a page of its own at 1366×768 (part of the
 * `renderer` suite, on its database and test host): the page loaded on the dashboard; after the
 * dashboard, the shipments, containers and tracking requests lists and a shipment's detail page
 * are opened from the sidebar; and with each list scrolled to its very end (its last row read and
 * shown). Each figure is the page's live objects: a CDP `HeapProfiler.collectGarbage` first, then
 * `Runtime.getHeapUsage`'s used size, so garbage not collected yet does not count.
 */
import type { Browser, CDPSession, Page } from '@playwright/test';
import { measure, type Measure } from './report';

/** What the heap may hold, in MB: an absolute figure, as no anchor says what a forwarder feels here. */
const HEAP_MB = 150;
const MB = 1024 * 1024;
const HOW = 'live after GC, Runtime.getHeapUsage';
/** The sidebar's lists, in its order. */
const LISTS = [
  { view: 'shipments', title: 'Shipments' },
  { view: 'containers', title: 'Containers' },
  { view: 'tracking-requests', title: 'Tracking requests' },
] as const;
// Reading a list of 200k containers to its end runs page after page: minutes on a busy machine.
const TO_THE_END_MS = 10 * 60_000;

async function liveHeapMb(cdp: CDPSession): Promise<number> {
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  return usedSize / MB;
}

/** Opens a list from the sidebar and waits for its first row and its count. */
async function openList(page: Page, view: string, title: string): Promise<number> {
  await page.getByRole('navigation', { name: 'Main' }).locator(`a[href="#/${view}"]`).click();
  await page.getByRole('heading', { level: 1, name: title }).waitFor();
  const handle = await page.waitForFunction(() => {
    const row = document.querySelector('[role="grid"] [role="row"][data-index="0"]');
    const count = document.querySelector('[aria-label="Row count"]')?.textContent ?? '';
    const total = Number(count.replace(/\D/g, ''));
    return row && row.getAttribute('aria-label') !== 'Loading' && total > 0 ? total : false;
  });
  return (await handle.jsonValue()) as number;
}

/** Scrolls the open list to its end and waits until its last row is read and shown, none loading. */
async function scrollToEnd(page: Page, total: number): Promise<void> {
  await page.waitForFunction(
    (last) => {
      const grid = document.querySelector('[role="grid"]') as HTMLElement;
      grid.scrollTop = grid.scrollHeight;
      const row = grid.querySelector(`[role="row"][data-index="${last}"]`);
      return (
        row !== null && row.getAttribute('aria-label') !== 'Loading' && !grid.querySelector('[role="gridcell"].loading')
      );
    },
    total - 1,
    { polling: 100, timeout: TO_THE_END_MS },
  );
}

/** Scrolls the open list back to its top and waits for its first rows read again, none loading. */
async function backToTop(page: Page): Promise<void> {
  await page.waitForFunction(
    () => {
      const grid = document.querySelector('[role="grid"]') as HTMLElement;
      grid.scrollTop = 0;
      const row = grid.querySelector('[role="row"][data-index="0"]');
      return (
        row !== null && row.getAttribute('aria-label') !== 'Loading' && !grid.querySelector('[role="gridcell"].loading')
      );
    },
    undefined,
    { polling: 100, timeout: TO_THE_END_MS },
  );
}

export async function benchRendererMemory(browser: Browser, url: string, shipments: number): Promise<Measure[]> {
  const measures: Measure[] = [];
  const at = `${shipments / 1000}k shipments`;
  const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await page.goto(`${url}#/dashboard`);
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    await page.getByRole('region', { name: 'Needs action' }).getByRole('listitem').first().waitFor();
    measures.push(measure(`renderer JS heap (${HOW}), dashboard loaded (${at})`, await liveHeapMb(cdp), 'MB', {}));

    const totals: number[] = [];
    for (const list of LISTS) totals.push(await openList(page, list.view, list.title));
    // A shipment's detail page, opened from the list as a forwarder opens it.
    await openList(page, 'shipments', 'Shipments');
    await page.locator('[role="grid"] [role="row"][data-index="0"]').click();
    await page.getByRole('heading', { level: 1, name: /^BL / }).waitFor();
    measures.push(
      measure(
        `renderer JS heap (${HOW}), after the dashboard, three lists and a shipment opened (${at})`,
        await liveHeapMb(cdp),
        'MB',
        { below: HEAP_MB },
      ),
    );

    for (const [i, list] of LISTS.entries()) {
      await openList(page, list.view, list.title);
      await scrollToEnd(page, totals[i]!);
      measures.push(
        measure(
          `renderer JS heap (${HOW}), ${list.title.toLowerCase()} list scrolled to its end, row ${totals[i]!.toLocaleString('en')} shown (${at})`,
          await liveHeapMb(cdp),
          'MB',
          { below: HEAP_MB },
        ),
      );
      // The rows the list put away on the way are read again as it comes back.
      await backToTop(page);
    }
  } finally {
    await context.close();
  }
  return measures;
}
