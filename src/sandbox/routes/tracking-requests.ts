import type { TrackingRequestType } from '../model';
import {
  badRequest,
  bodyData,
  checkParams,
  dateParam,
  listDocument,
  notFound,
  relationshipId,
  resourceDocument,
  stringArray,
  unprocessable,
  type Reply,
  type RouteContext,
} from '../http';
import type { Entity } from '../serialize';
import { trackingRequestState } from '../state';

const statuses = ['pending', 'awaiting_manifest', 'created', 'failed', 'tracking_stopped'];
const requestTypes: TrackingRequestType[] = ['bill_of_lading', 'booking_number', 'container'];
const entity = (rec: Entity['rec']) => ({ type: 'tracking_request', rec }) as Entity;

export function listTrackingRequests(route: RouteContext): Reply {
  const { url } = route;
  checkParams(route, [
    'filter[request_number]',
    'filter[status]',
    'filter[scac]',
    'filter[created_at][start]',
    'filter[created_at][end]',
    'filter[updated_at][start]',
    'filter[updated_at][end]',
  ]);
  const now = route.ctx.now;
  const q = url.searchParams.get('q')?.trim().toUpperCase() || null;
  const number = url.searchParams.get('filter[request_number]');
  const status = url.searchParams.get('filter[status]');
  if (status !== null && !statuses.includes(status)) {
    throw badRequest(`filter[status] must be one of ${statuses.join(', ')}`, 'filter[status]');
  }
  const scac = url.searchParams.get('filter[scac]')?.toUpperCase() ?? null;
  const createdFrom = dateParam(url, 'filter[created_at][start]');
  const createdTo = dateParam(url, 'filter[created_at][end]');
  const updatedFrom = dateParam(url, 'filter[updated_at][start]');
  const updatedTo = dateParam(url, 'filter[updated_at][end]');
  const items: Entity[] = [];
  for (const r of route.store.trackingRequests) {
    if (r.createdAt > now) continue;
    if (number !== null && r.requestNumber !== number) continue;
    if (scac !== null && r.scac !== scac) continue;
    if (createdFrom !== null && r.createdAt < createdFrom) continue;
    if (createdTo !== null && r.createdAt > createdTo) continue;
    if (
      q !== null &&
      !r.requestNumber.toUpperCase().includes(q) &&
      !r.refNumbers.some((n) => n.toUpperCase().includes(q))
    ) {
      continue;
    }
    if (status !== null || updatedFrom !== null || updatedTo !== null) {
      const state = trackingRequestState(r, now);
      if (status !== null && state.status !== status) continue;
      if (updatedFrom !== null && state.updatedAt < updatedFrom) continue;
      if (updatedTo !== null && state.updatedAt > updatedTo) continue;
    }
    items.push(entity(r));
  }
  return listDocument(route, items, 'tracking_request', { defaultInclude: ['tracked_object'] });
}

function findRequest(route: RouteContext) {
  const request = route.store.trackingRequestById.get(route.params[0]!);
  if (!request || request.createdAt > route.ctx.now) throw notFound('TrackingRequest');
  return request;
}

export function getTrackingRequest(route: RouteContext): Reply {
  return resourceDocument(route, entity(findRequest(route)), { defaultInclude: ['tracked_object'] });
}

