/**
 * Webhooks as Settings edits them: the events a webhook may subscribe to (as the service names
 * them), the create and edit arguments, and the notifications listed. No node, electron or DOM.
 */
import { z } from 'zod';
import type { WebhookRow } from './types';

/** Events a webhook may subscribe to, as the service names them. */
export const webhookEventNames = [
  'container.transport.vessel_arrived',
  'container.transport.estimated.vessel_arrived',
  'container.transport.vessel_discharged',
  'container.transport.vessel_loaded',
  'container.transport.vessel_departed',
  'container.transport.estimated.vessel_departed',
  'container.transport.rail_departed',
  'container.transport.rail_arrived',
  'container.transport.rail_loaded',
  'container.transport.rail_unloaded',
  'container.transport.transshipment_arrived',
  'container.transport.transshipment_discharged',
  'container.transport.transshipment_loaded',
  'container.transport.transshipment_departed',
  'container.transport.feeder_arrived',
  'container.transport.feeder_discharged',
  'container.transport.feeder_loaded',
  'container.transport.feeder_departed',
  'container.transport.empty_out',
  'container.transport.full_in',
  'container.transport.full_out',
  'container.transport.empty_in',
  'container.transport.vessel_berthed',
  'shipment.estimated.arrival',
  'tracking_request.succeeded',
  'tracking_request.failed',
  'tracking_request.awaiting_manifest',
  'tracking_request.tracking_stopped',
  'container.created',
  'container.updated',
  'container.pod_terminal_changed',
  'container.transport.arrived_at_inland_destination',
  'container.transport.estimated.arrived_at_inland_destination',
  'container.pickup_lfd.changed',
  'container.pickup_lfd_line.changed',
  'container.pickup_lfd_terminal.changed',
  'container.pickup_lfd_rail.changed',
  'container.pickup_appointment.changed',
  'container.transport.available',
  'container.transport.not_available',
  'container.transport.delivered',
] as const;

const httpUrl = z
  .string()
  .trim()
  .min(1, 'Enter the address the service should send notifications to.')
  .max(2000)
  .refine((value) => {
    try {
      return ['https:', 'http:'].includes(new URL(value).protocol);
    } catch {
      return false;
    }
  }, 'An address starting with https:// (or http://).');

const events = z
  .array(z.enum(webhookEventNames))
  .min(1, 'Pick at least one event.')
  .max(webhookEventNames.length)
  .refine((list) => new Set(list).size === list.length, 'Each event once.');

export const createWebhookSchema = z.object({ url: httpUrl, active: z.boolean(), events }).strict();
export const updateWebhookSchema = z
  .object({
    id: z.string().min(1).max(200),
    url: httpUrl.optional(),
    active: z.boolean().optional(),
    events: events.optional(),
  })
  .strict();

/** A webhook just created, with its signing secret: shown this once, never stored here. */
export interface CreatedWebhook {
  webhook: WebhookRow;
  secret: string;
}

/** One notification the service sent (or tried to send) to a webhook. */
export interface WebhookNotificationRow {
  id: string;
  webhookId: string | null;
  /** The webhook's address, when it is known here. */
  webhookUrl: string | null;
  event: string | null;
  deliveryStatus: 'pending' | 'succeeded' | 'failed' | null;
  createdAt: string | null;
  /** What it is about: `tracking_request`, `shipment`, `container`, `transport_event`. */
  referenceType: string | null;
  referenceId: string | null;
}

export interface WebhookNotifications {
  notifications: WebhookNotificationRow[];
  /** Why the service could not be read, when it could not (the stored notifications are shown). */
  error: string | null;
}
