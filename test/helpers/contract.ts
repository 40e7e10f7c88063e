import { readFileSync } from 'node:fs';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

/**
 * Contract checks for the Shipment Tracking API simulator: responses are validated against the schemas of the
 * service's public OpenAPI 0.2.0 reference, trimmed into test/fixtures/tracking-api (the project never reads the
 * reference itself). OpenAPI 3.0 schemas are converted to JSON Schema draft-07 for Ajv, and a few mistakes in the
 * reference are corrected at load time (see `correctReference`).
 */

type Schema = Record<string, unknown>;

interface ResponseSpec {
  content?: Record<string, { schema?: Schema }>;
}

interface TrimmedDocument {
  paths: Record<string, Record<string, { responses: Record<string, ResponseSpec> }>>;
  components: { schemas: Record<string, Schema> };
}

const FIXTURE = new URL('../fixtures/tracking-api/openapi-trimmed.json', import.meta.url);
// Refs are rewritten to point into one registered document, so every compiled operation shares the component schemas.
const DOC_ID = 'https://quayside.invalid/tracking-api.json';
const COMPONENT_PREFIX = '#/components/schemas/';
const JSON_TYPE = 'application/json';
const LINK_KEYS = new Set(['self', 'related', 'first', 'last', 'prev', 'next']);
/**
 * A link is an absolute http(s) URL or a host-relative path. Not RFC 3986's uri-reference: the service (and the
 * reference's examples) put unencoded brackets in pagination queries, e.g. `?page[number]=2`.
 */
