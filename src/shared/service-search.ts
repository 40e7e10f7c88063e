/**
 * Ctrl+K on the service: a number the local copy does not have, looked up through the Tracking
 * API's search (`search:service`), and one of its results fetched into the local copy to be opened
 * (`search:openServiceResult`). No node, electron or DOM imports here.
 */
import { z } from 'zod';

/** The palette's text (its field takes 200 characters). */
export const serviceSearchSchema = z
  .object({ query: z.string().max(200, 'A search on the service takes at most 200 characters.') })
  .strict();

export const serviceResultKinds = ['shipment', 'container', 'trackingRequest'] as const;
export type ServiceResultKind = (typeof serviceResultKinds)[number];

const serviceId = z.string().min(1).max(100);

/** One result to fetch: its kind and id, with its shipment's id when the search named one. */
export const openServiceResultSchema = z
  .object({ kind: z.enum(serviceResultKinds), id: serviceId, shipmentId: serviceId.nullish() })
  .strict();

/** A shipment, container or tracking request the service found and the local copy does not have. */
export interface ServiceSearchResult {
  kind: ServiceResultKind;
  id: string;
  /** Bill of lading, container or requested number. */
  number: string;
  /** The shipment a container belongs to, or a tracking request became. */
  shipmentId: string | null;
  scac: string | null;
  portOfLading: string | null;
  portOfDischarge: string | null;
  containersCount: number | null;
  /** A tracking request's status (pending, created, failed…). */
  status: string | null;
}

/**
 * What asking the service came to. `offline` and `no_key`: it was not asked, `message` says why in
 * one sentence. `answered`: what it found that the local copy does not have (at most 25), and how
 * many of its results the local copy has already. `superseded`: a newer search took its place.
 */
export type ServiceSearchAnswer =
  | { outcome: 'offline' | 'no_key'; message: string }
  | { outcome: 'answered'; query: string; results: ServiceSearchResult[]; alreadyHere: number }
  | { outcome: 'superseded' };

/** Where the fetched record opens: a shipment or container by id, a tracking request in its list. */
export interface OpenedServiceResult {
  view: 'shipments' | 'containers' | 'trackingRequests';
  /** The shipment or container to open; the tracking request's own id in its list. */
  id: string;
}
