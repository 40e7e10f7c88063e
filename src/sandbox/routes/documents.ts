/**
 * Documents as the reference serves them: the list (filters by file name, reference and types;
 * sort by type, added-by or creation; includes), one document, the account's types, a schema
 * version, and a presigned download link to the file (served by `serveDocumentFile`, without the
 * key, as the service's storage serves it).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { documentFileBytes, documentSchemas, documentTypes, downloadUrl, FILES_PREFIX, linkValid } from '../documents';
import {
  badRequest,
  HttpError,
  listDocument,
  notFound,
  resourceDocument,
  type Reply,
  type RouteContext,
} from '../http';
import type { AnyDocumentRec } from '../model';
import type { Entity } from '../serialize';
import type { SandboxStore } from '../store';

function visible(route: RouteContext): AnyDocumentRec[] {
  return route.store.documents().filter((d) => d.createdAt <= route.ctx.now);
}

export function findDocument(route: RouteContext): AnyDocumentRec {
  const doc = visible(route).find((d) => d.id === route.params[0]);
  if (!doc) throw notFound('Document');
  return doc;
}

const sorts: Record<string, (d: AnyDocumentRec) => string | number> = {
  document_type: (d) => d.documentType,
  added_by: (d) => d.source,
  created_at: (d) => d.createdAt,
};

export function listDocuments(route: RouteContext): Reply {
  const q = route.url.searchParams;
  let docs = visible(route);
  const filename = q.get('filter[filename]')?.trim().toLowerCase();
  if (filename) docs = docs.filter((d) => d.fileName.toLowerCase().includes(filename));
  const reference = q.get('filter[reference]')?.trim().toLowerCase();
  if (reference) docs = docs.filter((d) => d.shipment?.billOfLading.toLowerCase() === reference);
  const typesParam = q.get('filter[document_types]');
  if (typesParam) {
    const wanted = new Set(typesParam.split(',').map((t) => t.trim()));
    docs = docs.filter((d) => wanted.has(d.documentType));
  }
  const sort = q.get('sort') ?? '-created_at';
  const field = sort.replace(/^-/, '');
  const key = sorts[field];
  if (!key) throw badRequest(`${field} is not a sortable field`, 'sort');
  const sign = sort.startsWith('-') ? -1 : 1;
  docs = [...docs].sort((a, b) => {
    const x = key(a);
    const y = key(b);
    return (x < y ? -1 : x > y ? 1 : a.id < b.id ? -1 : 1) * sign;
  });
  const items = docs.map((rec): Entity => ({ type: 'document', rec }));
  return listDocument(route, items, 'document');
}

export function getDocument(route: RouteContext): Reply {
  return resourceDocument(route, { type: 'document', rec: findDocument(route) }, { selfLink: true });
}

export function listDocumentTypes(): Reply {
  return { status: 200, body: { document_types: documentTypes } };
}

export function getDocumentSchema(route: RouteContext): Reply {
  const id = route.params[0]!;
  const schema = documentSchemas(route.store.world.startedAt).find((s) => s.id === id);
  if (!schema) {
    throw new HttpError(404, [
      { status: '404', title: 'Not Found', detail: `Couldn't find DocumentSchema with 'id'=${id.slice(0, 100)}` },
    ]);
  }
  return resourceDocument(route, { type: 'document_schema', rec: schema }, { selfLink: true });
}

export function getDownloadUrl(route: RouteContext): Reply {
  const doc = findDocument(route);
  return {
    status: 200,
    body: { download_url: downloadUrl(route.origin, doc.id, route.ctx.now) },
  };
}

/**
 * Serves a download link's file when the path is one (true), without the API key: the link's
 * signature is the permission. A wrong or expired signature is 403, an unknown document 404,
 * as storage answers, in XML-free plain text.
 */
export function serveDocumentFile(
  store: SandboxStore,
  now: number,
  url: URL,
  request: IncomingMessage,
  response: ServerResponse,
): boolean {
  if (!url.pathname.startsWith(FILES_PREFIX)) return false;
  const plain = (status: number, text: string) => {
    response.writeHead(status, { 'content-type': 'text/plain' });
    response.end(text);
  };
  let id: string;
  try {
    id = decodeURIComponent(url.pathname.slice(FILES_PREFIX.length));
  } catch {
    plain(404, 'Not Found');
    return true;
  }
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    plain(405, 'Method Not Allowed');
    return true;
  }
  if (!linkValid(id, url, now)) {
    plain(403, 'Request has expired or its signature does not match');
    return true;
  }
  const doc = store.documents().find((d) => d.id === id);
  if (!doc) {
    plain(404, 'Not Found');
    return true;
  }
  const bytes = documentFileBytes(doc);
  response.writeHead(200, {
    'content-type': 'application/pdf',
    'content-length': String(bytes.length),
    etag: `"${doc.id.slice(0, 8)}-${doc.createdAt}"`,
  });
  response.end(request.method === 'HEAD' ? undefined : bytes);
  return true;
}
