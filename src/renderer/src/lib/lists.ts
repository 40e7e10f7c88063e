/**
 * The three lists, defined as data: one module each (columns, chips, default sort), over the
 * types and cell helpers of lists-model.ts and the chip helpers of lists-filters.ts.
 */
import { containersList } from './lists-containers';
import { emailSubmissionsList } from './lists-email-submissions';
import { shipmentsList } from './lists-shipments';
import { trackingRequestsList } from './lists-tracking-requests';

export type { Cell, Column, FilterDef, ListDef, ListId, Tone } from './lists-model';
export { statusTone } from './lists-containers';
export { containersList, emailSubmissionsList, shipmentsList, trackingRequestsList };

export const lists = {
  shipments: shipmentsList,
  containers: containersList,
  trackingRequests: trackingRequestsList,
  emailSubmissions: emailSubmissionsList,
} as const;
