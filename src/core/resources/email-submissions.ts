import { storedInstant } from '../store/instant';
import { str } from '../store/resource';
import { columns, defineResource, idColumn, rawColumn, syncedAtColumn } from './define';

const c = columns();

/** Email submissions, stored when a lookup fetches one (not walked). */
export const emailSubmissions = defineResource({
  name: 'emailSubmissions',
  types: ['email_submission'],
  table: 'email_submissions',
  lookup: { title: 'subject', path: '/email_submissions/{id}' },
  writeRank: 110,
  columns: {
    id: idColumn,
    subject: c.text((r) => str(r.attributes.subject)),
    sent_at: c.text((r) => storedInstant(r.attributes.sent_at)),
    raw: rawColumn,
    synced_at: syncedAtColumn,
  },
});
