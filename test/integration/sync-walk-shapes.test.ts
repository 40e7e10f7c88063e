/**
 * The walker reads every list across several pages in both of the sandbox's
 * shapes, the live service's (links self/current/next/last, meta per list, paged shipping lines)
 * and the reference's, and knows from the first page how many pages the list has.
 */
import { describe, expect, it } from 'vitest';
import { countResources } from '../../src/core/store/sync-state';
import { walk, type WalkContext } from '../../src/core/sync/walk';
import type { SandboxShape } from '../../src/sandbox/index';
import { useSandbox } from '../helpers/sandbox';
import { sandboxTotals, syncOf } from '../helpers/sync';

const lists = [
  { path: '/shipping_lines', table: 'shipping_lines', size: 5 },
  { path: '/shipments', table: 'shipments', size: 7 },
  { path: '/containers', table: 'containers', size: 9 },
  { path: '/tracking_requests', table: 'tracking_requests', size: 7 },
  { path: '/parties', table: 'parties', size: 9 },
  { path: '/custom_field_definitions', table: 'custom_field_definitions', size: 2 },
] as const;

describe.each<SandboxShape>(['live', 'reference'])('walks in the %s shape', (shape) => {
  const sandbox = useSandbox({ seed: 'walk-shapes', shipments: 30, shape });

  it.each(lists)(
    '$path at page[size]=$size: every row once, the page count known from the first page',
    async (list) => {
      const sync = syncOf(sandbox.get());
      try {
        const promised: (number | null)[] = [];
        const ctx: WalkContext = {
          db: sync.db,
          client: sync.client,
          baseUrl: sandbox.get().url,
          now: () => new Date(),
          onPage: (page) => promised.push(page.pages),
        };
        const result = await walk(ctx, {
          key: `test:${list.table}`,
          path: list.path,
          query: { 'page[size]': list.size },
          noun: list.table,
        });
        const totals = sandboxTotals(sandbox.get());
        const rows = {
          shipping_lines: sandbox.get().store.world.shippingLines.length,
          shipments: totals.shipments,
          containers: totals.containers,
          tracking_requests: totals.trackingRequests,
          parties: sandbox.get().store.world.parties.length,
          custom_field_definitions: sandbox.get().store.world.customFieldDefinitions.length,
        }[list.table];
        // The reference sends the shipping lines in one page whatever the size asked, saying nothing of pages.
        const unpaged = shape === 'reference' && list.table === 'shipping_lines';
        const pages = unpaged ? 1 : Math.ceil(rows / list.size);
        if (!unpaged) expect(pages).toBeGreaterThanOrEqual(4);
        expect(result.pages).toBe(pages);
        expect(countResources(sync.db)[list.table]).toBe(rows);
        // Each page says how many there are (what the progress bar and the loop guard go by).
        expect(promised).toEqual(Array.from({ length: pages }, () => (unpaged ? null : pages)));
      } finally {
        sync.close();
      }
    },
  );
});
