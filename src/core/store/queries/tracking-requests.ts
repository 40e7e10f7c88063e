/** The tracking requests list's queries (declared in src/core/resources/tracking-requests.ts), by their old names. */
import { listQueries } from './list-view';

export const trackingRequestView = listQueries.trackingRequests;
export const listTrackingRequests = trackingRequestView.page;
export const countTrackingRequests = trackingRequestView.count;
export const iterateTrackingRequests = trackingRequestView.iterate;
export const getTrackingRequestRow = trackingRequestView.get;
