/**
 * Change history: what each sync saw change on a shipment or container, with
 * the old value, the new one and when it was seen. The kinds of change, their words, the
 * arguments of the `changes:*` channels and the rows they answer; shared by core, the CLI and
 * the renderer.
 */
import { z } from 'zod';
import { pageRequestSchema } from './views';

/** What a change is about: the `field` the Changes view filters on and the CLI prints. */
export const changeFields = [
  'eta',
  'ata',
  'destination_eta',
  'destination_ata',
  'status',
  'lfd_terminal',
  'lfd_rail',
  'lfd_line',
  'hold',
  'facility_hold',
  'available',
  'fees',
  'terminal',
  'vessel',
  'tracking_stopped',
] as const;
export type ChangeField = (typeof changeFields)[number];

export function isChangeField(value: unknown): value is ChangeField {
  return typeof value === 'string' && (changeFields as readonly string[]).includes(value);
}

/** Each kind in a forwarder's words. */
export const changeFieldLabels: Record<ChangeField, string> = {
  eta: 'ETA',
  ata: 'Arrived (ATA)',
  destination_eta: 'ETA at destination',
  destination_ata: 'Arrived at destination',
  status: 'Status',
  lfd_terminal: 'Last free day (terminal)',
  lfd_rail: 'Last free day (rail)',
  lfd_line: 'Last free day (line)',
  hold: 'Hold',
  facility_hold: 'Hold at inland facility',
  available: 'Available for pickup',
  fees: 'Fees',
  terminal: 'Terminal',
  vessel: 'Vessel',
  tracking_stopped: 'Tracking stopped',
};

/**
 * The arrival that ends an ETA: an ETA cleared in the same sync as its arrival was given is the
 * arrival, told once ("Arrived …"), not an ETA that went away. Both stay recorded: a record's own
 * history and the CLI read them as they are.
 */
export const arrivalOf: Partial<Record<ChangeField, ChangeField>> = { eta: 'ata', destination_eta: 'destination_ata' };

/** How a kind's values read: an instant, a calendar date, a yes/no, an amount, a status code or text. */
export const changeValueKinds: Record<
  ChangeField,
  'instant' | 'date' | 'flag' | 'amount' | 'status' | 'hold' | 'text'
> = {
  eta: 'instant',
  ata: 'instant',
  destination_eta: 'instant',
  destination_ata: 'instant',
  status: 'status',
  lfd_terminal: 'date',
  lfd_rail: 'date',
  lfd_line: 'date',
  hold: 'hold',
  facility_hold: 'hold',
  available: 'flag',
  fees: 'amount',
  terminal: 'text',
  vessel: 'text',
  tracking_stopped: 'instant',
};

/** A value before or after a change: an instant or date as text, a status code, yes/no, an amount, a name. */
export type ChangeValue = string | number | boolean | null;

/** The kept time of retention, in days (Settings): changes seen longer ago are deleted after a sync. */
export const DEFAULT_CHANGE_RETENTION_DAYS = 180;
export const changeRetentionDaysSchema = z.number().int().min(1).max(3650);

const instant = z.iso.datetime({ offset: true });
const list = z.array(z.string().trim().min(1).max(200)).max(500);

/**
 * Which changes: a period (since the last "mark as looked"; today or this week, in the user's
 * calendar; the last 7 days; or from/to, either end open) and, within it, kinds, customers and
 * carriers (each a list of which any may match).
 */
export const changeFiltersSchema = z
  .object({
    period: z.enum(['since_looked', 'today', 'this_week', 'last_7_days', 'range']).default('since_looked'),
    from: instant.optional(),
    to: instant.optional(),
    fields: z.array(z.enum(changeFields)).max(changeFields.length).optional(),
    customers: list.optional(),
    carriers: list.optional(),
  })
  .strict();
export type ChangeFilters = z.input<typeof changeFiltersSchema>;
export type ChangePeriod = NonNullable<ChangeFilters['period']>;

/** `changes:list`: a keyset page of changes, newest first unless `order` says oldest first. */
export const changesListSchema = z
  .object({
    filters: changeFiltersSchema.default({ period: 'since_looked' }),
    order: z.enum(['newest', 'oldest']).default('newest'),
    page: pageRequestSchema.default({ limit: 100 }),
  })
  .strict();
export const changesCountSchema = z
  .object({ filters: changeFiltersSchema.default({ period: 'since_looked' }) })
  .strict();
/** `changes:forRecord`: one shipment's or container's changes, oldest first (e.g. its successive ETAs). */
export const changesForRecordSchema = z
  .object({
    id: z.string().min(1).max(200),
    fields: z.array(z.enum(changeFields)).max(changeFields.length).optional(),
  })
  .strict();
/** `export:changes`: the changes the filters pick, newest first, to a CSV file the user chooses. */
export const exportChangesSchema = z
  .object({ filters: changeFiltersSchema.default({ period: 'since_looked' }) })
  .strict();

/** One change as the Changes view, the ETA history and the CLI read it. */
export interface ChangeRow {
  /** The change's own id (as text, for the list's keys). */
  id: string;
  resource: 'shipment' | 'container';
  /** The shipment's or container's id. */
  recordId: string;
  /** Its number: the bill of lading of a shipment, a container's number. */
  number: string | null;
  /** The shipment the record belongs to (itself for a shipment), with its BL, customer and carrier. */
  shipmentId: string | null;
  billOfLading: string | null;
  customer: string | null;
  carrierScac: string | null;
  field: ChangeField;
  /** The hold type of a hold change (`CUSTOMS`), else null. */
  detail: string | null;
  old: ChangeValue;
  new: ChangeValue;
  /** When the sync saw it (UTC ISO). */
  seenAt: string;
  /** The zone an instant of this change happens in (the port's or the destination's), when known. */
  zone: string | null;
}

/** `changes:count`: how many changes the filters pick, and the period's bounds as resolved. */
export interface ChangesCount {
  count: number;
  /** The period's start (null: since the oldest change kept) and end (null: now). */
  from: string | null;
  to: string | null;
  /** When the changes were last marked as looked at, for this account's database (null: never). */
  lookedAt: string | null;
  /** How many days changes are kept (Settings). */
  retentionDays: number;
}

/** A hold's state before or after a change: on hold, released (listed so, or no longer listed). */
export type HoldState = 'hold' | 'released';
