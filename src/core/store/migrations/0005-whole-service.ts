/**
 * The rest of the service: custom field values and options, documents, webhook
 * notifications and email submissions as synced lists, routing. One migration in four parts, one
 * file each under `0005/`, applied in this order in one transaction like any migration.
 */
import * as customFields from './0005/custom-fields';
import * as documents from './0005/documents';
import * as notifications from './0005/notifications';
import * as routing from './0005/routing';

export const up = [customFields.up, documents.up, notifications.up, routing.up].join('\n');
