/**
 * The columns of each list view as CSV: human headers by default, the API's field names with
 * `headerStyle: 'keys'`, timestamps in UTC and in the local time of the port they happen at.
 */
import {
  failedReasonLabels,
  requestTypeLabels,
  stopReasonLabels,
  trackingRequestStatusLabels,
} from '../../shared/labels';
import type { ContainerRow, ShipmentRow, TrackingRequestRow } from '../../shared/rows';
import { containerStatusLabels } from '../../shared/status';
import { dateOnly, timestamp, type ExportColumn } from './columns';

const col = <Row>(key: string, header: string, value: ExportColumn<Row>['value']): ExportColumn<Row> => ({
  key,
  header,
  value,
});

export const shipmentColumns: ExportColumn<ShipmentRow>[] = [
  col('bill_of_lading_number', 'Bill of lading', (r) => r.billOfLading),
  col('shipping_line_scac', 'Carrier SCAC', (r) => r.carrierScac),
  col('shipping_line_name', 'Carrier', (r) => r.carrierName),
  col('customer_name', 'Customer', (r) => r.customer),
  col('ref_numbers', 'Reference numbers', (r) => r.refNumbers),
  col('tags', 'Tags', (r) => r.tags),
  col('port_of_lading_name', 'Port of lading', (r) => r.portOfLading),
  col('port_of_lading_locode', 'Port of lading code', (r) => r.portOfLadingCode),
  col('port_of_discharge_name', 'Port of discharge', (r) => r.portOfDischarge),
  col('port_of_discharge_locode', 'Port of discharge code', (r) => r.portOfDischargeCode),
  col('destination_name', 'Destination', (r) => r.destination),
  col('destination_locode', 'Destination code', (r) => r.destinationCode),
  col('pod_terminal', 'Terminal', (r) => r.terminal),
  col('pod_vessel_name', 'Vessel', (r) => r.vessel),
  col('pod_voyage_number', 'Voyage', (r) => r.voyage),
  ...timestamp<ShipmentRow>(
    'pol_etd_at',
    'ETD',
    (r) => r.etd,
    (r) => r.polTimezone,
  ),
  ...timestamp<ShipmentRow>(
    'pol_atd_at',
    'ATD',
    (r) => r.atd,
    (r) => r.polTimezone,
  ),
  ...timestamp<ShipmentRow>(
    'pod_eta_at',
    'ETA',
    (r) => r.eta,
    (r) => r.podTimezone,
  ),
  ...timestamp<ShipmentRow>(
    'pod_original_eta_at',
    'Original ETA',
    (r) => r.originalEta,
    (r) => r.podTimezone,
  ),
  ...timestamp<ShipmentRow>(
    'pod_ata_at',
    'ATA',
    (r) => r.ata,
    (r) => r.podTimezone,
  ),
  col('eta_slip_days', 'ETA slip (days)', (r) =>
    r.etaSlipHours === null ? null : Math.round(r.etaSlipHours / 2.4) / 10,
  ),
  col('container_count', 'Containers', (r) => r.containerCount),
  ...timestamp<ShipmentRow>('line_tracking_stopped_at', 'Tracking stopped', (r) => r.trackingStoppedAt),
  col('line_tracking_stopped_reason', 'Why tracking stopped', (r) =>
    r.trackingStoppedReason ? (stopReasonLabels[r.trackingStoppedReason] ?? r.trackingStoppedReason) : null,
  ),
];

export const containerColumns: ExportColumn<ContainerRow>[] = [
  col('number', 'Container', (r) => r.number),
  col('current_status', 'Status', (r) => containerStatusLabels[r.status]),
  col('equipment', 'Equipment', (r) => r.equipment),
  col('bill_of_lading_number', 'Bill of lading', (r) => r.billOfLading),
  col('shipping_line_scac', 'Carrier SCAC', (r) => r.carrierScac),
  col('customer_name', 'Customer', (r) => r.customer),
  col('port_of_discharge_name', 'Port of discharge', (r) => r.portOfDischarge),
  col('destination_name', 'Destination', (r) => r.destination),
  col('pod_terminal', 'Terminal', (r) => r.terminal),
  col('pod_vessel_name', 'Vessel', (r) => r.vessel),
  ...timestamp<ContainerRow>(
    'pod_eta_at',
    'ETA',
    (r) => r.eta,
    (r) => r.podTimezone,
  ),
  ...timestamp<ContainerRow>(
    'pod_ata_at',
    'ATA',
    (r) => r.ata,
    (r) => r.podTimezone,
  ),
  ...timestamp<ContainerRow>(
    'pod_discharged_at',
    'Discharged',
    (r) => r.dischargedAt,
    (r) => r.podTimezone,
  ),
  col('available_for_pickup', 'Available for pickup', (r) => r.availableForPickup),
  dateOnly<ContainerRow>('pickup_lfd', 'Last free day', (r) => r.lastFreeDay),
  // As the list shows them: the holds still in force, by name.
  col('holds_at_pod_terminal', 'Holds', (r) => r.holds.filter((h) => h.status !== 'released').map((h) => h.name)),
  col('fees_total', 'Fees (USD)', (r) => r.feesTotal),
  col('pickup_ready', 'Ready for pickup', (r) => r.pickupReady),
  ...timestamp<ContainerRow>(
    'pickup_appointment_at',
    'Pickup appointment',
    (r) => r.pickupAppointmentAt,
    (r) => r.podTimezone,
  ),
  ...timestamp<ContainerRow>(
    'pod_full_out_at',
    'Picked up',
    (r) => r.pickedUpAt,
    (r) => r.podTimezone,
  ),
  ...timestamp<ContainerRow>(
    'empty_terminated_at',
    'Empty returned',
    (r) => r.emptyReturnedAt,
    (r) => r.podTimezone,
  ),
  col('tags', 'Tags', (r) => r.tags),
];

export const trackingRequestColumns: ExportColumn<TrackingRequestRow>[] = [
  col('request_number', 'Number', (r) => r.requestNumber),
  col('request_type', 'Type', (r) => (r.requestType ? (requestTypeLabels[r.requestType] ?? r.requestType) : null)),
  col('scac', 'Carrier SCAC', (r) => r.carrierScac),
  col('status', 'Status', (r) => (r.status ? (trackingRequestStatusLabels[r.status] ?? r.status) : null)),
  col('failed_reason', 'Why it failed', (r) =>
    r.failedReason ? (failedReasonLabels[r.failedReason] ?? r.failedReason) : null,
  ),
  col('customer', 'Customer', (r) => r.customer),
  col('ref_numbers', 'Reference numbers', (r) => r.refNumbers),
  col('tags', 'Tags', (r) => r.tags),
  ...timestamp<TrackingRequestRow>('created_at', 'Created', (r) => r.createdAt),
  ...timestamp<TrackingRequestRow>('updated_at', 'Updated', (r) => r.updatedAt),
];

/** Picks columns by key, in the order asked; an unknown key is an error naming the known ones. */
export function chooseColumns<Row>(all: ExportColumn<Row>[], keys: readonly string[] | undefined): ExportColumn<Row>[] {
  if (!keys || keys.length === 0) return all;
  const byKey = new Map(all.map((c) => [c.key, c]));
  const unknown = keys.filter((k) => !byKey.has(k));
  if (unknown.length > 0) {
    throw new Error(
      `Unknown column${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}; known: ${all.map((c) => c.key).join(', ')}`,
    );
  }
  return keys.map((k) => byKey.get(k)!);
}
