/**
 * Forwarder workflows: change history and bulk import; and the indexes the lists sort and
 * filter custom fields by. One migration in parts, one file each under `0006/`,
 * applied in this order in one transaction like any migration.
 */
import * as changes from './0006/changes';
import * as customFieldLists from './0006/custom-field-lists';
import * as imports from './0006/imports';

export const up = [changes.up, imports.up, customFieldLists.up].join('\n');
