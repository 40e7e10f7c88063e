import { storedInstant } from '../store/instant';
import { num, str } from '../store/resource';
import { columns, defineResource, idColumn, PAGE_SIZE, rawColumn, syncedAtColumn } from './define';
import { timestamp } from '../export/columns';
import { daysIn, from, to } from '../store/queries/list-sql';
import { defineList, rowText, type ListRowOf } from './define-list';
import { hourly } from './documents';

const c = columns();

/** Email submissions (documents mailed in), walked with their documents; listed (`emailSubmissionsList`). */
export const emailSubmissions = defineResource({
  name: 'emailSubmissions',
  types: ['email_submission'],
  table: 'email_submissions',
  api: { path: '/email_submissions', includes: ['documents', 'documents.last_document_representation'] },
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

/** The BL numbers its documents are linked to, as JSON `[[id, bl], …]` (only synced shipments). */
const linkedShipments = `(SELECT json_group_array(json_array(s.id, s.bill_of_lading)) FROM (
    SELECT DISTINCT s.id, s.bill_of_lading FROM documents d
    JOIN document_links l ON l.document_id = d.id
    JOIN shipments s ON s.id = l.record_id AND s.synced_at IS NOT NULL
    WHERE d.email_submission_id = e.id ORDER BY s.bill_of_lading) s)`;

function shipmentsOf(value: unknown): { id: string; billOfLading: string | null }[] {
  if (typeof value !== 'string') return [];
  try {
    return (JSON.parse(value) as [string, string | null][]).map(([id, billOfLading]) => ({ id, billOfLading }));
  } catch {
    return [];
  }
}

const statusLabels = { processed: 'Processed', no_documents: 'No documents found' } as const;

/** The email submissions list: subject, sender, when, its documents and the shipments they belong to. */
export const emailSubmissionsList = defineList({
  name: 'emailSubmissions',
  noun: 'email submission',
  select: `e.id, e.subject, json_extract(e.raw, '$.attributes.from[0]') AS sender, e.sent_at, e.documents_count,
  ${linkedShipments} AS shipments`,
  from: `${emailSubmissions.table} e`,
  idColumn: 'e.id',
  countFrom: () => `${emailSubmissions.table} e`,
  sort: {
    created_at: 'e.created_at',
    sent_at: 'e.sent_at',
    subject: 'e.subject',
    documents_count: 'e.documents_count',
  },
  indexOrderedSorts: ['created_at'],
  filters: {
    search: (value, q) => {
      // Words in the subject or the sender, as typed: LIKE's own characters are escaped.
      const like = `%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      q.where.push(`(e.subject LIKE ? ESCAPE '\\' OR json_extract(e.raw, '$.attributes.from[0]') LIKE ? ESCAPE '\\')`);
      q.params.push(like, like);
    },
    hasDocuments: (value, q) => {
      q.where.push(value ? 'coalesce(e.documents_count, 0) > 0' : 'coalesce(e.documents_count, 0) = 0');
    },
    sentFrom: from('e.sent_at'),
    sentTo: to('e.sent_at'),
    sentDays: daysIn('e.sent_at', 'instant'),
  },
  toRow: (r) => {
    // A count below none (the service's slip) reads as none.
    const count = typeof r.documents_count === 'number' && r.documents_count > 0 ? r.documents_count : 0;
    return {
      id: r.id as string,
      subject: rowText(r.subject),
      from: rowText(r.sender),
      sentAt: rowText(r.sent_at),
      documentsCount: count,
      status: count > 0 ? 'processed' : 'no_documents',
      shipments: shipmentsOf(r.shipments),
    };
  },
  export: [
    { key: 'subject', header: 'Subject', value: (r) => r.subject },
    { key: 'from', header: 'From', value: (r) => r.from },
    ...timestamp<ListRowOf<'emailSubmissions'>>('sent_at', 'Sent', (r) => r.sentAt),
    { key: 'status', header: 'Status', value: (r) => statusLabels[r.status] },
    { key: 'documents_count', header: 'Documents', value: (r) => r.documentsCount },
    { key: 'shipments', header: 'Shipments', value: (r) => r.shipments.map((s) => s.billOfLading ?? s.id) },
  ],
});
