import { describe, expect, it } from 'vitest';
import type { JsonApiDocument } from '../../src/core/api/document';
import { frameOf, type PageFrame } from '../../src/core/sync/page-handle';
import {
  PageGuard,
  pagesWithoutPromise,
  promisedPages,
  UNPROMISED_CEILING,
  UNPROMISED_FLOOR,
} from '../../src/core/sync/walk';

const base = 'https://api.example.com/v2';
const rows = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ id: `r${i}`, type: 'x', attributes: {}, relationships: {} }));
const link = (path: string, n: number, size = 10) => `${base}${path}?page[number]=${n}&page[size]=${size}`;
const doc = (d: Partial<JsonApiDocument>): PageFrame => frameOf({ data: rows(10), included: [], ...d });

describe('promisedPages: the pages a list says it has, in each shape a page comes in', () => {
  it('reads the live shapes', () => {
    // Shipments: meta {total, size} and links self/current/next/last.
    const shipments = {
      self: link('/shipments', 1),
      current: link('/shipments', 1),
      next: link('/shipments', 2),
      last: link('/shipments', 5),
    };
    expect(promisedPages(doc({ links: shipments, meta: { total: 45, size: 10 } }))).toBe(5);
    // Containers: {total} alone; the size is the current link's.
    expect(promisedPages(doc({ links: { current: link('/containers', 1) }, meta: { total: 45 } }))).toBe(5);
    // Tracking requests: meta.pagination alone is enough, by `last` or by `records`.
    expect(promisedPages(doc({ meta: { pagination: { current: 1, next: 2, last: 7, records: 65 } } }))).toBe(7);
    expect(
      promisedPages(doc({ links: { self: link('/tracking_requests', 1) }, meta: { pagination: { records: 65 } } })),
    ).toBe(7);
    // Shipping lines: links only.
    expect(
      promisedPages(doc({ links: { current: link('/shipping_lines', 1, 30), last: link('/shipping_lines', 2, 30) } })),
    ).toBe(2);
  });

  it("reads the reference's shape, takes the largest promise, and is null when a page promises nothing", () => {
    expect(
      promisedPages(
        doc({ links: { first: link('/shipments', 1), last: link('/shipments', 3) }, meta: { size: 10, total: 30 } }),
      ),
    ).toBe(3);
    expect(promisedPages(doc({ links: { last: link('/shipments', 3) }, meta: { size: 10, total: 95 } }))).toBe(10);
    // A total with no size anywhere: the rows of a page that has a next one are the size.
    expect(promisedPages(doc({ links: { next: `${base}/containers?cursor=abc` }, meta: { total: 25 } }))).toBe(3);
    expect(promisedPages(doc({ meta: { total: 25 } }))).toBeNull();
    expect(promisedPages(doc({ links: { self: `${base}/shipping_lines` } }))).toBeNull();
    expect(promisedPages(doc({ meta: { total: -1, size: 'ten', pagination: 'no' } }))).toBeNull();
  });
});

describe('PageGuard with the live meta', () => {
  it.each([
    ['containers, {total} alone', { links: { current: link('/containers', 1) }, meta: { total: 50 } }],
    ['tracking requests, pagination alone', { meta: { pagination: { current: 1, next: 2, last: 5, records: 50 } } }],
  ])('%s: stops a list that runs well past its promise', (_name, page) => {
    const guard = new PageGuard('things');
    guard.served(null, doc(page));
    // Five pages promised: about twice that and a margin are allowed, no more.
    expect(guard.cap).toBe(2 * 5 + 10);
    let n = 2;
    for (; n <= 40; n++) {
      const next = link('/containers', n);
      if (guard.problemWith(next)) break;
      guard.served(next, doc({}));
    }
    expect(n).toBe(guard.cap! + 1);
    expect(guard.problemWith(link('/containers', n))?.message).toMatch(/kept sending pages of things well past/);
  });
});

describe('a list that promises nothing', () => {
  it('may take as many pages as the account could hold: the floor for a new one, ten records a known one', () => {
    expect(pagesWithoutPromise(0)).toBe(UNPROMISED_FLOOR);
    expect(pagesWithoutPromise(10_000)).toBe(UNPROMISED_FLOOR);
    // 20,000 tracking requests and shipments known: ten records each, a hundred to a page.
    expect(pagesWithoutPromise(20_000)).toBe(2_000);
    expect(pagesWithoutPromise(10_000_000)).toBe(UNPROMISED_CEILING);
  });

  it('ends with a sentence naming the list once it takes more pages than that', () => {
    const guard = new PageGuard('shipping lines', undefined, 25);
    const cursor = (n: number) => `${base}/shipping_lines?cursor=${n}`;
    guard.served(null, doc({ links: { next: cursor(1) } }));
    let n = 1;
    for (; n <= 100; n++) {
      if (guard.problemWith(cursor(n))) break;
      guard.served(cursor(n), doc({ links: { next: cursor(n + 1) } }));
    }
    // 25 pages served, the 26th refused.
    expect(n).toBe(25);
    expect(guard.problemWith(cursor(n))?.message).toBe(
      'The Tracking API kept sending pages of shipping lines without saying how many there are, past 25 pages (more than this account could hold); the sync stopped there and will read the shipping lines from the start next time.',
    );
    expect(guard.problemWith(cursor(n))?.code).toBe('malformed');
  });
});
