/** Argument schemas of the IPC channels, and the list views' filters and sorts by registry name. */
import { z } from 'zod';
import { baseUrlSchema } from './base-url';
import { isTimeZone } from './date-formatters';
import { listNames, listViews, viewIdOf, type ListName, type ViewId } from './list-views';
import { customFieldFilterSchema, customFieldSlugSchema, pageRequestSchema, type Sort } from './views';

export { listViews, type ListName } from './list-views';

// Per-view maps, so code generic over a list name (`ListFilters<L>`) still sees an object type.
type FiltersByView = { [V in ListName]: z.input<(typeof listViews)[V]['filters']> };
type SortFieldByView = { [V in ListName]: z.output<(typeof listViews)[V]['sort']>['field'] };
/** A list's filters, from its filter schema: a wrong key or value type fails tsc. */
export type ListFilters<V extends ListName> = FiltersByView[V];
/** The fields a list sorts by, from its sort schema. */
export type ListSortField<V extends ListName> = SortFieldByView[V];
export type ListSort<V extends ListName> = Sort<ListSortField<V>>;

/**
 * The filters in `raw` that the view's schema accepts, each checked on its own: an unknown key or
 * a bad value (a hand-edited link, an older Quayside's saved state) is dropped, the rest kept.
 * Anything but an object gives no filters.
 */
function knownFilters<S extends z.ZodObject>(schema: S, raw: unknown): z.output<S> {
  const kept = new Map<string, unknown>();
  if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) {
    const fields = new Map<string, z.core.$ZodType>(Object.entries(schema.shape));
    for (const [key, value] of Object.entries(raw)) {
      const field = fields.get(key);
      if (key === 'customFields' && field) kept.set(key, knownCustomFieldFilters(value));
      else if (field && z.safeParse(field, value).success) kept.set(key, value);
    }
  }
  const checked = schema.safeParse(Object.fromEntries(kept));
  return checked.success ? checked.data : schema.parse({});
}
/** The custom field filters in `raw` that are well formed, each checked on its own (the first 20). */
function knownCustomFieldFilters(raw: unknown): Record<string, unknown> | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
  const kept = Object.entries(raw)
    .filter(
      ([slug, filter]) =>
        customFieldSlugSchema.safeParse(slug).success && customFieldFilterSchema.safeParse(filter).success,
    )
    .slice(0, 20);
  return kept.length > 0 ? Object.fromEntries(kept) : undefined;
}

export function parseListFilters<V extends ListName>(view: V, raw: unknown): ListFilters<V> {
  return knownFilters(listViews[view].filters, raw) as ListFilters<V>;
}

/** The sort in `raw` when the view's schema accepts it (a field it sorts by, asc or desc), else null. */
export function parseListSort<V extends ListName>(view: V, raw: unknown): ListSort<V> | null {
  return (listViews[view].sort.safeParse(raw).data ?? null) as ListSort<V> | null;
}

/**
 * A list view's channel arguments. No filters means none; no sort, the store's default.
 * `list` and `count` are the `<name>:list` and `<name>:count` channels'; `export` is one arm of
 * `export:list`, whose `view` is the list's view id.
 */
function argumentsOf<V extends ListName>(name: V) {
  // One list's schemas, erased to build them and typed back as that list's.
  const schemas: { filters: z.ZodObject; sort: z.ZodObject } = listViews[name];
  const filters = schemas.filters.default({}) as unknown as z.ZodDefault<(typeof listViews)[V]['filters']>;
  const sort = schemas.sort.optional() as unknown as z.ZodOptional<(typeof listViews)[V]['sort']>;
  return {
    list: z.object({ filters, sort, page: pageRequestSchema.default({ limit: 100 }) }).strict(),
    count: z.object({ filters }).strict(),
    export: z
      .object({
        view: z.literal<ViewId<V>>(viewIdOf(name)),
        filters,
        sort,
        columns: z.array(z.string().max(60)).max(80).optional(),
        headerStyle: z.enum(['human', 'keys']).default('human'),
        /** CSV (the default) or an Excel workbook of the same rows, order and columns. */
        format: z.enum(['csv', 'xlsx']).default('csv'),
      })
      .strict(),
  };
}
export const listArguments = Object.fromEntries(listNames.map((name) => [name, argumentsOf(name)])) as {
  [V in ListName]: ReturnType<typeof argumentsOf<V>>;
};

