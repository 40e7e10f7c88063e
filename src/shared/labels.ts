/** Words a forwarder reads for the service's codes. */

export const failedReasonLabels: Record<string, string> = {
  booking_cancelled: 'The carrier cancelled the booking',
  duplicate: 'Already tracked: this number has another tracking request',
  expired: 'Too old: the carrier no longer has this shipment',
  internal_processing_error: 'The tracking service hit an error; it will retry',
  invalid_number: 'Not a valid number for this carrier',
  not_found: 'The carrier does not know this number (yet)',
  retries_exhausted: 'The carrier did not answer after several tries',
  shipping_line_unreachable: 'The carrier’s website could not be reached',
  unrecognized_response: 'The carrier answered with something unexpected',
  data_unavailable: 'The carrier has no tracking data for this number yet',
  scac_auto_detect_failed: 'The carrier could not be worked out from the number',
};

export const trackingRequestStatusLabels: Record<string, string> = {
  pending: 'Waiting for the carrier',
  awaiting_manifest: 'Awaiting manifest',
  created: 'Tracking',
  failed: 'Failed',
  tracking_stopped: 'Tracking stopped',
};

export const requestTypeLabels: Record<string, string> = {
  bill_of_lading: 'Bill of lading',
  booking_number: 'Booking number',
  container: 'Container number',
};

export const stopReasonLabels: Record<string, string> = {
  all_containers_terminated: 'All containers returned empty',
  past_arrival_window: 'Past the arrival window',
  past_full_out_window: 'Past the pickup window',
  no_updates_at_line: 'No updates from the carrier',
  cancelled_by_user: 'Stopped by a user',
  booking_cancelled: 'Booking cancelled',
};

/** Milestones in the order a box moves through them, with their words. */
export const milestoneLabels: Record<string, string> = {
  empty_out: 'Empty picked up at origin',
  full_in: 'Full in at origin terminal',
  vessel_loaded: 'Loaded on vessel',
  vessel_departed: 'Vessel departed',
  transshipment_arrived: 'Arrived at transshipment port',
  transshipment_discharged: 'Discharged at transshipment port',
  transshipment_loaded: 'Loaded at transshipment port',
  transshipment_departed: 'Departed transshipment port',
  vessel_arrived: 'Vessel arrived',
  vessel_berthed: 'Vessel berthed',
  vessel_discharged: 'Discharged',
  available: 'Available for pickup',
  rail_loaded: 'Loaded on rail',
  rail_departed: 'Rail departed',
  rail_arrived: 'Rail arrived inland',
  rail_unloaded: 'Unloaded from rail',
  arrived_at_inland_destination: 'Arrived at inland destination',
  full_out: 'Picked up (full out)',
  delivered: 'Delivered',
  empty_in: 'Empty returned',
};

export function eventLabel(event: string): string {
  const key = event.replace(/^container\.transport\./, '').replace(/^estimated\./, '');
  return milestoneLabels[key] ?? key.replaceAll('_', ' ');
}

/**
 * A terminal's (or a party's) name with its nickname in brackets, or one of them alone when the
 * other is missing or says the same ("SSA Cooper", never "SSA Cooper (SSA Cooper)").
 */
export function nameWithNickname(name: string | null, nickname: string | null): string | null {
  const plain = (text: string) => text.trim().replace(/\s+/g, ' ').toLowerCase();
  if (!name || !nickname || plain(name) === plain(nickname)) return name ?? nickname;
  return `${name} (${nickname})`;
}

/**
 * Hold types as the service names them in a container's holds (`holds_at_pod_terminal`,
 * facility holds; the API reference's example is `customs`), in the words the service's own
 * screens use. Keyed in lower case: terminals send `USDA` and `usda` alike.
 */
export const holdLabels: Record<string, string> = {
  customs: 'Customs',
  freight: 'Freight',
  usda: 'USDA',
  tmf: 'Traffic mitigation fee (TMF)',
  other: 'Other',
};

/** A hold type's label; one not in the table reads as its name with spaces, capitalised. */
export function holdLabel(name: string): string {
  const known = holdLabels[name.trim().toLowerCase()];
  if (known) return known;
  const words = name.trim().replaceAll('_', ' ');
  return words === words.toLowerCase() ? words.charAt(0).toUpperCase() + words.slice(1) : words;
}
