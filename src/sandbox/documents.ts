/**
 * The sandbox's documents: those uploaded to shipments (beside those of the email submissions,
 * generate.ts), the schema versions of their types, the bytes of each file (a small PDF padded to
 * the document's size, the same bytes every time) and the presigned download link that serves
 * them. The link works without the API key, as the service's presigned storage links do, until
 * it expires; a link whose signature does not match is refused with 403.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { DAY, HOUR } from './generate-shipment';
import type { AnyDocumentRec, DocumentRec, DocumentSchemaRec, ShipmentPlan } from './model';
import { Random, stableUuid } from './random';

/** Path prefix of the download links (outside `/v2`, no key asked). */
export const FILES_PREFIX = '/files/documents/';
/** How long a download link works, in simulated ms, as the service's presigned links do. */
const LINK_TTL_MS = 15 * 60_000;
const SCHEMA_DATE = '2026-03-23';
/** The key download links are signed with: one per process, never sent. */
const SECRET = randomBytes(16).toString('hex');

const types: readonly [code: string, label: string][] = [
  ['bill_of_lading', 'Bill of lading'],
  ['commercial_invoice', 'Commercial invoice'],
  ['packing_list', 'Packing list'],
  ['arrival_notice', 'Arrival notice'],
  ['delivery_order', 'Delivery order'],
];

/** The document types the account may use (`/documents/types`). */
export const documentTypes: readonly { code: string; label: string }[] = types.map(([code, label]) => ({
  code,
  label,
}));

/** One current schema version per type (`/document_schemas/{type@date}`). */
export function documentSchemas(startedAt: number): DocumentSchemaRec[] {
  return types.map(([code, label]) => ({
    id: `${code}@${SCHEMA_DATE}`,
    documentType: code,
    label,
    version: SCHEMA_DATE,
    createdAt: startedAt - 200 * DAY,
  }));
}

export const schemaIdOf = (documentType: string) => `${documentType}@${SCHEMA_DATE}`;

/** A document's file name and size, drawn from its own label. */
export function documentFileOf(
  seed: string,
  label: string,
  documentType: string,
  shipment: ShipmentPlan,
): { fileName: string; sizeBytes: number } {
  const random = new Random(`${seed}:document-file:${label}`);
  return {
    fileName: `${documentType.replaceAll('_', '-')}-${shipment.billOfLading}.pdf`,
    sizeBytes: random.int(1_500, 40_000),
  };
}

/** Arrival notices and delivery orders uploaded to about one shipment in four, once it has arrived. */
export function uploadedDocuments(seed: string, shipments: ShipmentPlan[], now: number): DocumentRec[] {
  const out: DocumentRec[] = [];
  shipments.forEach((s, i) => {
    if (i % 4 !== 1) return;
    const kinds = i % 8 === 1 ? ['arrival_notice', 'delivery_order'] : ['arrival_notice'];
    kinds.forEach((documentType, k) => {
      const label = `upload:${i}:${k}`;
      out.push({
        id: stableUuid(seed, `document:${label}`),
        name: `${types.find(([c]) => c === documentType)![1]} ${s.billOfLading}`,
        documentType,
        createdAt: Math.min(s.createdAt + (k + 1) * HOUR, now - HOUR),
        representationId: stableUuid(seed, `document_representation:${label}`),
        source: 'upload',
        ...documentFileOf(seed, label, documentType, s),
        emailSubmission: null,
        shipment: s,
      });
    });
  });
  return out;
}

/** A file's media type by its name: images as such, anything else the PDF the sandbox generates. */
export function contentTypeOf(fileName: string): string {
  const ext = /\.([a-z]+)$/i.exec(fileName)?.[1]?.toLowerCase();
  if (ext === 'png' || ext === 'gif' || ext === 'webp') return `image/${ext}`;
  if (ext === 'jpg' || ext === 'jpeg') return 'image/jpeg';
  if (ext === 'tif' || ext === 'tiff') return 'image/tiff';
  return 'application/pdf';
}

const fileCache = new WeakMap<AnyDocumentRec, Buffer>();

/** The document's file: a one-page PDF naming it, padded with a comment to its size. */
export function documentFileBytes(doc: AnyDocumentRec): Buffer {
  const hit = fileCache.get(doc);
  if (hit) return hit;
  const text = `${doc.name} (${doc.fileName})`.replace(/[()\\]/g, ' ');
  const stream = `BT /F1 14 Tf 72 720 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const at of offsets) body += `${String(at).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  const pad = Math.max(0, doc.sizeBytes - body.length - 1);
  const bytes = Buffer.from(pad > 0 ? `${body}%${'.'.repeat(pad - 1)}\n` : body, 'latin1');
  fileCache.set(doc, bytes);
  return bytes;
}

function signature(id: string, expires: number): string {
  return createHmac('sha256', SECRET).update(`${id}:${expires}`).digest('hex');
}

/** A presigned link to the document's file, valid for LINK_TTL_MS of simulated time. */
export function downloadUrl(origin: string, id: string, now: number): string {
  const expires = now + LINK_TTL_MS;
  return `${origin}${FILES_PREFIX}${encodeURIComponent(id)}?expires=${expires}&signature=${signature(id, expires)}`;
}

/** Whether a download link is the one the sandbox signed and has not expired. */
export function linkValid(id: string, url: URL, now: number): boolean {
  const expires = Number(url.searchParams.get('expires'));
  const given = Buffer.from(url.searchParams.get('signature') ?? '', 'utf8');
  const wanted = Buffer.from(signature(id, expires), 'utf8');
  return Number.isFinite(expires) && expires >= now && given.length === wanted.length && timingSafeEqual(given, wanted);
}
