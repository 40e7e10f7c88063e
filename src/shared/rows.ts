/** Rows the list views and exports show; JSON-safe (ISO strings, no Dates). */
import type { CustomFieldCells } from './custom-fields';
import type { ContainerStatus } from './status';

export interface ShipmentRow {
  id: string;
  billOfLading: string | null;
  carrierScac: string | null;
  carrierName: string | null;
  customer: string | null;
  portOfLading: string | null;
  portOfLadingCode: string | null;
  portOfDischarge: string | null;
  portOfDischargeCode: string | null;
  destination: string | null;
  destinationCode: string | null;
  terminal: string | null;
  /** Where the cargo ends: a rail ramp inland, or a terminal at the destination. */
  destinationTerminal: string | null;
  vessel: string | null;
  voyage: string | null;
  etd: string | null;
  atd: string | null;
  eta: string | null;
  originalEta: string | null;
  ata: string | null;
  etaSlipHours: number | null;
  polTimezone: string | null;
  podTimezone: string | null;
  containerCount: number;
  refNumbers: string[];
  tags: string[];
  trackingStoppedAt: string | null;
  trackingStoppedReason: string | null;
  createdAt: string | null;
  /** The record's custom field values, by api_slug (the lists' custom field columns). */
  customFields: CustomFieldCells;
}

export interface ContainerRow {
  id: string;
  shipmentId: string | null;
  number: string | null;
  status: ContainerStatus;
  equipment: string | null;
  billOfLading: string | null;
  carrierScac: string | null;
  customer: string | null;
  portOfDischarge: string | null;
  destination: string | null;
  terminal: string | null;
  vessel: string | null;
  eta: string | null;
  ata: string | null;
  dischargedAt: string | null;
  availableForPickup: boolean | null;
  lastFreeDay: string | null;
  lfdDeadlineAt: string | null;
  lfdTimezone: string | null;
  /** The shipping line's own last free day (a calendar date where the box waits), beside the terminal's. */
  lineLastFreeDay: string | null;
  holds: { name: string; status: string; description: string | null }[];
  /** Holds at the inland facility; null when the service sent none (pickup truth reads them). */
  facilityHolds: { name: string; status: string; description: string | null }[] | null;
  feesTotal: number | null;
  pickupReady: boolean;
  /** Whose deadline `lastFreeDay` is: the port terminal's or the rail ramp's (migration 0006). */
  lfdSource: 'terminal' | 'rail' | null;
  /** When the service last checked the terminal for this box: how old availability and holds are. */
  terminalCheckedAt: string | null;
  pickupAppointmentAt: string | null;
  pickedUpAt: string | null;
  emptyReturnedAt: string | null;
  podTimezone: string | null;
  tags: string[];
  createdAt: string | null;
  /** The record's custom field values, by api_slug (the lists' custom field columns). */
  customFields: CustomFieldCells;
}

export interface TrackingRequestRow {
  id: string;
  requestNumber: string | null;
  requestType: string | null;
  carrierScac: string | null;
  status: string | null;
  failedReason: string | null;
  isRetrying: boolean;
  shipmentId: string | null;
  customer: string | null;
  refNumbers: string[];
  tags: string[];
  createdAt: string | null;
  updatedAt: string | null;
  /** The record's custom field values, by api_slug (the lists' custom field columns). */
  customFields: CustomFieldCells;
}
