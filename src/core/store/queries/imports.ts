/**
 * What a bulk import checks against the local copy: the carriers (SCAC, name and what each can
 * track), the customers by name, and whether a number is already tracked (a tracking request
 * pending or tracked, a shipment by its bill of lading, a container by its number, while its
 * shipment is still tracked).
 */
import type { Db } from '../database';
import { perDb } from '../statements';

type Text = string | null;

export interface ImportCarrierRow {
  scac: string;
  name: Text;
  raw: Text;
}

export interface ActiveRequestRow {
  id: string;
  scac: Text;
  request_type: Text;
  status: Text;
  shipment_id: Text;
}

export interface TrackedShipmentRow {
  id: string;
  scac: Text;
  bill_of_lading: Text;
}

const statements = perDb((db: Db) => ({
  carriers: db.prepare<[], ImportCarrierRow>(
    'SELECT scac, name, raw FROM shipping_lines WHERE synced_at IS NOT NULL AND scac IS NOT NULL',
  ),
  customers: db.prepare<[], { id: string; name: string }>(
    'SELECT id, company_name AS name FROM parties WHERE synced_at IS NOT NULL AND company_name IS NOT NULL',
  ),
  // As the service refuses a second request: one pending, awaiting its manifest or tracked.
  activeRequests: db.prepare<[string], ActiveRequestRow>(
    `SELECT id, scac, request_type, status, shipment_id FROM tracking_requests
     WHERE request_number = ? AND synced_at IS NOT NULL AND status IN ('pending', 'awaiting_manifest', 'created')
     ORDER BY created_at DESC`,
  ),
  shipmentsByBl: db.prepare<[string], TrackedShipmentRow>(
    `SELECT id, shipping_line_scac AS scac, bill_of_lading FROM shipments
     WHERE bill_of_lading = ? AND synced_at IS NOT NULL AND tracking_stopped_at IS NULL`,
  ),
  shipmentsByContainer: db.prepare<[string], TrackedShipmentRow>(
    `SELECT s.id, s.shipping_line_scac AS scac, s.bill_of_lading FROM containers c JOIN shipments s ON s.id = c.shipment_id
     WHERE c.number = ? AND c.synced_at IS NOT NULL AND s.synced_at IS NOT NULL AND s.tracking_stopped_at IS NULL`,
  ),
}));

/** The synced shipping lines that have a SCAC. */
export function importCarriers(db: Db): ImportCarrierRow[] {
  return statements(db).carriers.all();
}

/** The synced customers (parties) that have a name. */
export function importCustomers(db: Db): { id: string; name: string }[] {
  return statements(db).customers.all();
}

/** Tracking requests for this number that the service would call a duplicate, newest first. */
export function activeRequestsFor(db: Db, number: string): ActiveRequestRow[] {
  return statements(db).activeRequests.all(number);
}

/** Still-tracked shipments whose bill of lading is this number. */
export function trackedShipmentsByBl(db: Db, number: string): TrackedShipmentRow[] {
  return statements(db).shipmentsByBl.all(number);
}

/** Still-tracked shipments carrying a container with this number. */
export function trackedShipmentsByContainer(db: Db, number: string): TrackedShipmentRow[] {
  return statements(db).shipmentsByContainer.all(number);
}
