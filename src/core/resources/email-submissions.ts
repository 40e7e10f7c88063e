import { storedInstant } from '../store/instant';
import { num, str } from '../store/resource';
import { columns, defineResource, idColumn, PAGE_SIZE, rawColumn, syncedAtColumn } from './define';
import { hourly } from './documents';

const c = columns();

/** Email submissions (documents mailed in), walked with their documents; looked up by id too. */
export const emailSubmissions = defineResource({
  name: 'emailSubmissions',
  types: ['email_submission'],
  table: 'email_submissions',
  api: { path: '/email_submissions', includes: ['documents', 'documents.last_document_representation'] },
  lookup: { title: 'subject', path: '/email_submissions/{id}' },
  writeRank: 110,
  columns: {
    id: idColumn,
    subject: c.text((r) => str(r.attributes.subject)),
    sent_at: c.text((r) => storedInstant(r.attributes.sent_at)),
    raw: rawColumn,
    synced_at: syncedAtColumn,
    documents_count: c.integer((r) => num(r.attributes.documents_count)),
    created_at: c.text((r) => storedInstant(r.attributes.created_at), { indexed: true }),
  },
  walks: [
    {
      key: 'email_submissions',
      order: 85,
      step: 'Email submissions',
      noun: 'email submissions',
      query: { 'page[size]': PAGE_SIZE },
      when: hourly('email_submissions'),
      estimate: 'stored rows',
    },
  ],
});
