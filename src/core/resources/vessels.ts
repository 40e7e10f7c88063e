import { str } from '../store/resource';
import { columns, defineResource, idColumn, rawColumn, syncedAtColumn } from './define';

const c = columns();

/** Vessels, as transport events include them. */
export const vessels = defineResource({
  name: 'vessels',
  types: ['vessel'],
  table: 'vessels',
  writeRank: 30,
  cacheUnchanged: true,
  columns: {
    id: idColumn,
    name: c.text((r) => str(r.attributes.name)),
    imo: c.text((r) => str(r.attributes.imo), { indexed: true }),
    raw: rawColumn,
    synced_at: syncedAtColumn,
  },
});
