/**
 * Custom fields on a record's page: `customFields:ofRecord` answers every field of the record's
 * type with the value it holds, and, when the service could not list that type's values at the
 * last sync (`unavailable:custom_fields:<Type>`), first reads the record's own
 * `/<records>/{id}/custom_fields` at user priority (online). `customFields:set` writes a value
 * through the record's custom-field endpoint (PATCH, or POST for a field the record never had,
 * DELETE to clear it) and stores the answer at once; a refusal changes nothing here.
 */
import type { CustomFieldDefinitionInfo, CustomFieldEntityType, CustomFieldItem } from '../../shared/custom-fields';
import type { Handlers } from '../../shared/ipc';
import { ApiError } from '../api/errors';
import { QuaysideError } from '../errors';
import { customFieldEntities, customFieldWalkKey } from '../resources/custom-fields';
import type { Session } from '../session';
import {
  customFieldDefinitionRows,
  customFieldOptions,
  customFieldsOfRecord,
  customFieldValue,
  customFieldValueCounts,
  deleteCustomFieldValue,
  type CustomFieldRow,
  type DefinitionEntityType,
} from '../store/queries/custom-fields';
import type { StoredResource } from '../store/resource';
import { readState } from '../store/sync-state';
import { writeResources } from '../store/writer';
import { toActionError } from './api-errors';
import type { CoreContext } from './context';

const entityOf = (type: CustomFieldEntityType) => customFieldEntities.find((e) => e.type === type)!;
const recordsPath = (type: CustomFieldEntityType, id: string) =>
  `/${type === 'tracking_request' ? 'tracking_requests' : `${type}s`}/${encodeURIComponent(id)}/custom_fields`;

function items(session: Session, type: CustomFieldEntityType, id: string): CustomFieldItem[] {
  const definitionType: DefinitionEntityType = entityOf(type).filter;
  const options = customFieldOptions(session.db, definitionType);
  return customFieldsOfRecord(session.db, definitionType, id).map((row: CustomFieldRow) => ({
    definitionId: row.definitionId,
    apiSlug: row.apiSlug,
    name: row.name ?? row.apiSlug,
    dataType: row.dataType ?? 'short_text',
    description: row.description,
    value: customFieldValue(row.value),
    displayValue: row.displayValue,
    options: options
      .filter((o) => o.definitionId === row.definitionId && o.value !== null)
      .map((o) => ({ value: o.value!, label: o.label ?? o.value! })),
  }));
}

function write(session: Session, resources: unknown[]): void {
  writeResources(session.db, resources.flat().filter(Boolean) as StoredResource[], {
    syncedAt: new Date().toISOString(),
  });
}

/** The fields of a record type as the lists offer them: each with its pick list's options and counts. */
function definitionInfos(session: Session, type: CustomFieldEntityType): CustomFieldDefinitionInfo[] {
  const definitionType: DefinitionEntityType = entityOf(type).filter;
  const options = customFieldOptions(session.db, definitionType);
  return customFieldDefinitionRows(session.db, definitionType).map((row) => {
    const dataType = row.dataType ?? 'short_text';
    const choices = options.filter((o) => o.definitionId === row.definitionId && o.value !== null);
    const counts =
      choices.length > 0 ? customFieldValueCounts(session.db, type, row.apiSlug, dataType === 'enum_multi') : null;
    return {
      apiSlug: row.apiSlug,
      name: row.name ?? row.apiSlug,
      dataType,
      description: row.description,
      options: choices.map((o) => ({ value: o.value!, label: o.label ?? o.value!, count: counts?.get(o.value!) ?? 0 })),
    };
  });
}

export function customFieldHandlers(
  ctx: CoreContext,
): Pick<Handlers, 'customFields:ofRecord' | 'customFields:set' | 'customFields:definitions'> {
  return {
    'customFields:definitions': async ({ entityType }) => definitionInfos(await ctx.session(), entityType),
    'customFields:ofRecord': async ({ entityType, id }) => {
      const session = await ctx.session();
      const entity = entityOf(entityType);
      const listFailed = readState<string>(session.db, `unavailable:${customFieldWalkKey(entity.filter)}`) !== null;
      let notice: string | null = null;
      if (listFailed) {
        notice = `The Tracking API could not list custom field values of ${entity.noun} at the last sync; these were read for this record alone.`;
        if (session.client && session.online) {
          try {
            const doc = await session.client.get(recordsPath(entityType, id), {
              query: { 'page[size]': 100 },
              priority: 'user',
            });
            write(session, [doc.data, doc.included]);
          } catch (error) {
            ctx.log('custom field values could not be read for this record; showing the stored ones', error);
            notice = `The Tracking API could not list custom field values of ${entity.noun} at the last sync, nor give this record's: ${toActionError(error).message}`;
          }
        } else {
          notice = `The Tracking API could not list custom field values of ${entity.noun} at the last sync; this record's are read when you open it online.`;
        }
      }
      return { fields: items(session, entityType, id), notice };
    },
    'customFields:set': async ({ entityType, id, apiSlug, value }) => {
      const session = await ctx.session();
      const field = items(session, entityType, id).find((f) => f.apiSlug === apiSlug);
      if (!field) throw new QuaysideError('not_found', 'There is no such custom field for this record here.');
      if (!session.client) throw new QuaysideError('key_refused', session.noKeyMessage);
      const client = session.client;
      const path = recordsPath(entityType, id);
      const slugPath = `${path}/${encodeURIComponent(apiSlug)}`;
      try {
        if (value === null || (Array.isArray(value) && value.length === 0) || value === '') {
          await client.delete(slugPath, { priority: 'user' }).catch((error: unknown) => {
            // Already clear at the service: nothing to undo.
            if (!(error instanceof ApiError && error.status === 404)) throw error;
          });
          deleteCustomFieldValue(session.db, id, apiSlug);
        } else {
          const body = { data: { type: 'custom_field', attributes: { value } } };
          let doc;
          try {
            doc = await client.patch(slugPath, body, { priority: 'user', idempotent: true });
          } catch (error) {
            // A field the record never had: created under the record instead.
            if (!(error instanceof ApiError && error.status === 404) || field.value !== null) throw error;
            doc = await client.post(
              path,
              { data: { type: 'custom_field', attributes: { api_slug: apiSlug, value } } },
              { priority: 'user' },
            );
          }
          if (doc) write(session, [doc.data, doc.included]);
        }
      } catch (error) {
        throw toActionError(error);
      }
      ctx.events.emit('data:changed');
      return items(session, entityType, id).find((f) => f.apiSlug === apiSlug)!;
    },
  };
}
