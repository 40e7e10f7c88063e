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
}

/** What `documents:open` did: opened the kept file, after fetching it first when it was not kept. */
export interface DocumentOpened {
  opened: true;
  fetched: boolean;
}
