import { storedInstant } from '../store/instant';
import { bool, num, relId, relIdOfType, str, strings, type StoredResource } from '../store/resource';
import { columns, defineResource, idColumn, PAGE_SIZE, rawColumn, syncedAtColumn } from './define';
import { shipments } from './shipments';

const c = columns();
const text = (name: string) => (r: StoredResource) => str(r.attributes[name]);
const instant = (name: string) => (r: StoredResource) => storedInstant(r.attributes[name]);

/** Tracking requests: every run asks what changed since the cursor. */
export const trackingRequests = defineResource({
  name: 'trackingRequests',
  types: ['tracking_request'],
  table: 'tracking_requests',
  api: { path: '/tracking_requests' },
  writeRank: 90,
  columns: {
    id: idColumn,
    request_number: c.text(text('request_number'), { indexed: true }),
    request_type: c.text(text('request_type')),
    scac: c.text(text('scac')),
    status: c.text(text('status'), { indexed: true }),
    failed_reason: c.text(text('failed_reason')),
    is_retrying: c.integer((r) => bool(r.attributes.is_retrying)),
    retry_count: c.integer((r) => num(r.attributes.retry_count)),
    shipment_id: c.ref('shipments', (r) => relIdOfType(r, 'tracked_object', shipments.types), { indexed: true }),
    customer_id: c.ref('parties', (r) => relId(r, 'customer')),
    ref_numbers: c.text((r) => JSON.stringify(strings(r.attributes.ref_numbers))),
    tags: c.text((r) => JSON.stringify(strings(r.attributes.tags))),
    created_at: c.text(instant('created_at'), { indexed: true }),
    updated_at: c.text(instant('updated_at'), { indexed: true }),
    raw: rawColumn,
    synced_at: syncedAtColumn,
  },
  search: {
    table: 'tracking_request_search',
    body: (r) => {
      const a = r.attributes;
      return [a.request_number, a.scac, ...strings(a.ref_numbers), ...strings(a.tags)].join(' ');
    },
  },
  walks: [
    {
      key: 'tracking_requests',
      order: 40,
      step: 'Tracking requests',
      noun: 'tracking requests',
      query: { 'page[size]': PAGE_SIZE },
      when: { kind: 'always' },
      estimate: 'stored rows',
      // A cursor that is no date or lies in the future is no cursor: every request is read.
      cursor: { key: 'cursor:tracking_requests', filter: 'filter[updated_at][start]', overlapMs: 10 * 60_000 },
    },
  ],
});
