import { str } from '../store/resource';
import { columns, defineResource, idColumn, PAGE_SIZE, rawColumn, referenceWalks, syncedAtColumn } from './define';

const c = columns();

/** Parties: the customers tracking requests name. */
export const parties = defineResource({
  name: 'parties',
  types: ['party'],
  table: 'parties',
  api: { path: '/parties' },
  lookup: { title: 'company_name', path: '/parties/{id}' },
  writeRank: 40,
  cacheUnchanged: true,
  columns: {
    id: idColumn,
    company_name: c.text((r) => str(r.attributes.company_name)),
    raw: rawColumn,
    synced_at: syncedAtColumn,
  },
  walks: [
    {
      key: 'reference:parties',
      order: 20,
      step: 'Customers',
      noun: 'customers',
      query: { 'page[size]': PAGE_SIZE },
      when: referenceWalks,
      estimate: 'one page',
    },
  ],
});
