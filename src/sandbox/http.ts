/** JSON:API plumbing shared by the routes: documents, errors, paging, filters, bodies. */
import { collectIncluded, parseInclude } from './includes';
import { serialize, type Entity, type EntityType, type SerializeContext } from './serialize';
import type { ListSource } from './model';
import type { SandboxStore } from './store';

export const JSON_API = 'application/vnd.api+json';

export interface ApiError {
  status: string;
  title: string;
  detail?: string;
  source?: { pointer?: string; parameter?: string };
  code?: string;
  meta?: Record<string, unknown>;
}

export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface RouteContext {
  method: string;
  url: URL;
  /** `http://127.0.0.1:PORT`, for absolute paging links. */
  origin: string;
  params: string[];
  body: unknown;
  store: SandboxStore;
  ctx: SerializeContext;
}

/** Thrown by routes to answer with a JSON:API error document. */
export class HttpError extends Error {
  readonly status: number;
  readonly errors: ApiError[];
  readonly headers: Record<string, string>;
  constructor(status: number, errors: ApiError[], headers: Record<string, string> = {}) {
    super(errors[0]?.detail ?? errors[0]?.title ?? String(status));
    this.status = status;
    this.errors = errors;
    this.headers = headers;
  }
}

export function notFound(model?: string): HttpError {
  return new HttpError(404, [
    { status: '404', title: 'Not Found', ...(model ? { detail: `Couldn't find ${model}` } : {}) },
  ]);
}

export function badRequest(detail: string, parameter?: string): HttpError {
  return new HttpError(400, [
    { status: '400', title: 'Bad Request', detail, ...(parameter ? { source: { parameter } } : {}) },
  ]);
}

export function unprocessable(errors: { pointer: string; detail: string; code?: string }[]): HttpError {
  return new HttpError(
    422,
    errors.map((e) => ({
      status: '422',
      source: { pointer: e.pointer },
      title: 'Unprocessable Entity',
      detail: e.detail,
      ...(e.code ? { code: e.code } : {}),
    })),
  );
}

/**
 * Query parameters a route understands. Another `filter[...]` is refused in the reference's shape
 * and silently ignored in the live one (as the live service does); an unknown `sort` is refused in both.
 */
export function checkParams(route: Pick<RouteContext, 'url' | 'ctx'>, allowed: string[]): void {
  const live = route.ctx.shape !== 'reference';
  for (const name of route.url.searchParams.keys()) {
    if (allowed.includes(name)) continue;
    if (name === 'sort' || (name.startsWith('filter[') && !live)) {
      throw badRequest(`${name} is not supported on this endpoint`, name);
    }
  }
}

export function dateParam(url: URL, name: string): number | null {
  const raw = url.searchParams.get(name);
  if (raw === null || raw === '') return null;
  // ISO 8601 date or date-time; Date.parse alone accepts too much (e.g. "1").
  if (
    !/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(raw) ||
    Number.isNaN(Date.parse(raw))
  ) {
    throw badRequest(`${name} must be an ISO 8601 timestamp`, name);
  }
  return Date.parse(raw);
}

export function booleanParam(url: URL, name: string): boolean | null {
  const raw = url.searchParams.get(name);
  if (raw === null) return null;
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  throw badRequest(`${name} must be true or false`, name);
}

function intParam(url: URL, name: string, fallback: number): number {
  const raw = url.searchParams.get(name);
  if (raw === null || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) throw badRequest(`${name} must be a positive integer`, name);
  return Number(raw);
}

export interface Page {
  number: number;
  size: number;
}

export function pageOf(url: URL, defaultSize = 30): Page {
  return { number: intParam(url, 'page[number]', 1), size: Math.min(100, intParam(url, 'page[size]', defaultSize)) };
}

function pageLink(origin: string, url: URL, number: number, size: number): string {
  const params = new URLSearchParams(url.searchParams);
  params.set('page[number]', String(number));
  params.set('page[size]', String(size));
  // Brackets stay readable, as the service writes them.
  return `${origin}${url.pathname}?${params.toString().replace(/%5B/g, '[').replace(/%5D/g, ']')}`;
}

function selfLink(origin: string, url: URL): string {
  return `${origin}${url.pathname}${url.search.replace(/%5B/g, '[').replace(/%5D/g, ']')}`;
}

export function includeOf(route: RouteContext, type: EntityType, defaults: string[] = []): string[][] {
  const result = parseInclude(route.url.searchParams.get('include'), type, defaults);
  if (!result.ok) throw badRequest(result.detail, 'include');
  return result.paths;
}

/**
 * How a paged list's `meta` looks on the live service, by type: shipments `{total, size}`,
 * containers `{total}` alone, tracking requests also `pagination`, shipping lines none (links only).
 * Types not listed answer `{total, size}`, as the reference says every list does.
 */
const liveMeta: Partial<Record<EntityType, 'total' | 'none' | 'pagination'>> = {
  container: 'total',
  tracking_request: 'pagination',
  shipping_line: 'none',
};

