import { str } from '../store/resource';
import { columns, defineResource, idColumn, PAGE_SIZE, rawColumn, referenceWalks, syncedAtColumn } from './define';

const c = columns();

/** Shipping lines (carriers): one short list, read whole once a day. */
export const shippingLines = defineResource({
  name: 'shippingLines',
  types: ['shipping_line'],
  table: 'shipping_lines',
  api: { path: '/shipping_lines' },
  lookup: { title: 'name', alt: 'scac', path: '/shipping_lines/{id}' },
  writeRank: 50,
  cacheUnchanged: true,
  columns: {
    id: idColumn,
    scac: c.text((r) => str(r.attributes.scac), { indexed: true }),
    name: c.text((r) => str(r.attributes.name)),
    short_name: c.text((r) => str(r.attributes.short_name)),
    raw: rawColumn,
    synced_at: syncedAtColumn,
  },
  walks: [
    {
      key: 'reference:shipping_lines',
      order: 10,
      step: 'Shipping lines',
      noun: 'shipping lines',
      // The reference sends the whole list in one page; the live service pages it (two pages at its
      // default size). At the largest page size it fits one page, and the walk follows `next` if not.
      query: { 'page[size]': PAGE_SIZE },
      when: referenceWalks,
      estimate: 'one page',
    },
  ],
});