export function createTrackingRequest(route: RouteContext): Reply {
  const { attributes, relationships } = bodyData(route, 'tracking_request', { typeRequired: true });
  const problems: { pointer: string; detail: string; code?: string }[] = [];
  const requestType = attributes.request_type;
  if (requestType === undefined || requestType === null || requestType === '') {
    problems.push({ pointer: '/data/attributes/request_type', detail: "Request type can't be blank", code: 'blank' });
  } else if (typeof requestType !== 'string' || !requestTypes.includes(requestType as TrackingRequestType)) {
    problems.push({
      pointer: '/data/attributes/request_type',
      detail: `Request type '${(typeof requestType === 'string' ? requestType : JSON.stringify(requestType)).slice(0, 40)}' is not one of ${requestTypes.join(', ')}`,
      code: 'inclusion',
    });
  }
  const rawNumber = attributes.request_number;
  const requestNumber = typeof rawNumber === 'string' ? rawNumber.trim().toUpperCase() : '';
  if (requestNumber === '') {
    problems.push({
      pointer: '/data/attributes/request_number',
      detail: "Request number can't be blank",
      code: 'blank',
    });
  } else if (!/^[A-Z0-9-]{4,35}$/.test(requestNumber)) {
    problems.push({
      pointer: '/data/attributes/request_number',
      detail: `Request number '${requestNumber.slice(0, 40)}' is not a valid number`,
      code: 'invalid',
    });
  }
  const autoDetect = attributes.auto_detect_vocc_scac === true;
  const rawScac = attributes.scac;
  let scac: string | null = null;
  if (rawScac === undefined || rawScac === null || rawScac === '') {
    if (!autoDetect) problems.push({ pointer: '/data/attributes/scac', detail: "Scac can't be blank", code: 'blank' });
  } else if (typeof rawScac !== 'string') {
    problems.push({ pointer: '/data/attributes/scac', detail: 'Scac must be a string', code: 'invalid' });
  } else {
    const line = route.store.lineByScac.get(rawScac.toUpperCase());
    if (!line) {
      problems.push({
        pointer: '/data/attributes/scac',
        detail: `Scac '${rawScac.slice(0, 10)}' is not recognized`,
        code: 'invalid',
      });
    } else if (!line.data.supported) {
      problems.push({
        pointer: '/data/attributes/scac',
        detail: `Scac '${line.data.scac}' is not supported. We do not currently integrate with ${line.data.name}`,
        code: 'unsupported',
      });
    } else {
      scac = line.data.scac;
    }
  }
  const refNumbers =
    attributes.ref_numbers === undefined ? [] : stringArray(attributes.ref_numbers, '/data/attributes/ref_numbers');
  const tags =
    attributes.shipment_tags === undefined
      ? []
      : stringArray(attributes.shipment_tags, '/data/attributes/shipment_tags');
  const customerId = relationshipId(relationships, 'customer');
  const customer = customerId === null ? null : (route.store.partyById.get(customerId) ?? null);
  if (customerId !== null && !customer) {
    problems.push({
      pointer: '/data/relationships/customer',
      detail: `Customer '${customerId.slice(0, 40)}' not found`,
      code: 'invalid',
    });
  }
  if (problems.length > 0) throw unprocessable(problems);
  const existing = activeRequestFor(route, requestType as TrackingRequestType, requestNumber, scac);
  if (existing) return duplicateReply(existing.id, requestNumber);
  const request = route.store.createTrackingRequest({
    requestType: requestType as TrackingRequestType,
    requestNumber,
    scac,
    refNumbers,
    tags,
    customer,
    now: route.ctx.now,
  });
  const reply = resourceDocument(route, entity(request), { status: 201 });
  reply.headers = { location: `${route.origin}/v2/tracking_requests/${request.id}` };
  return reply;
}

/** Statuses in which the live service refuses a second request for the same number. */
const duplicateOf = new Set(['pending', 'awaiting_manifest', 'created']);

/**
 * The request for this number, line and type that is still pending or tracked: the live service
 * answers a second one with 422 `duplicate`. A failed (or stopped) one may be requested again.
 */
function activeRequestFor(route: RouteContext, requestType: TrackingRequestType, number: string, scac: string | null) {
  const now = route.ctx.now;
  return route.store.trackingRequests.find(
    (r) =>
      r.requestNumber === number &&
      r.requestType === requestType &&
      (scac === null || r.scac === null || r.scac === scac) &&
      r.createdAt <= now &&
      duplicateOf.has(trackingRequestState(r, now).status),
  );
}

function duplicateReply(existingId: string, number: string): Reply {
  return {
    status: 422,
    body: {
      errors: [
        {
          status: '422',
          code: 'duplicate',
          title: 'Duplicate tracking request',
          detail: `A tracking request for ${number} already exists.`,
          source: { pointer: '/data/attributes/request_number' },
          meta: { tracking_request_id: existingId },
        },
      ],
    },
  };
}

export function editTrackingRequest(route: RouteContext): Reply {
  const request = findRequest(route);
  const { attributes } = bodyData(route, 'tracking_request');
  const editable = ['ref_number', 'ref_numbers', 'tags'];
  const unknown = Object.keys(attributes).filter((name) => !editable.includes(name));
  if (unknown.length > 0) {
    throw unprocessable(
      unknown.map((name) => ({ pointer: `/data/attributes/${name}`, detail: `${name} is not an editable attribute` })),
    );
  }
  if (attributes.ref_number !== undefined) {
    if (typeof attributes.ref_number !== 'string') {
      throw unprocessable([{ pointer: '/data/attributes/ref_number', detail: 'ref_number must be a string' }]);
    }
    request.refNumbers = attributes.ref_number === '' ? [] : [attributes.ref_number];
  }
  if (attributes.ref_numbers !== undefined)
    request.refNumbers = stringArray(attributes.ref_numbers, '/data/attributes/ref_numbers');
  if (attributes.tags !== undefined) request.tags = [...new Set(stringArray(attributes.tags, '/data/attributes/tags'))];
  request.editedAt = route.ctx.now;
  return resourceDocument(route, entity(request));
}

export { statuses as trackingRequestStatuses };
