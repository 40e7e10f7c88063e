/**
 * What an import checks its rows against, read once from the local copy: the carriers the
 * account knows (as the new-request form checks a SCAC: the synced shipping lines, and what each
 * can track), its customers by name, and the numbers it already tracks.
 */
import { requestTypeLabels } from '../../shared/labels';
import type { RequestType } from '../../shared/imports';
import type { Db } from '../store/database';
import {
  activeRequestsFor,
  importCarriers,
  importCustomers,
  trackedShipmentsByBl,
  trackedShipmentsByContainer,
} from '../store/queries/imports';
import { normalizeWords } from './number-types';

export interface Carrier {
  scac: string;
  name: string | null;
  /** False for a number type the line's record says the service cannot track. */
  tracks: Record<RequestType, boolean>;
}

export interface Tracked {
  trackingRequestId: string | null;
  shipmentId: string | null;
  message: string;
}

export interface ImportLookups {
  /** No carrier synced yet: any 4-letter code is taken unchecked, as the form does. */
  readonly carriersKnown: boolean;
  /** The carrier a cell names (its SCAC, or its name when one line has it), or null. */
  carrier(text: string): Carrier | null;
  /** No customer synced yet: a customer cell cannot be matched until a sync brings them. */
  readonly customersKnown: boolean;
  customer(text: string): { id: string; name: string } | null;
  /** Whether the local copy already tracks this number (with this line, when both are known). */
  tracked(type: RequestType, number: string, scac: string | null): Tracked | null;
}

const supportKey: Record<RequestType, string> = {
  bill_of_lading: 'bill_of_lading_tracking_support',
  booking_number: 'booking_number_tracking_support',
  container: 'container_number_tracking_support',
};

function tracksOf(raw: string | null): Record<RequestType, boolean> {
  let attributes: Record<string, unknown> = {};
  try {
    attributes = ((raw ? JSON.parse(raw) : {}) as { attributes?: Record<string, unknown> }).attributes ?? {};
  } catch {
    // A record that cannot be read says nothing against the line.
  }
  return {
    bill_of_lading: attributes[supportKey.bill_of_lading] !== false,
    booking_number: attributes[supportKey.booking_number] !== false,
    container: attributes[supportKey.container] !== false,
  };
}

export function importLookups(db: Db): ImportLookups {
  const carriers = new Map<string, Carrier>();
  const byName = new Map<string, Carrier | null>();
  for (const row of importCarriers(db)) {
    const carrier: Carrier = { scac: row.scac.toUpperCase(), name: row.name, tracks: tracksOf(row.raw) };
    carriers.set(carrier.scac, carrier);
    if (row.name) {
      const key = normalizeWords(row.name);
      // Two lines with one name: the name says neither.
      byName.set(key, byName.has(key) ? null : carrier);
    }
  }
  const customers = new Map<string, { id: string; name: string } | null>();
  const customerIds = new Map<string, { id: string; name: string }>();
  for (const row of importCustomers(db)) {
    const key = normalizeWords(row.name);
    customers.set(key, customers.has(key) ? null : row);
    customerIds.set(row.id, row);
  }
  const carriersKnown = carriers.size > 0;
  return {
    carriersKnown,
    customersKnown: customerIds.size > 0,
    carrier(text) {
      const code =
        text
          .trim()
          .toUpperCase()
          .split(/[\s,;/()-]+/)[0] ?? '';
      const bySCAC = carriers.get(code);
      if (bySCAC) return bySCAC;
      const name = normalizeWords(text);
      const named = byName.get(name);
      if (named) return named;
      // "Maersk" for "Maersk Line": a start of one line's name only.
      if (name.length >= 3) {
        const starting = [...byName.entries()].filter(([n, c]) => c !== null && n.startsWith(`${name} `));
        if (starting.length === 1) return starting[0]![1];
      }
      if (!carriersKnown && /^[A-Z]{4}$/.test(code)) {
        return { scac: code, name: null, tracks: { bill_of_lading: true, booking_number: true, container: true } };
      }
      return null;
    },
    customer(text) {
      return customerIds.get(text.trim()) ?? customers.get(normalizeWords(text)) ?? null;
    },
    tracked(type, number, scac) {
      const sameLine = (other: string | null) => scac === null || other === null || other.toUpperCase() === scac;
      const request = activeRequestsFor(db, number).find((r) => r.request_type === type && sameLine(r.scac));
      if (request) {
        const status =
          request.status === 'created' ? 'tracked' : request.status === 'pending' ? 'pending' : 'awaiting its manifest';
        return {
          trackingRequestId: request.id,
          shipmentId: request.shipment_id,
          message: `Already tracked: a tracking request for this ${requestTypeLabels[type]!.toLowerCase()} is ${status}.`,
        };
      }
      const shipments =
        type === 'bill_of_lading'
          ? trackedShipmentsByBl(db, number)
          : type === 'container'
            ? trackedShipmentsByContainer(db, number)
            : [];
      const shipment = shipments.find((s) => sameLine(s.scac));
      if (shipment) {
        return {
          trackingRequestId: null,
          shipmentId: shipment.id,
          message:
            type === 'container'
              ? `Already tracked: this container is on shipment ${shipment.bill_of_lading ?? shipment.id}.`
              : 'Already tracked: this shipment is in the local copy.',
        };
      }
      return null;
    },
  };
}
