import { num, relId, relIds, str } from '../store/resource';
import {
  attribute,
  columns,
  defineResource,
  idColumn,
  PAGE_SIZE,
  rawColumn,
  relationship,
  syncedAtColumn,
  type WalkWhen,
} from './define';

const c = columns();
const HOUR = 3_600_000;

/**
 * Walked at most once an hour (and whenever interrupted): the lists take no `updated_at` filter,
 * so each walk reads them whole, and an incremental run that finds nothing changed stays one request.
 */
export const hourly = (key: string): WalkWhen => ({
  kind: 'every',
  every: HOUR,
  doneKey: `${key}:completed_at`,
  resumeWith: key,
  markedBy: key,
});

/** A document's schema version: the label of its type. Fetched by id when a document names one. */
export const documentSchemas = defineResource({
  name: 'documentSchemas',
  types: ['document_schema'],
  table: 'document_schemas',
  api: { get: '/document_schemas/{id}', fill: 'Document types' },
  writeRank: 112,
  columns: {
    id: idColumn,
    document_type: c.text((r) => str(r.attributes.document_type)),
    label: c.text((r) => str(r.attributes.label)),
    raw: rawColumn,
    synced_at: syncedAtColumn,
  },
});

/** What a document was last read into: its schema version, which a document's `schema_id` reads. */
export const documentRepresentations = defineResource({
  name: 'documentRepresentations',
  types: ['document_representation'],
  table: 'document_representations',
  writeRank: 113,
  columns: {
    id: idColumn,
    schema_version: c.text((r) => str(r.attributes.schema_version)),
    raw: rawColumn,
    synced_at: syncedAtColumn,
  },
  context: ['schema_version'],
});

/**
 * Documents (bills of lading, invoices, notices…), walked with their last representation, each
 * linked to its shipments and containers (`document_links`). The file itself is fetched by the
 * sync's file step (`sync/document-files.ts`) into the `file_*` columns the upsert leaves alone.
 */
export const documents = defineResource({
  name: 'documents',
  types: ['document'],
  table: 'documents',
  api: { path: '/documents', includes: ['last_document_representation'] },
  writeRank: 115,
  columns: {
    id: idColumn,
    // raw keeps only what the columns do not hold (store/residual.ts; stripped by migration 0010).
    name: c.textOf('name'),
    // The type a person set wins over the one read: holds neither.
    document_type: c.text((r) => str(r.attributes.document_type_manual) ?? str(r.attributes.document_type)),
    source: c.textOf('source'),
    file_name: c.textOf('file_name'),
    content_type: c.textOf('file_content_type'),
    size_bytes: c.integer((r) => num(r.attributes.file_size_bytes), { holds: attribute('file_size_bytes') }),
    email_submission_id: c.ref('emailSubmissions', (r) => relId(r, 'email_submission'), {
      indexed: true,
      holds: relationship('email_submission', 'email_submission'),
    }),
    representation_id: c.ref('documentRepresentations', (r) => relId(r, 'last_document_representation'), {
      holds: relationship('last_document_representation', 'document_representation'),
    }),
    schema_id: c.ref('documentSchemas', (r, w) =>
      str(w.contextOf('documentRepresentations', relId(r, 'last_document_representation')).schema_version),
    ),
    created_at: c.instantOf('created_at'),
    updated_at: c.instantOf('updated_at'),
    raw: rawColumn,
    synced_at: syncedAtColumn,
  },
  usual: {
    attributes: { document_type_manual: null, classification_notes: null },
    relationships: { user: { data: null } },
  },
  keptColumns: {
    file_path: { type: 'TEXT', writtenBy: 'sync/document-files.ts' },
    file_sha256: { type: 'TEXT', writtenBy: 'sync/document-files.ts' },
    file_updated_at: { type: 'TEXT', writtenBy: 'sync/document-files.ts' },
    file_bytes: { type: 'INTEGER', writtenBy: 'sync/document-files.ts' },
    file_problem: { type: 'TEXT', writtenBy: 'sync/document-files.ts' },
    file_failures: { type: 'INTEGER', writtenBy: 'sync/document-files.ts' },
    file_retry_at: { type: 'INTEGER', writtenBy: 'sync/document-files.ts' },
  },
  listTable: {
    table: 'document_links',
    parent: 'document_id',
    column: 'record_id',
    values: (r) => [...relIds(r, 'shipments'), ...relIds(r, 'cargos')],
  },
  walks: [
    {
      key: 'documents',
      order: 80,
      step: 'Documents',
      noun: 'documents',
      query: { 'page[size]': PAGE_SIZE },
      when: hourly('documents'),
      estimate: 'stored rows',
    },
  ],
});
