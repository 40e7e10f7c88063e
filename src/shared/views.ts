/**
 * What a list view asks for: filters, sort and a keyset page. Shared by the IPC contract, the
 * store's queries and CSV export, so "export what is shown" is the same query.
 */
import { z } from 'zod';
import { dueDaysSchema, pastDaysSchema } from './date-filters';
import { containerStatuses, statusGroups } from './status';

const text = z.string().trim().max(200);
const list = z.array(z.string().trim().min(1).max(100)).max(200);
const instant = z.iso.datetime({ offset: true });

/**
 * A custom field's `api_slug` as the lists name it: the key of its filter and, after `cf.`, its
 * sort field (`cf.po_number`), as its export column is keyed.
 */
export const customFieldSlugSchema = z.string().regex(/^[A-Za-z0-9_-]{1,100}$/, 'Not a custom field name');

const day = z.iso.date();
const bothEndsInOrder = <T extends string | number>(low: T | undefined, high: T | undefined) =>
  low === undefined || high === undefined || low <= high;

/**
 * A list's filter on one custom field, by what the field holds (see `customFieldFilterKind`): any
 * of a pick list's options (their values), text it contains (any case), a range of numbers, a
 * range of calendar days (both ends included), or yes/no. A record without a value matches none.
 */
export const customFieldFilterSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('options'), values: list.min(1) }).strict(),
  z.object({ kind: z.literal('text'), contains: z.string().trim().min(1).max(200) }).strict(),
  z
    .object({ kind: z.literal('number'), min: z.number().finite().optional(), max: z.number().finite().optional() })
    .strict()
    .refine((r) => r.min !== undefined || r.max !== undefined, 'Give the lowest or the highest number')
    .refine((r) => bothEndsInOrder(r.min, r.max), 'The lowest number is above the highest'),
  z
    .object({ kind: z.literal('date'), from: day.optional(), to: day.optional() })
    .strict()
    .refine((r) => r.from !== undefined || r.to !== undefined, 'Give the first or the last day')
    .refine((r) => bothEndsInOrder(r.from, r.to), 'The first day is after the last'),
  z.object({ kind: z.literal('flag'), is: z.boolean() }).strict(),
]);
export type CustomFieldFilter = z.infer<typeof customFieldFilterSchema>;

/** The custom field filters of a list, by `api_slug` (at most 20 at once). */
export const customFieldFiltersSchema = z
  .record(customFieldSlugSchema, customFieldFilterSchema)
  .refine((filters) => Object.keys(filters).length <= 20, 'At most 20 custom field filters at once');
export type CustomFieldFilters = z.infer<typeof customFieldFiltersSchema>;

/** A sort by a custom field: `cf.<api_slug>`. */
export type CustomFieldSortField = `cf.${string}`;
const customFieldSortPattern = /^cf\.[A-Za-z0-9_-]{1,100}$/;
export const isCustomFieldSortField = (field: unknown): field is CustomFieldSortField =>
  typeof field === 'string' && customFieldSortPattern.test(field);
/** The `api_slug` a custom field sort names (`cf.po_number` → `po_number`). */
export const slugOfSortField = (field: CustomFieldSortField): string => field.slice(3);
const customFieldSortFieldSchema = z.custom<CustomFieldSortField>(isCustomFieldSortField, 'Not a custom field sort');

export const shipmentFiltersSchema = z
  .object({
    search: text.optional(),
    carriers: list.optional(),
    portsOfLading: list.optional(),
    portsOfDischarge: list.optional(),
    destinations: list.optional(),
    terminals: list.optional(),
    customers: list.optional(),
    tags: list.optional(),
    etaFrom: instant.optional(),
    etaTo: instant.optional(),
    /** Arrival (the ATA, else the ETA) on these days; "overdue": the ETA passed and not arrived. */
    etaDays: dueDaysSchema.optional(),
    /** Arrived (ATA) on these days. */
    ataDays: pastDaysSchema.optional(),
    trackingStopped: z.boolean().optional(),
    etaSlipped: z.boolean().optional(),
    customFields: customFieldFiltersSchema.optional(),
  })
  .strict();
export type ShipmentFilters = z.infer<typeof shipmentFiltersSchema>;

export const containerFiltersSchema = shipmentFiltersSchema
  .extend({
    statuses: z.array(z.enum(containerStatuses)).max(20).optional(),
    /** Stages (src/shared/status.ts), kept as named: a box at any of their statuses. */
    statusGroups: z.array(z.enum(statusGroups)).max(10).optional(),
    lfdFrom: instant.optional(),
    lfdTo: instant.optional(),
    /** Last free day on these days; "overdue": as `overdue`. */
    lfdDays: dueDaysSchema.optional(),
    onHold: z.boolean().optional(),
    holdTypes: list.optional(),
    pickupReady: z.boolean().optional(),
    /** Last free day passed and the box still at the terminal. */
    overdue: z.boolean().optional(),
  })
  .strict();
export type ContainerFilters = z.infer<typeof containerFiltersSchema>;

export const trackingRequestStatuses = [
  'pending',
  'awaiting_manifest',
  'created',
  'failed',
  'tracking_stopped',
] as const;
export const trackingRequestFiltersSchema = z
  .object({
    search: text.optional(),
    statuses: z.array(z.enum(trackingRequestStatuses)).max(10).optional(),
    carriers: list.optional(),
    requestTypes: z
      .array(z.enum(['bill_of_lading', 'booking_number', 'container']))
      .max(3)
      .optional(),
    failedReasons: list.optional(),
    createdFrom: instant.optional(),
    createdTo: instant.optional(),
    createdDays: pastDaysSchema.optional(),
    customFields: customFieldFiltersSchema.optional(),
  })
  .strict();
export type TrackingRequestFilters = z.infer<typeof trackingRequestFiltersSchema>;

export const shipmentSortFields = [
  'created_at',
  'bill_of_lading',
  'carrier',
  'customer',
  'port_of_lading',
  'port_of_discharge',
  'destination',
  'etd',
  'atd',
  'eta',
  'ata',
  'eta_slip',
  'containers',
] as const;
export const containerSortFields = [
  'created_at',
  'number',
  'status',
  'last_free_day',
  'discharged',
  'available',
  'picked_up',
  'holds',
  'fees',
] as const;
export const trackingRequestSortFields = ['created_at', 'updated_at', 'request_number', 'status', 'carrier'] as const;

export const sortSchema = <F extends readonly [string, ...string[]]>(fields: F) =>
  z.object({ field: z.enum(fields), direction: z.enum(['asc', 'desc']) }).strict();

/** The sort of a list whose records carry custom fields: one of its fields, or `cf.<api_slug>`. */
export const sortWithCustomFieldsSchema = <F extends readonly [string, ...string[]]>(fields: F) =>
  z
    .object({ field: z.union([z.enum(fields), customFieldSortFieldSchema]), direction: z.enum(['asc', 'desc']) })
    .strict();

export type SortDirection = 'asc' | 'desc';
export interface Sort<F extends string = string> {
  field: F;
  direction: SortDirection;
}

export const pageRequestSchema = z
  .object({
    limit: z.number().int().min(1).max(500).default(100),
    /** The opaque cursor of the previous page's last row. */
    after: z.string().max(2000).optional(),
  })
  .strict();
export type PageRequest = z.input<typeof pageRequestSchema>;

export interface Page<Row> {
  rows: Row[];
  /** Cursor for the next page, or null at the end. */
  next: string | null;
}
