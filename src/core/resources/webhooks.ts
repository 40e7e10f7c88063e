import { bool, str } from '../store/resource';
import { columns, defineResource, idColumn, rawColumn, syncedAtColumn } from './define';

const c = columns();

/** Webhooks, stored when the webhooks action lists them (not walked). */
export const webhooks = defineResource({
  name: 'webhooks',
  types: ['webhook'],
  table: 'webhooks',
  writeRank: 120,
  columns: {
    id: idColumn,
    url: c.text((r) => str(r.attributes.url)),
    active: c.integer((r) => bool(r.attributes.active)),
    raw: rawColumn,
    synced_at: syncedAtColumn,
  },
});