/** The links and meta of one page of a list of `total` items, in the route's shape. */
function pagingMembers(
  route: RouteContext,
  type: EntityType,
  page: Page,
  total: number,
): { links: Record<string, string>; meta?: Record<string, unknown> } {
  const last = Math.max(1, Math.ceil(total / page.size));
  const link = (n: number) => pageLink(route.origin, route.url, n, page.size);
  const next = page.number < last ? page.number + 1 : null;
  if (route.ctx.shape === 'reference') {
    const links: Record<string, string> = { self: selfLink(route.origin, route.url), first: link(1), last: link(last) };
    if (page.number > 1) links.prev = link(Math.min(page.number - 1, last));
    if (next !== null) links.next = link(next);
    return { links, meta: { size: page.size, total } };
  }
  // Live: self, current, next, last; no first, no prev.
  const links: Record<string, string> = { self: selfLink(route.origin, route.url), current: link(page.number) };
  if (next !== null) links.next = link(next);
  links.last = link(last);
  const kind = liveMeta[type];
  if (kind === 'none') return { links };
  if (kind === 'total') return { links, meta: { total } };
  const meta: Record<string, unknown> = { size: page.size, total };
  if (kind === 'pagination') meta.pagination = { current: page.number, next, last, records: total };
  return { links, meta };
}

/**
 * A list document: one page of `items`, with links, meta and the included resources. An unpaged
 * list (`paged: false`) is one page of everything, with a self link only.
 */
export function listDocument(
  route: RouteContext,
  items: Entity[],
  type: EntityType,
  options: { defaultSize?: number; defaultInclude?: string[]; paged?: boolean } = {},
): Reply {
  return listDocumentOf(route, items, (entity) => entity, type, options);
}

/**
 * `listDocument` over any records, made entities only for the page served: a list of a million
 * values costs a page's work per request, not a million objects.
 */
export function listDocumentOf<T>(
  route: RouteContext,
  items: ListSource<T>,
  toEntity: (item: T) => Entity,
  type: EntityType,
  options: { defaultSize?: number; defaultInclude?: string[]; paged?: boolean } = {},
): Reply {
  const paths = includeOf(route, type, options.defaultInclude);
  const paged = options.paged ?? true;
  const page = paged ? pageOf(route.url, options.defaultSize) : { number: 1, size: Math.max(1, items.length) };
  const start = (page.number - 1) * page.size;
  const slice = items.slice(start, start + page.size).map(toEntity);
  const data = slice.map((entity) => serialize(entity, route.ctx));
  const body: Record<string, unknown> = { data };
  if (paths.length > 0) body.included = collectIncluded(slice, paths, route.ctx);
  if (paged) Object.assign(body, pagingMembers(route, type, page, items.length));
  else body.links = { self: selfLink(route.origin, route.url) };
  return { status: 200, body };
}

/** A single-resource document, with included resources when asked. */
export function resourceDocument(
  route: RouteContext,
  entity: Entity,
  options: { status?: number; defaultInclude?: string[]; selfLink?: boolean } = {},
): Reply {
  const paths = includeOf(route, entity.type, options.defaultInclude);
  const body: Record<string, unknown> = { data: serialize(entity, route.ctx) };
  if (paths.length > 0) body.included = collectIncluded([entity], paths, route.ctx);
  if (options.selfLink) body.links = { self: selfLink(route.origin, route.url) };
  return { status: options.status ?? 200, body };
}

/** The `data` member of a write request, checked for shape and type. */
export function bodyData(
  route: RouteContext,
  type: string,
  options: { typeRequired?: boolean; attributesRequired?: boolean } = {},
): { attributes: Record<string, unknown>; relationships: Record<string, unknown> } {
  const body = route.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw badRequest('The request body must be a JSON:API document with a data object');
  }
  const data = (body as { data?: unknown }).data;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw unprocessable([{ pointer: '/data', detail: 'data must be an object' }]);
  }
  const d = data as { type?: unknown; attributes?: unknown; relationships?: unknown };
  if (d.type === undefined && options.typeRequired) {
    throw unprocessable([{ pointer: '/data/type', detail: "Type can't be blank", code: 'blank' }]);
  }
  if (d.type !== undefined && d.type !== type) {
    throw new HttpError(409, [
      { status: '409', title: 'Conflict', detail: `data.type must be ${type}`, source: { pointer: '/data/type' } },
    ]);
  }
  if (d.attributes === undefined && options.attributesRequired) {
    throw unprocessable([{ pointer: '/data/attributes', detail: "Attributes can't be blank", code: 'blank' }]);
  }
  if (
    d.attributes !== undefined &&
    (typeof d.attributes !== 'object' || d.attributes === null || Array.isArray(d.attributes))
  ) {
    throw unprocessable([{ pointer: '/data/attributes', detail: 'attributes must be an object' }]);
  }
  const relationships =
    typeof d.relationships === 'object' && d.relationships !== null ? (d.relationships as Record<string, unknown>) : {};
  return { attributes: (d.attributes as Record<string, unknown> | undefined) ?? {}, relationships };
}

export function stringArray(value: unknown, pointer: string): string[] {
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) {
    throw unprocessable([{ pointer, detail: `${pointer.split('/').pop()} must be an array of strings` }]);
  }
  return value;
}

export function relationshipId(relationships: Record<string, unknown>, name: string): string | null {
  const rel = relationships[name];
  if (typeof rel !== 'object' || rel === null) return null;
  const data = (rel as { data?: unknown }).data;
  if (typeof data !== 'object' || data === null) return null;
  const id = (data as { id?: unknown }).id;
  return typeof id === 'string' ? id : null;
}
