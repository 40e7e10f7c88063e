import type { Reply, RouteContext } from '../http';
import * as account from './account';
import * as containers from './containers';
import { inferNumber } from '../infer-number';
import * as customFieldAdmin from './custom-field-admin';
import * as customFields from './custom-fields';
import * as documentWrites from './document-writes';
import * as documents from './documents';
import * as reference from './reference';
import * as routing from './routing';
import { search } from './search';
import * as shipments from './shipments';
import * as trackingRequests from './tracking-requests';
import * as webhookTools from './webhook-tools';

export interface Route {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  pattern: RegExp;
  handler: (route: RouteContext) => Reply;
}

const id = '([^/]+)';
const path = (p: string) => new RegExp(`^/v2${p.replaceAll(':id', id)}/?$`);

const shipmentFields = customFields.perRecord('shipment');
const containerFields = customFields.perRecord('container');
const requestFields = customFields.perRecord('tracking_request');

export const routes: Route[] = [
  { method: 'GET', pattern: path('/tracking_requests'), handler: trackingRequests.listTrackingRequests },
  { method: 'POST', pattern: path('/tracking_requests'), handler: trackingRequests.createTrackingRequest },
  { method: 'POST', pattern: path('/tracking_requests/infer_number'), handler: inferNumber },
  { method: 'GET', pattern: path('/tracking_requests/:id'), handler: trackingRequests.getTrackingRequest },
  { method: 'PATCH', pattern: path('/tracking_requests/:id'), handler: trackingRequests.editTrackingRequest },
  { method: 'GET', pattern: path('/shipments'), handler: shipments.listShipments },
  { method: 'GET', pattern: path('/shipments/:id'), handler: shipments.getShipment },
  { method: 'PATCH', pattern: path('/shipments/:id'), handler: shipments.editShipment },
  { method: 'PATCH', pattern: path('/shipments/:id/stop_tracking'), handler: shipments.stopTracking },
  { method: 'PATCH', pattern: path('/shipments/:id/resume_tracking'), handler: shipments.resumeTracking },
  { method: 'GET', pattern: path('/containers'), handler: containers.listContainers },
  { method: 'PATCH', pattern: path('/containers'), handler: containers.editContainer },
  { method: 'GET', pattern: path('/containers/:id'), handler: containers.getContainer },
  { method: 'GET', pattern: path('/containers/:id/transport_events'), handler: containers.listTransportEvents },
  { method: 'GET', pattern: path('/containers/:id/raw_events'), handler: containers.listRawEvents },
  { method: 'GET', pattern: path('/containers/:id/map_geojson'), handler: routing.getContainerMap },
  { method: 'PATCH', pattern: path('/containers/:id/refresh'), handler: containers.refreshContainer },
  { method: 'GET', pattern: path('/shipping_lines'), handler: reference.listShippingLines },
  { method: 'GET', pattern: path('/shipping_lines/:id'), handler: reference.getShippingLine },
  { method: 'GET', pattern: path('/terminals/:id'), handler: reference.getTerminal },
  { method: 'GET', pattern: path('/ports/:id'), handler: reference.getPort },
  { method: 'GET', pattern: path('/metro_areas/:id'), handler: reference.getMetroArea },
  { method: 'GET', pattern: path('/vessels/:id'), handler: reference.getVessel },
  { method: 'GET', pattern: path('/vessels/:id/future_positions'), handler: routing.getVesselFuturePositions },
  {
    method: 'GET',
    pattern: path('/vessels/:id/future_positions_with_coordinates'),
    handler: routing.getVesselFuturePositionsWithCoordinates,
  },
  { method: 'GET', pattern: path('/custom_field_definitions'), handler: reference.listCustomFieldDefinitions },
  { method: 'POST', pattern: path('/custom_field_definitions'), handler: customFieldAdmin.createDefinition },
  { method: 'GET', pattern: path('/custom_field_definitions/:id'), handler: reference.getCustomFieldDefinition },
  { method: 'PATCH', pattern: path('/custom_field_definitions/:id'), handler: customFieldAdmin.editDefinition },
  { method: 'DELETE', pattern: path('/custom_field_definitions/:id'), handler: customFieldAdmin.deleteDefinition },
  { method: 'GET', pattern: path('/custom_field_definitions/:id/options'), handler: customFields.listOptions },
  { method: 'POST', pattern: path('/custom_field_definitions/:id/options'), handler: customFieldAdmin.createOption },
  { method: 'GET', pattern: path('/custom_field_definitions/:id/options/:id'), handler: customFields.getOption },
  { method: 'PATCH', pattern: path('/custom_field_definitions/:id/options/:id'), handler: customFieldAdmin.editOption },
  {
    method: 'DELETE',
    pattern: path('/custom_field_definitions/:id/options/:id'),
    handler: customFieldAdmin.deleteOption,
  },
  { method: 'GET', pattern: path('/custom_fields'), handler: customFields.listCustomFields },
  { method: 'POST', pattern: path('/custom_fields'), handler: customFieldAdmin.createValue },
  { method: 'GET', pattern: path('/custom_fields/:id'), handler: customFields.getCustomField },
  { method: 'PATCH', pattern: path('/custom_fields/:id'), handler: customFieldAdmin.editValue },
  { method: 'DELETE', pattern: path('/custom_fields/:id'), handler: customFieldAdmin.deleteValue },
  { method: 'GET', pattern: path('/shipments/:id/custom_fields'), handler: shipmentFields.list },
  { method: 'POST', pattern: path('/shipments/:id/custom_fields'), handler: shipmentFields.create },
  { method: 'PATCH', pattern: path('/shipments/:id/custom_fields/:id'), handler: shipmentFields.update },
  { method: 'DELETE', pattern: path('/shipments/:id/custom_fields/:id'), handler: shipmentFields.remove },
  { method: 'GET', pattern: path('/containers/:id/custom_fields'), handler: containerFields.list },
  { method: 'POST', pattern: path('/containers/:id/custom_fields'), handler: containerFields.create },
  { method: 'PATCH', pattern: path('/containers/:id/custom_fields/:id'), handler: containerFields.update },
  { method: 'DELETE', pattern: path('/containers/:id/custom_fields/:id'), handler: containerFields.remove },
  { method: 'GET', pattern: path('/tracking_requests/:id/custom_fields'), handler: requestFields.list },
  { method: 'POST', pattern: path('/tracking_requests/:id/custom_fields'), handler: requestFields.create },
  { method: 'PATCH', pattern: path('/tracking_requests/:id/custom_fields/:id'), handler: requestFields.update },
  { method: 'DELETE', pattern: path('/tracking_requests/:id/custom_fields/:id'), handler: requestFields.remove },
  { method: 'GET', pattern: path('/parties'), handler: account.listParties },
  { method: 'POST', pattern: path('/parties'), handler: account.createParty },
  { method: 'GET', pattern: path('/parties/:id'), handler: account.getParty },
  { method: 'PATCH', pattern: path('/parties/:id'), handler: account.editParty },
  { method: 'GET', pattern: path('/email_submissions'), handler: account.listEmailSubmissions },
  { method: 'GET', pattern: path('/email_submissions/:id'), handler: account.getEmailSubmission },
  { method: 'GET', pattern: path('/documents'), handler: documents.listDocuments },
  { method: 'GET', pattern: path('/documents/types'), handler: documents.listDocumentTypes },
  { method: 'POST', pattern: path('/documents'), handler: documentWrites.createDocument },
  { method: 'GET', pattern: path('/documents/:id'), handler: documents.getDocument },
  { method: 'PATCH', pattern: path('/documents/:id'), handler: documentWrites.editDocument },
  { method: 'DELETE', pattern: path('/documents/:id'), handler: documentWrites.deleteDocument },
  { method: 'POST', pattern: path('/documents/:id/reextract'), handler: documentWrites.queueDocumentWork },
  { method: 'POST', pattern: path('/documents/:id/reclassify'), handler: documentWrites.queueDocumentWork },
  { method: 'POST', pattern: path('/documents/:id/relink'), handler: documentWrites.queueDocumentWork },
  { method: 'POST', pattern: path('/documents/:id/rotate'), handler: documentWrites.rotateDocument },
  { method: 'GET', pattern: path('/documents/:id/download_url'), handler: documents.getDownloadUrl },
  { method: 'GET', pattern: path('/document_schemas/:id'), handler: documents.getDocumentSchema },
  { method: 'GET', pattern: path('/webhooks'), handler: account.listWebhooks },
  { method: 'GET', pattern: path('/webhooks/events'), handler: account.listWebhookEventCategories },
  { method: 'POST', pattern: path('/webhooks'), handler: account.createWebhook },
  // Before /webhooks/:id, which would take `ips` and `trigger` for ids.
  { method: 'GET', pattern: path('/webhooks/ips'), handler: webhookTools.listWebhookIps },
  { method: 'POST', pattern: path('/webhooks/trigger'), handler: webhookTools.triggerWebhook },
  { method: 'GET', pattern: path('/webhooks/:id'), handler: account.getWebhook },
  { method: 'PATCH', pattern: path('/webhooks/:id'), handler: account.editWebhook },
  { method: 'DELETE', pattern: path('/webhooks/:id'), handler: account.deleteWebhook },
  { method: 'GET', pattern: path('/webhook_notifications'), handler: account.listWebhookNotifications },
  {
    method: 'GET',
    pattern: path('/webhook_notifications/examples'),
    handler: webhookTools.listWebhookNotificationExamples,
  },
  { method: 'GET', pattern: path('/webhook_notifications/:id'), handler: account.getWebhookNotification },
  { method: 'GET', pattern: path('/search'), handler: search },
];

/** The route for a method and path, or why there is none (unknown path vs wrong method). */
export function matchRoute(
  method: string,
  pathname: string,
): { route: Route; params: string[] } | 'not_found' | 'method_not_allowed' {
  let pathMatched = false;
  for (const route of routes) {
    const match = route.pattern.exec(pathname);
    if (!match) continue;
    pathMatched = true;
    if (route.method === method) {
      try {
        return { route, params: match.slice(1).map((p) => decodeURIComponent(p)) };
      } catch {
        return 'not_found'; // a malformed percent-escape names nothing
      }
    }
  }
  return pathMatched ? 'method_not_allowed' : 'not_found';
}
