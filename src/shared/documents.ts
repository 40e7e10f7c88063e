import { z } from 'zod';
import { pastDaysSchema } from './date-filters';

/** A document as the detail pages list it (`documents:forRecord`). */
export interface DocumentInfo {
  id: string;
  name: string | null;
  /** The type's code (`bill_of_lading`) and its label from the type's schema, when synced. */
  type: string | null;
  typeLabel: string | null;
  /** The schema version its contents were read with (`bill_of_lading@2026-03-23`). */
  schemaId: string | null;
  /** `email`, `upload`, `api` or `split_document`. */
  source: string | null;
  fileName: string | null;
  contentType: string | null;
  sizeBytes: number | null;
  createdAt: string | null;
  /** The subject of the email it came in, when it came by email. */
  emailSubject: string | null;
  /** Its current file is kept on this computer (opens offline). */
  kept: boolean;
  /**
   * When the kept file is not a document type Quayside opens (a program, or bytes that are not
   * what the name says): the sentence why. Such a file is only shown in its folder.
   */
  keptAsData: string | null;
  /** Why the last download of its file failed, and when a sync tries again (ISO instant). */
  problem: string | null;
  retryAt: string | null;
}

/**
 * What `documents:open` did: opened the kept file (after fetching it first when it was not kept),
 * or kept it without opening it, with the sentence why (`notOpened`): it is shown in its folder.
 */
export interface DocumentOpened {
  opened: boolean;
  fetched: boolean;
  notOpened: string | null;
}

/** Sort fields of the email submissions list. */
export const emailSubmissionSortFields = ['created_at', 'sent_at', 'subject', 'documents_count'] as const;

/** Filters of the email submissions list: text in the subject, when it was sent, whether it brought documents. */
export const emailSubmissionFiltersSchema = z
  .object({
    search: z.string().trim().max(200).optional(),
    hasDocuments: z.boolean().optional(),
    sentFrom: z.iso.datetime({ offset: true }).optional(),
    sentTo: z.iso.datetime({ offset: true }).optional(),
    sentDays: pastDaysSchema.optional(),
  })
  .strict();

/**
 * An email submission as its list shows it. The service gives no status field: the status is
 * what came of the email, read from its documents count (`processed` when it brought documents).
 */
export interface EmailSubmissionRow {
  id: string;
  subject: string | null;
  from: string | null;
  sentAt: string | null;
  documentsCount: number;
  status: 'processed' | 'no_documents';
  /** The shipments its documents are linked to: id and bill of lading, as synced. */
  shipments: { id: string; billOfLading: string | null }[];
}
