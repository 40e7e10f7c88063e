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
