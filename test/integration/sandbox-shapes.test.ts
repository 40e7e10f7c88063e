import { describe, expect, it } from 'vitest';
import { validateResponse } from '../helpers/contract';
import { call, useSandbox } from '../helpers/sandbox';

// The lists as the live service answers them (the sandbox's default) and as the reference
// describes them (`shape: 'reference'`): links, meta, shipping-line paging, unknown filters, tags.
const live = useSandbox({ seed: 'shapes', shipments: 40 });
const reference = useSandbox({ seed: 'shapes', shipments: 40, shape: 'reference' });

type Doc = { data: { id: string; attributes: Record<string, unknown> }[]; links: Record<string, string>; meta?: any }; // eslint-disable-line @typescript-eslint/no-explicit-any -- meta differs per list

const pageOf = (link: string) => Number(new URL(link).searchParams.get('page[number]'));

describe('the live shape (default)', () => {
  it('links self, current, next, last and no first or prev, on the first, a middle and the last page', async () => {
    const first = (await call(live.get(), '/shipments?page[size]=10')).body as Doc;
    expect(Object.keys(first.links).sort()).toEqual(['current', 'last', 'next', 'self']);
    expect(first.links.self).toContain('/v2/shipments?page[size]=10');
    expect(pageOf(first.links.current!)).toBe(1);
    expect(pageOf(first.links.next!)).toBe(2);
    const last = pageOf(first.links.last!);
    expect(last).toBe(Math.ceil(first.meta.total / 10));
    const middle = (await call(live.get(), '/shipments?page[size]=10&page[number]=2')).body as Doc;
    expect(Object.keys(middle.links).sort()).toEqual(['current', 'last', 'next', 'self']);
    const end = (await call(live.get(), `/shipments?page[size]=10&page[number]=${last}`)).body as Doc;
    expect(Object.keys(end.links).sort()).toEqual(['current', 'last', 'self']);
    expect(end.links.current).toBe(end.links.last);
  });

  it('meta is {total, size} for shipments, {total} alone for containers, and adds pagination for tracking requests', async () => {
    const shipments = (await call(live.get(), '/shipments?page[size]=7')).body as Doc;
    expect(shipments.meta).toEqual({ total: expect.any(Number), size: 7 });
    const containers = (await call(live.get(), '/containers?page[size]=7')).body as Doc;
    expect(containers.meta).toEqual({ total: expect.any(Number) });
    expect(containers.meta.total).toBeGreaterThan(7);

    const requests = (await call(live.get(), '/tracking_requests?page[size]=7')).body as Doc;
    const total = requests.meta.total as number;
    const last = Math.ceil(total / 7);
    expect(requests.meta).toEqual({ total, size: 7, pagination: { current: 1, next: 2, last, records: total } });
    const end = (await call(live.get(), `/tracking_requests?page[size]=7&page[number]=${last}`)).body as Doc;
    expect(end.meta.pagination).toEqual({ current: last, next: null, last, records: total });
    expect(end.data).toHaveLength(total - 7 * (last - 1));
  });

  it('pages the shipping lines: two pages at the default size, every line once when walked at a small size', async () => {
    const whole = (await call(reference.get(), '/shipping_lines')).body as Doc;
    const firstPage = (await call(live.get(), '/shipping_lines')).body as Doc;
    expect(firstPage.data).toHaveLength(30);
    expect(pageOf(firstPage.links.last!)).toBe(2);
    expect(firstPage.meta).toBeUndefined();
    expect(validateResponse('GET', '/shipping_lines', 200, firstPage)).toEqual([]);

    const seen: string[] = [];
    let next: string | undefined = `${live.get().url}/shipping_lines?page[size]=4`;
    let pages = 0;
    while (next) {
      const response = await fetch(next, { headers: { authorization: 'Token quayside-demo-key' } });
      const page = (await response.json()) as Doc;
      seen.push(...page.data.map((d) => d.attributes.scac as string));
      next = page.links.next;
      pages++;
    }
    expect(pages).toBe(Math.ceil(whole.data.length / 4));
    expect(pages).toBeGreaterThanOrEqual(5);
    expect(seen).toEqual(whole.data.map((d) => d.attributes.scac));
  });

  it('ignores filters it does not know and still applies those it does', async () => {
    const plain = (await call(live.get(), '/shipments?page[size]=100')).body as Doc;
    const unknown = await call(live.get(), '/shipments?page[size]=100&filter[color]=red');
    expect(unknown.status).toBe(200);
    expect((unknown.body as Doc).data.map((d) => d.id)).toEqual(plain.data.map((d) => d.id));
    const stopped = (await call(live.get(), '/shipments?page[size]=100&filter[tracking_stopped]=true&filter[x]=1'))
      .body as Doc;
    expect(stopped.data.length).toBeGreaterThan(0);
    expect(stopped.data.length).toBeLessThan(plain.data.length);
    expect((await call(live.get(), '/containers?filter[pod_terminal_id]=nope')).status).toBe(200);
    // A known filter with a bad value is still refused.
    expect((await call(live.get(), '/shipments?filter[tracking_stopped]=maybe')).status).toBe(400);
  });

  it('sends tracking-request tags as shipment_tags', async () => {
    const created = await call(live.get(), '/tracking_requests', {
      method: 'POST',
      body: {
        data: {
          type: 'tracking_request',
          attributes: {
            request_type: 'bill_of_lading',
            request_number: 'MEDUQS7700001',
            scac: 'MSCU',
            shipment_tags: ['hot'],
          },
        },
      },
    });
    expect(created.status).toBe(201);
    expect(created.body.data.attributes.shipment_tags).toEqual(['hot']);
    expect(created.body.data.attributes).not.toHaveProperty('tags');
    const listed = (await call(live.get(), '/tracking_requests?page[size]=100')).body as Doc;
    for (const r of listed.data) expect(r.attributes).toHaveProperty('shipment_tags');
    expect(listed.data.find((r) => r.id === created.body.data.id)?.attributes.shipment_tags).toEqual(['hot']);
  });
});

describe("the reference's shape (shape: 'reference')", () => {
  it('links first, last, next and prev, meta {size, total} on every paged list', async () => {
    const middle = (await call(reference.get(), '/shipments?page[size]=10&page[number]=2')).body as Doc;
    expect(Object.keys(middle.links).sort()).toEqual(['first', 'last', 'next', 'prev', 'self']);
    for (const path of ['/shipments', '/containers', '/tracking_requests']) {
      const doc = (await call(reference.get(), `${path}?page[size]=5`)).body as Doc;
      expect(doc.meta).toEqual({ size: 5, total: expect.any(Number) });
      expect(doc.links).not.toHaveProperty('current');
    }
  });

  it('sends the shipping lines in one page, refuses unknown filters and names request tags `tags`', async () => {
    const lines = (await call(reference.get(), '/shipping_lines')).body as Doc;
    expect(lines.data.length).toBeGreaterThan(30);
    expect(lines.links).toEqual({ self: `${reference.get().url}/shipping_lines` });
    const refused = await call(reference.get(), '/shipments?filter[color]=red');
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].source).toEqual({ parameter: 'filter[color]' });
    const requests = (await call(reference.get(), '/tracking_requests?page[size]=5')).body as Doc;
    for (const r of requests.data) {
      expect(r.attributes).toHaveProperty('tags');
      expect(r.attributes).not.toHaveProperty('shipment_tags');
    }
  });
});