const LINK_FORMAT = 'json-api-link';
const LINK_PATTERN = /^(?:https?:\/\/[^\s/?#]+(?:[/?#]\S*)?|\/\S*)$/i;

interface Harness {
  ajv: Ajv;
  doc: TrimmedDocument;
  validators: Map<string, ValidateFunction | null>;
  errorBody: ValidateFunction;
}

let harness: Harness | undefined;

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Walks to a schema node of the reference, failing loudly so a refreshed fixture makes us revisit each correction. */
function node(root: Schema, path: readonly string[], what: string): Schema {
  let current: unknown = root;
  for (const key of path) {
    current = isSchema(current) ? current[key] : undefined;
  }
  if (!isSchema(current)) {
    throw new Error(`Contract harness: the correction for ${what} no longer matches the trimmed reference`);
  }
  return current;
}

function expectEnum(schema: Schema, expected: readonly unknown[], what: string): void {
  if (JSON.stringify(schema.enum) !== JSON.stringify(expected)) {
    throw new Error(`Contract harness: the correction for ${what} no longer matches the trimmed reference`);
  }
}

/** Fixes, in our in-memory copy only, the places where the reference contradicts the payloads the service sends. */
function correctReference(schemas: Record<string, Schema>): void {
  // The container model's `type` enum was copied from the account model; every container resource says 'container'.
  const containerType = node(schemas, ['container', 'properties', 'type'], 'container type');
  expectEnum(containerType, ['account'], 'container type');
  containerType.enum = ['container'];

  // A transport event's vessel linkage names its discriminator `name` instead of JSON:API's `type`.
  const vesselLinkage = node(
    schemas,
    ['transport_event', 'properties', 'relationships', 'properties', 'vessel', 'properties', 'data', 'properties'],
    'transport event vessel linkage',
  );
  if (vesselLinkage.name === undefined || vesselLinkage.type !== undefined) {
    throw new Error('Contract harness: the correction for transport event vessel linkage no longer applies');
  }
  vesselLinkage.type = vesselLinkage.name;
  delete vesselLinkage.name;

  // JSON:API sends an empty to-one relationship as `"data": null`, and the reference's own examples do so for these
  // linkages, yet their schemas do not allow null. Only the linkages seen null in the examples are relaxed.
  const nullableLinkages: [string, string][] = [
    ['shipment', 'destination_terminal'],
    ['shipment', 'line_tracking_stopped_by_user'],
    ['shipment', 'pod_terminal'],
    ['container', 'pickup_facility'],
    ['raw_event', 'location'],
    ['raw_event', 'vessel'],
    ['tracking_request', 'customer'],
  ];
  for (const [model, relationship] of nullableLinkages) {
    const path = [model, 'properties', 'relationships', 'properties', relationship, 'properties', 'data'];
    node(schemas, path, `${model}.${relationship} linkage`).nullable = true;
  }

  // Raw events without a location (e.g. the examples' "Truck Arrival in") send `location_name: null`, like the
  // neighbouring location_locode that the reference already marks nullable.
  node(
    schemas,
    ['raw_event', 'properties', 'attributes', 'properties', 'location_name'],
    'raw event location name',
  ).nullable = true;

  // The live service writes a port's position as decimal text ("35.10162"), the reference as a number.
  for (const axis of ['latitude', 'longitude']) {
    const position = node(schemas, ['port', 'properties', 'attributes', 'properties', axis], `port ${axis}`);
    if (position.type !== 'number')
      throw new Error(`Contract harness: the correction for port ${axis} no longer applies`);
    delete position.type;
    position.anyOf = [{ type: 'number' }, { type: 'string', pattern: '^-?\\d+(\\.\\d+)?$' }];
  }

  // Email submissions list `user` among their includes but the reference never defines it; a user is an ordinary
  // resource object, so only its identity is checked.
  if (schemas.user !== undefined) throw new Error('Contract harness: the reference now defines `user`');
  schemas.user = {
    type: 'object',
    required: ['id', 'type'],
    properties: { id: { type: 'string' }, type: { type: 'string', enum: ['user'] }, attributes: { type: 'object' } },
  };
}

/**
 * A shipment's `destination` may be a metro area and its `destination_terminal` a rail terminal (the shipment
 * model's own linkage enums say so, as do the transport events' includes), but the shipment endpoints' `included`
 * lists only container, port and terminal: the two models are added there.
 */
function correctIncludes(doc: TrimmedDocument): void {
  for (const path of ['/shipments', '/shipments/{id}']) {
    const operation = doc.paths[path]?.get as unknown as Schema | undefined;
    const included = node(
      operation ?? {},
      ['responses', '200', 'content', 'application/json', 'schema', 'properties', 'included', 'items'],
      `${path} included`,
    );
    const branches = included.anyOf as { $ref: string }[];
    const refs = branches.map((b) => b.$ref);
    if (refs.some((r) => r.endsWith('/metro_area')))
      throw new Error(`Contract harness: ${path} now includes metro areas`);
    branches.push({ $ref: `${COMPONENT_PREFIX}metro_area` }, { $ref: `${COMPONENT_PREFIX}rail_terminal` });
  }
}

/**
 * A webhook notification's `reference_object` may be a `container_updated_event` (its own linkage enum says so, and
 * `GET /webhook_notifications/{id}` includes it), but the list's `included` forgets it: the model is added there. And the notification events `container.transport.estimated.*` refer to an estimate, but
 * the estimated event's `event` enum names only the shipment's arrival: the container estimates are added to it.
 */
function correctWebhookNotifications(doc: TrimmedDocument): void {
  for (const path of ['/webhook_notifications']) {
    const operation = doc.paths[path]?.get as unknown as Schema | undefined;
    const included = node(
      operation ?? {},
      ['responses', '200', 'content', 'application/json', 'schema', 'properties', 'included', 'items'],
      `${path} included`,
    );
    const branches = included.anyOf as { $ref: string }[];
    if (branches.some((b) => b.$ref.endsWith('/container_updated_event')))
      throw new Error(`Contract harness: ${path} now includes container updated events`);
    branches.push({ $ref: `${COMPONENT_PREFIX}container_updated_event` });
  }
  const event = node(
    doc.components.schemas,
    ['estimated_event', 'properties', 'attributes', 'properties', 'event'],
    'estimated_event.event',
  );
  const names = event.enum as string[];
  for (const name of [
    'container.transport.estimated.vessel_arrived',
    'container.transport.estimated.vessel_departed',
    'container.transport.estimated.arrived_at_inland_destination',
  ]) {
    if (names.includes(name)) throw new Error(`Contract harness: estimated_event.event now names ${name}`);
    names.push(name);
  }
}

/**
 * The live service types every search result `search_result` (what it found is `entity_type`); the reference types
 * each by what it found. Both are accepted.
 */
function correctSearch(doc: TrimmedDocument): void {
  const operation = doc.paths['/search']?.get as unknown as Schema | undefined;
  const type = node(
    operation ?? {},
    ['responses', '200', 'content', 'application/json', 'schema', 'properties', 'data', 'items', 'properties', 'type'],
    '/search result type',
  );
  expectEnum(type, ['shipment', 'cargo', 'tracking_request'], '/search result type');
  type.enum = ['shipment', 'cargo', 'tracking_request', 'search_result'];
}

function refTarget(ref: string): string {
  if (!ref.startsWith(COMPONENT_PREFIX)) throw new Error(`Contract harness: unsupported $ref ${ref}`);
  return ref.slice(COMPONENT_PREFIX.length);
}

/** Converts one OpenAPI 3.0 schema node (and its children) into draft-07 JSON Schema. */
function toJsonSchema(schema: unknown, schemas: Record<string, Schema>, propertyName?: string): unknown {
  if (!isSchema(schema)) return schema;
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'properties' && isSchema(value)) {
      out.properties = Object.fromEntries(
        Object.entries(value).map(([name, sub]) => [name, toJsonSchema(sub, schemas, name)]),
      );
    } else if ((key === 'items' || key === 'additionalProperties' || key === 'not') && isSchema(value)) {
      out[key] = toJsonSchema(value, schemas);
    } else if ((key === 'allOf' || key === 'oneOf') && Array.isArray(value)) {
      out[key] = value.map((sub) => toJsonSchema(sub, schemas));
    } else if (key === 'anyOf' && Array.isArray(value)) {
      Object.assign(out, byResourceType(value, schemas) ?? { anyOf: value.map((sub) => toJsonSchema(sub, schemas)) });
    } else if (key === '$ref' && typeof value === 'string') {
      out.$ref = `${DOC_ID}${COMPONENT_PREFIX}${refTarget(value)}`;
    } else if (key !== 'nullable') {
      out[key] = value;
    }
  }

  // Ids are documented as uuids, but clients must treat them as opaque strings and the simulator's are not all uuids.
  if (propertyName === 'id' && out.format === 'uuid') delete out.format;
  // Links are documented as absolute URIs, but relative ones such as "/v2/shipments/1" are sent too.
  if (propertyName !== undefined && LINK_KEYS.has(propertyName) && out.format === 'uri') out.format = LINK_FORMAT;

  if (schema.nullable === true) {
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...(out.enum as unknown[]), null];
    if (typeof out.type === 'string') {
      out.type = [out.type, 'null'];
    } else if (out.type === undefined) {
      return { anyOf: [out, { type: 'null' }] };
    }
  }
  return out;
}