export const idSchema = z.object({ id: z.string().min(1).max(200) }).strict();

const apiKey = z
  .string()
  .trim()
  .min(8, 'An API key is at least 8 characters')
  .max(200)
  .regex(/^[\x21-\x7e]+$/, 'An API key has no spaces or special characters');
// The key travels in every request: one rule for where it may go (see base-url.ts).
const baseUrl = baseUrlSchema;
const profileName = z.string().trim().min(1, 'Give the profile a name').max(80);

export const addProfileSchema = z.object({ name: profileName, apiKey, baseUrl: baseUrl.optional() }).strict();
/** A team hub account: the hub's PostgreSQL address, its read-only role's password, and this computer's own API key (optional). */
export const addHubProfileSchema = z
  .object({
    name: profileName,
    hubUrl: z.string().trim().min(1, 'Enter the PostgreSQL address').max(2000),
    password: z.string().max(1000).optional(),
    apiKey: apiKey.optional(),
    baseUrl: baseUrl.optional(),
  })
  .strict();
export const updateProfileSchema = z
  .object({
    id: z.string().min(1).max(100),
    name: profileName.optional(),
    apiKey: apiKey.optional(),
    baseUrl: baseUrl.optional(),
  })
  .strict();
export const removeProfileSchema = z.object({ id: z.string().min(1).max(100), deleteData: z.boolean() }).strict();
export const switchProfileSchema = z.object({ id: z.string().min(1).max(100).nullable() }).strict();
export const validateKeySchema = z.object({ apiKey, baseUrl: baseUrl.optional() }).strict();

export const syncStartSchema = z
  .object({ mode: z.enum(['full', 'incremental', 'auto']).default('auto') })
  .strict()
  .optional();
export const historySchema = z
  .object({ limit: z.number().int().min(1).max(200).default(20) })
  .strict()
  .optional();

/** `dashboard:summary`: the zone whose calendar days the arrivals chart counts (default: this computer's). */
export const dashboardSchema = z
  .object({ zone: z.string().max(100).refine(isTimeZone, 'Not a time zone.') })
  .strict()
  .optional();
export const searchSchema = z
  .object({ text: z.string().trim().min(1).max(200), limit: z.number().int().min(1).max(50).default(10) })
  .strict();
export const containerEventsSchema = z
  .object({ id: z.string().min(1).max(200), refresh: z.boolean().default(false) })
  .strict();
/** `export:events`: one container's transport events, withdrawn ones included. */
export const exportEventsSchema = z.object({ containerId: z.string().min(1).max(200) }).strict();

// Control characters (tabs, line breaks, escapes) have no place in a tag or a reference.
const hasNoControlCharacters = (text: string) =>
  ![...text].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);
const tag = z.string().trim().min(1).max(60).refine(hasNoControlCharacters, 'Tags have no control characters');
const refNumber = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .refine(hasNoControlCharacters, 'Reference numbers have no control characters');

export const createTrackingRequestSchema = z
  .object({
    requestType: z.enum(['bill_of_lading', 'booking_number', 'container']),
    requestNumber: z.string().trim().min(1, 'Enter a number').max(40),
    scac: z
      .string()
      .trim()
      .toUpperCase()
      .length(4, 'A carrier code (SCAC) is 4 letters')
      .regex(/^[A-Z]{4}$/, 'A carrier code (SCAC) is 4 letters'),
    refNumbers: z.array(refNumber).max(20).default([]),
    tags: z.array(tag).max(20).default([]),
    customerId: z.string().min(1).max(200).optional(),
  })
  .strict();

export const updateShipmentSchema = z
  .object({
    id: z.string().min(1).max(200),
    refNumbers: z.array(refNumber).max(50).optional(),
    tags: z
      .array(tag)
      .max(50)
      .refine((tags) => new Set(tags).size === tags.length, 'A tag appears twice')
      .optional(),
  })
  .strict()
  .refine((v) => v.refNumbers !== undefined || v.tags !== undefined, 'Change the reference numbers or the tags');

type ExportArm = (typeof listArguments)[ListName]['export'];
export const exportSchema = z.discriminatedUnion(
  'view',
  listNames.map((name) => listArguments[name].export) as [ExportArm, ...ExportArm[]],
);

export const reportErrorSchema = z
  .object({
    message: z.string().max(2000),
    stack: z.string().max(8000).optional(),
    where: z.string().max(300).optional(),
  })
  .strict();
