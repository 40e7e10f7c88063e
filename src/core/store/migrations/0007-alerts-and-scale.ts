/**
 * Alerts and scale: desktop notification rules' bookkeeping (issue 16), a smaller database
 * (issue 17) and the webhook notification feed (issue 15). One migration in parts, one file each
 * under `0007/`, applied in this order in one transaction like any migration.
 */
import * as disk from './0007/disk';
import * as feed from './0007/feed';
import * as notifications from './0007/notifications';

export const up = [disk.up, feed.up, notifications.up].join('\n');
