/**
 * What a list view asks for: filters, sort and a keyset page. Shared by the IPC contract, the
 * store's queries and CSV export, so "export what is shown" is the same query.
 */
import { z } from 'zod';
import { containerStatuses } from './status';

const text = z.string().trim().max(200);
const list = z.array(z.string().trim().min(1).max(100)).max(200);
const instant = z.iso.datetime({ offset: true });

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
    trackingStopped: z.boolean().optional(),
    etaSlipped: z.boolean().optional(),
  })
  .strict();
export type ShipmentFilters = z.infer<typeof shipmentFiltersSchema>;

export const containerFiltersSchema = shipmentFiltersSchema
  .extend({
    statuses: z.array(z.enum(containerStatuses)).max(20).optional(),
    lfdFrom: instant.optional(),
    lfdTo: instant.optional(),
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
