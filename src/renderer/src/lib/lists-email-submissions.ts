/** The email submissions list: documents mailed in, what came of each and the shipments it fed. */
import { date, text, type ListDef } from './lists-model';

export const emailSubmissionsList: ListDef<'emailSubmissions'> = {
  id: 'emailSubmissions',
  title: 'Email submissions',
  noun: { one: 'email submission', many: 'email submissions' },
  searchPlaceholder: 'Search subject or sender…',
  defaultSort: { field: 'sent_at', direction: 'desc' },
  // Opens the shipment its documents belong to (the first, when several).
  open: (row) => (row.shipments[0] ? { view: 'shipments', id: row.shipments[0].id } : null),
  rowLabel: (row) => `Email submission ${row.subject ?? row.id}`,
  filters: [
    { key: 'hasDocuments', label: 'Documents', kind: 'flag', yes: 'Brought documents', no: 'No documents found' },
    { key: 'sent', label: 'Sent', kind: 'range', days: 'sentDays', from: 'sentFrom', to: 'sentTo' },
  ],
  columns: [
    {
      key: 'subject',
      sticky: true,
      label: 'Subject',
      sort: 'subject',
      width: 250,
      exportKeys: ['subject'],
      cell: (r) => text(r.subject),
      shownByDefault: true,
    },
    {
      key: 'status',
      label: 'Status',
      width: 180,
      exportKeys: ['status'],
      cell: (r) =>
        r.status === 'processed'
          ? { kind: 'status', status: r.status, label: 'Processed', tone: 'good' }
          : { kind: 'status', status: r.status, label: 'No documents found', tone: 'warn' },
      shownByDefault: true,
    },
    {
      key: 'documents',
      label: 'Documents',
      sort: 'documents_count',
      width: 100,
      exportKeys: ['documents_count'],
      cell: (r) => text(String(r.documentsCount)),
      shownByDefault: true,
    },
    {
      key: 'shipments',
      label: 'Shipments',
      width: 150,
      exportKeys: ['shipments'],
      cell: (r) => text(r.shipments.map((s) => s.billOfLading ?? s.id).join(', '), { mono: true }),
      shownByDefault: true,
    },
    {
      key: 'from',
      label: 'From',
      width: 190,
      exportKeys: ['from'],
      cell: (r) => text(r.from),
      shownByDefault: true,
    },
    {
      key: 'sent',
      label: 'Sent',
      sort: 'sent_at',
      width: 168,
      exportKeys: ['sent_at'],
      cell: (r) => date(r.sentAt, null),
      shownByDefault: true,
    },
  ],
};
