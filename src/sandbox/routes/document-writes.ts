/**
 * Documents written through the API: created from an uploaded blob, their type and extracted data
 * set by hand, discarded, and the service's work on them asked again (extraction, classification,
 * linking, rotation), which the service queues and answers 202.
 */
import { contentTypeOf, documentTypes } from '../documents';
import { bodyData, HttpError, resourceDocument, unprocessable, type Reply, type RouteContext } from '../http';
import type { AnyDocumentRec } from '../model';
import { stableUuid } from '../random';
import { findDocument } from './documents';

const typeCodes = documentTypes.map((t) => t.code);

/** The type a new document is classified as: the first whose label's words its name holds, else a bill of lading. */
function classify(name: string): string {
  const lower = name.toLowerCase();
  return documentTypes.find((t) => lower.includes(t.label.toLowerCase()))?.code ?? 'bill_of_lading';
}

function linked(route: RouteContext, reply: Reply, id: string): Reply {
  (reply.body as Record<string, unknown>).links = { self: `${route.origin}/v2/documents/${id}` };
  return reply;
}

/** POST /documents: `name` and `attached_document`, the signed id of a blob uploaded before. */
export function createDocument(route: RouteContext): Reply {
  const { attributes } = bodyData(route, 'document', { typeRequired: true, attributesRequired: true });
  const problems: { pointer: string; detail: string; code: string }[] = [];
  const name = typeof attributes.name === 'string' ? attributes.name.trim() : '';
  if (name === '') problems.push({ pointer: '/data/attributes/name', detail: "Name can't be blank", code: 'blank' });
  else if (name.length > 255) {
    problems.push({
      pointer: '/data/attributes/name',
      detail: 'Name is too long (at most 255 characters)',
      code: 'too_long',
    });
  }
  const blob = typeof attributes.attached_document === 'string' ? attributes.attached_document.trim() : '';
  if (blob === '') {
    problems.push({
      pointer: '/data/attributes/attached_document',
      detail: "Attached document can't be blank",
      code: 'blank',
    });
  }
  if (problems.length > 0) throw unprocessable(problems);
  const store = route.store;
  const existing = store.createdDocuments.find((d) => d.blobId === blob);
  if (existing) {
    throw new HttpError(409, [
      {
        status: '409',
        title: 'Conflict',
        code: 'duplicate_document',
        detail: 'This file has already been uploaded',
        meta: { existing_document_id: existing.id, existing_document_name: existing.name },
      },
    ]);
  }
  const label = `document:api:${store.createdDocuments.length}:${blob}`;
  const seed = store.world.seed;
  const doc: AnyDocumentRec = {
    id: stableUuid(seed, label),
    name,
    documentType: classify(name),
    createdAt: route.ctx.now,
    representationId: stableUuid(seed, `document_representation:${label}`),
    source: 'api',
    fileName: /\.[a-z0-9]{2,4}$/i.test(name) ? name : `${name}.pdf`,
    // The blob's bytes are not sent to the sandbox: the file is a generated PDF of this size.
    sizeBytes: 2_048,
    emailSubmission: null,
    shipment: null,
    blobId: blob,
  };
  store.createdDocuments.push(doc);
  return linked(route, resourceDocument(route, { type: 'document', rec: doc }, { status: 201 }), doc.id);
}

/** PATCH /documents/{id}: `document_type_manual` (one of the account's types) and `extracted_data_manual`. */
export function editDocument(route: RouteContext): Reply {
  const doc = findDocument(route);
  const { attributes } = bodyData(route, 'document', { typeRequired: true, attributesRequired: true });
  const problems: { pointer: string; detail: string; code: string }[] = [];
  const type = attributes.document_type_manual;
  if (type !== undefined && (typeof type !== 'string' || !typeCodes.includes(type))) {
    problems.push({
      pointer: '/data/attributes/document_type_manual',
      detail: `Document type manual must be one of ${typeCodes.join(', ')}`,
      code: 'inclusion',
    });
  }
  const data = attributes.extracted_data_manual;
  if (data !== undefined && data !== null && (typeof data !== 'object' || Array.isArray(data))) {
    problems.push({
      pointer: '/data/attributes/extracted_data_manual',
      detail: 'Extracted data manual must be an object',
      code: 'invalid',
    });
  }
  if (problems.length > 0) throw unprocessable(problems);
  if (type !== undefined) doc.documentTypeManual = type as string;
  if (data !== undefined) doc.extractedDataManual = data as Record<string, unknown> | null;
  doc.updatedAt = route.ctx.now;
  return linked(route, resourceDocument(route, { type: 'document', rec: doc }), doc.id);
}

/** DELETE /documents/{id}: the document is discarded, from every list and its email submission. */
export function deleteDocument(route: RouteContext): Reply {
  const doc = findDocument(route);
  const { world, createdDocuments } = route.store;
  for (const list of [world.documents, createdDocuments, doc.emailSubmission?.documents ?? []] as AnyDocumentRec[][]) {
    const at = list.indexOf(doc);
    if (at >= 0) list.splice(at, 1);
  }
  return { status: 204 };
}

const accepted = (): Reply => ({ status: 202, body: { status: 'accepted' } });

/** POST /documents/{id}/reextract, reclassify and relink: queued, as the service does. */
export function queueDocumentWork(route: RouteContext): Reply {
  findDocument(route);
  return accepted();
}

/** POST /documents/{id}/rotate: `degrees` 90, 180 or 270, for image documents only. */
export function rotateDocument(route: RouteContext): Reply {
  const doc = findDocument(route);
  const degrees = (route.body as { degrees?: unknown } | undefined)?.degrees;
  if (degrees !== 90 && degrees !== 180 && degrees !== 270) {
    throw unprocessable([{ pointer: '/degrees', detail: 'Degrees must be 90, 180 or 270', code: 'inclusion' }]);
  }
  if (!contentTypeOf(doc.fileName).startsWith('image/')) {
    throw unprocessable([
      { pointer: '/degrees', detail: 'Only image documents can be rotated; this one is a PDF', code: 'invalid' },
    ]);
  }
  return accepted();
}
