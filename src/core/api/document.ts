/**
 * JSON:API documents as the Tracking API sends them, parsed tolerantly: the store keeps each
 * resource whole, so members we do not know are kept rather than stripped, and only what the
 * client and the sync engine rely on (ids, types, the shape of relationships) is checked.
 */
import { nextTurn } from '../loop-turns';
import { z } from 'zod';
import { MalformedResponseError } from './errors';

// Some services send numeric ids; the store keys everything by the string form.
const idSchema = z.union([z.string(), z.number()]).transform(String);

const refSchema = z.looseObject({ type: z.string(), id: idSchema });

const linkSchema = z.union([z.string(), z.looseObject({ href: z.string() }), z.null()]);
const linksSchema = z.record(z.string(), linkSchema);
const metaSchema = z.record(z.string(), z.unknown());

const relationshipSchema = z.looseObject({
  data: z.union([refSchema, z.array(refSchema), z.null()]).optional(),
  links: linksSchema.optional(),
  meta: metaSchema.optional(),
});

const resourceSchema = z.looseObject({
  type: z.string(),
  id: idSchema,
  attributes: z
    .record(z.string(), z.unknown())
    .nullish()
    .transform((v) => v ?? {}),
  relationships: z
    .record(z.string(), relationshipSchema)
    .nullish()
    .transform((v) => v ?? {}),
  links: linksSchema.optional(),
  meta: metaSchema.optional(),
});

const documentSchema = z
  .looseObject({
    data: z.union([resourceSchema, z.array(resourceSchema), z.null()]).optional(),
    errors: z.array(z.unknown()).optional(),
    included: z
      .array(resourceSchema)
      .nullish()
      .transform((v) => v ?? []),
    links: linksSchema.optional(),
    meta: metaSchema.optional(),
  })
  .refine((d) => d.data !== undefined || d.errors !== undefined || d.meta !== undefined, {
    message: 'a JSON:API document has data, errors or meta',
  });

/**
 * The document's frame alone, its resources taken as they are: `parseDocumentInSteps` checks
 * them apart, a slice at a time, with the same `resourceSchema`.
 */
const frameSchema = z
  .looseObject({
    data: z.union([resourceSchema, z.array(z.unknown()), z.null()]).optional(),
    errors: z.array(z.unknown()).optional(),
    included: z
      .array(z.unknown())
      .nullish()
      .transform((v) => v ?? []),
    links: linksSchema.optional(),
    meta: metaSchema.optional(),
  })
  .refine((d) => d.data !== undefined || d.errors !== undefined || d.meta !== undefined, {
    message: 'a JSON:API document has data, errors or meta',
  });

export type ResourceRef = z.infer<typeof refSchema>;
export type JsonApiLink = z.infer<typeof linkSchema>;
export type JsonApiRelationship = z.infer<typeof relationshipSchema>;
export type JsonApiResource = z.infer<typeof resourceSchema>;
export type JsonApiDocument = z.infer<typeof documentSchema>;

/**
 * Deeper than any answer of the service nests (a document's resources, a map's coordinates: about
 * ten), far shallower than where the readers after JSON.parse (JSON.stringify for `raw`, the copy
 * to the pages worker) run out of stack, which JSON.parse itself never does.
 */
export const MAX_JSON_DEPTH = 256;

/** Whether JSON text opens more than `max` arrays and objects inside one another (strings skipped). */
function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // To the string's closing quote, past its escapes.
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === 0x22) break;
      }
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** The text's JSON, or MalformedResponseError when it is none or nests deeper than MAX_JSON_DEPTH. */
export function jsonOf(text: string): unknown {
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
    throw new MalformedResponseError({ cause: new Error(`JSON nested deeper than ${MAX_JSON_DEPTH} levels`) });
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new MalformedResponseError({ cause: error });
  }
}

/** Throws MalformedResponseError when the text is not JSON or not a JSON:API document. */
export function parseDocument(text: string): JsonApiDocument {
  const json = jsonOf(text);
  const parsed = documentSchema.safeParse(json);
  if (!parsed.success) throw new MalformedResponseError({ cause: parsed.error });
  return parsed.data;
}

/**
 * One resource's JSON text checked as a page's resources are (its nesting, then its shape), or
 * null when it is none: records that reach the store another way than a page of the service's.
 */
export function resourceOf(text: string): JsonApiResource | null {
  let json: unknown;
  try {
    json = jsonOf(text);
  } catch {
    return null;
  }
  const parsed = resourceSchema.safeParse(json);
  return parsed.success ? parsed.data : null;
}

/** Resources checked between two turns of the event loop (a few ms: a page holds up to ~1,000). */
const RESOURCES_PER_STEP = 50;

async function resourcesInSteps(values: unknown[]): Promise<JsonApiResource[]> {
  const out = new Array<JsonApiResource>(values.length);
  for (let i = 0; i < values.length; i++) {
    if (i > 0 && i % RESOURCES_PER_STEP === 0) await nextTurn();
    const parsed = resourceSchema.safeParse(values[i]);
    if (!parsed.success) throw new MalformedResponseError({ cause: parsed.error });
    out[i] = parsed.data;
  }
  return out;
}

/**
 * `parseDocument` for the sync's pages, with the same result and the same refusals, but the
 * resources checked a slice at a time with the event loop let go between slices: a page of 100
 * shipments with their includes is ~30 ms of checking in one go, too long a task for the core's loop.
 */
export async function parseDocumentInSteps(text: string): Promise<JsonApiDocument> {
  const json = jsonOf(text);
  const frame = frameSchema.safeParse(json);
  if (!frame.success) throw new MalformedResponseError({ cause: frame.error });
  const doc = frame.data as JsonApiDocument & { data?: unknown; included: unknown[] };
  if (Array.isArray(doc.data)) doc.data = await resourcesInSteps(doc.data);
  doc.included = await resourcesInSteps(doc.included);
  return doc;
}

/** The primary data as a list, whether the document holds one resource, many or none. */
export function listResources(doc: JsonApiDocument): JsonApiResource[] {
  if (doc.data == null) return [];
  return Array.isArray(doc.data) ? doc.data : [doc.data];
}

/** The href of a link in either of its JSON:API forms. */
export function readLink(link: JsonApiLink | undefined): string | null {
  if (link == null) return null;
  return typeof link === 'string' ? link : link.href;
}

/**
 * The reference a to-one relationship holds: null when the API says there is none, undefined
 * when the document does not say (so a caller does not clear what it already knows).
 */
export function readRef(resource: JsonApiResource, name: string): ResourceRef | null | undefined {
  const data = resource.relationships[name]?.data;
  if (data === undefined) return undefined;
  if (data === null) return null;
  return Array.isArray(data) ? (data[0] ?? null) : data;
}

/** The references a to-many relationship holds; undefined when the document does not say. */
export function readRefs(resource: JsonApiResource, name: string): ResourceRef[] | undefined {
  const data = resource.relationships[name]?.data;
  if (data === undefined) return undefined;
  if (data === null) return [];
  return Array.isArray(data) ? data : [data];
}