/**
 * `included` arrays are unions of resource models. As a plain anyOf, one bad resource yields an error from every
 * branch; dispatching on the JSON:API `type` reports only the model the resource claims to be.
 */
function byResourceType(branches: unknown[], schemas: Record<string, Schema>): Schema | undefined {
  const dispatch: { type: string; branch: unknown }[] = [];
  for (const branch of branches) {
    if (!isSchema(branch)) return undefined;
    const model = typeof branch.$ref === 'string' ? schemas[refTarget(branch.$ref)] : branch;
    const typeSchema = isSchema(model) && isSchema(model.properties) ? model.properties.type : undefined;
    const values = isSchema(typeSchema) ? typeSchema.enum : undefined;
    if (!Array.isArray(values) || values.length !== 1 || typeof values[0] !== 'string') return undefined;
    if (dispatch.some((entry) => entry.type === values[0])) return undefined;
    dispatch.push({ type: values[0], branch });
  }
  return {
    type: 'object',
    required: ['type'],
    properties: { type: { enum: dispatch.map((entry) => entry.type) } },
    allOf: dispatch.map((entry) => ({
      if: { properties: { type: { const: entry.type } } },
      then: toJsonSchema(entry.branch, schemas),
    })),
  };
}

/**
 * No response schema in the reference requires anything at the top level, so `{}` would pass every one of them.
 * JSON:API documents carry `data` (success) or `errors` (failure); whichever the schema declares is made required.
 */
function requirePrimaryMember(schema: Schema): Schema {
  const declared = isSchema(schema.properties) ? schema.properties : {};
  const member = ['data', 'errors'].find((name) => name in declared);
  if (member === undefined) return schema;
  const required = Array.isArray(schema.required) ? (schema.required as unknown[]) : [];
  return required.includes(member) ? schema : { ...schema, required: [...required, member] };
}

function load(): Harness {
  if (harness) return harness;
  const doc = JSON.parse(readFileSync(FIXTURE, 'utf8')) as TrimmedDocument;
  correctReference(doc.components.schemas);
  correctIncludes(doc);
  correctWebhookNotifications(doc);
  correctSearch(doc);
  const schemas = doc.components.schemas;
  const converted = Object.fromEntries(Object.entries(schemas).map(([name, s]) => [name, toJsonSchema(s, schemas)]));

  // verbose keeps the offending value on each error, so format problems can quote it.
  const ajv = new Ajv({ strict: false, allErrors: true, verbose: true });
  // Full mode: a date-time must carry a zone offset (RFC 3339), as every timestamp in the reference's examples does.
  addFormats(ajv);
  ajv.addFormat(LINK_FORMAT, LINK_PATTERN);
  ajv.addSchema({ $id: DOC_ID, components: { schemas: converted } });

  // The reference's error model leaves status optional and both status and title nullable; JSON:API clients such as
  // Quayside's read both, so the simulator must always send them as strings.
  if (!isSchema(converted.error)) throw new Error('Contract harness: the reference no longer defines `error`');
  const error = structuredClone(converted.error);
  error.required = ['status', 'title'];
  error.properties = { ...(error.properties as Schema), status: { type: 'string' }, title: { type: 'string' } };
  const errorBody = ajv.compile({
    type: 'object',
    required: ['errors'],
    properties: { errors: { type: 'array', minItems: 1, items: error } },
  });

  harness = { ajv, doc, validators: new Map(), errorBody };
  return harness;
}

function describeError(error: ErrorObject): string {
  const where = error.instancePath === '' ? '(root)' : error.instancePath;
  const params = error.params as Record<string, unknown>;
  let detail = '';
  if (error.keyword === 'enum' && Array.isArray(params.allowedValues)) {
    detail = `: ${params.allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
  } else if (error.keyword === 'format' && error.data !== undefined) {
    detail = ` (got ${JSON.stringify(error.data)})`;
  }
  return `${where} ${error.message ?? error.keyword}${detail}`;
}

function problems(validate: ValidateFunction, body: unknown): string[] {
  if (validate(body)) return [];
  // "must match then schema" only wraps the real error reported beside it.
  return (validate.errors ?? []).filter((error) => error.keyword !== 'if').map(describeError);
}

/**
 * Validates a response body against the reference's schema for one operation and status code. Returns readable
 * problems, empty when the body conforms. Throws when the operation or status is not in the trimmed reference.
 */
export function validateResponse(method: string, pathTemplate: string, status: number, body: unknown): string[] {
  const { ajv, doc, validators } = load();
  const verb = method.toLowerCase();
  const key = `${verb} ${pathTemplate} ${status}`;
  let validate = validators.get(key);
  if (validate === undefined) {
    const operation = doc.paths[pathTemplate]?.[verb];
    if (!operation) {
      throw new Error(`Contract harness: ${method.toUpperCase()} ${pathTemplate} is not in the reference`);
    }
    const response = operation.responses[String(status)];
    if (!response) {
      const known = Object.keys(operation.responses).join(', ');
      throw new Error(`Contract harness: ${method.toUpperCase()} ${pathTemplate} has no ${status} response (${known})`);
    }
    const schema = response.content?.[JSON_TYPE]?.schema;
    validate = schema
      ? ajv.compile(requirePrimaryMember(toJsonSchema(schema, doc.components.schemas) as Schema))
      : null;
    validators.set(key, validate);
  }
  if (validate === null) {
    // The reference documents this response without a body.
    return body === undefined || body === null || body === '' ? [] : ['(root) must be empty: no body is documented'];
  }
  return problems(validate, body);
}

/** Validates a JSON:API error document (`{ errors: [{ status, title, detail?, source?, code? }] }`). */
export function validateErrorBody(body: unknown): string[] {
  return problems(load().errorBody, body);
}
