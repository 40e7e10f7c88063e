/**
 * Settings → Custom fields: the account's definitions with their pick-list options
 * (`customFields:admin`), and an admin's changes to them made at the service, online, through the
 * key's limiter at user priority: a definition created (with the choices of a pick list), renamed
 * or deleted, an option added, renamed or deleted. Each change is written here the moment the
 * service takes it, and `data:changed` says so, so the lists' columns and filter chips follow at
 * once; a refusal changes nothing here and comes back as one sentence (the service's 422 pointers
 * as the form's fields).
 */
import type { StoredResource } from '../store/resource';
import type { JsonApiDocument } from '../api/document';
import type { TrackingApiClient } from '../api/client';
import { ApiError } from '../api/errors';
import {
  isPickList,
  type AdminDefinition,
  type DefinitionEntityType,
  type DeletedDefinition,
} from '../../shared/custom-field-admin';
import type { Handlers } from '../../shared/ipc';
import { QuaysideError } from '../errors';
import { customFieldEntities } from '../resources/custom-fields';
import type { Session } from '../session';
import {
  adminDefinitionRows,
  adminOptionRows,
  dropDefinition,
  dropOption,
  relabelValues,
  valueCountOf,
} from '../store/queries/custom-field-admin';
import { writeResources } from '../store/writer';
import { toActionError } from './api-errors';
import type { CoreContext } from './context';

type AdminHandlers = Pick<
  Handlers,
  | 'customFields:admin'
  | 'customFields:createDefinition'
  | 'customFields:renameDefinition'
  | 'customFields:deleteDefinition'
  | 'customFields:createOption'
  | 'customFields:renameOption'
  | 'customFields:deleteOption'
>;

/** The values' record type (`shipment`) of a definition's (`Shipment`). */
const valueTypeOf = (entityType: string) => customFieldEntities.find((e) => e.filter === entityType)?.type ?? null;

/** The service's 422 pointers as the names of the Settings form's fields. */
const formFields: Record<string, string> = {
  display_name: 'name',
  api_slug: 'name',
  data_type: 'dataType',
  entity_type: 'entityType',
  label: 'label',
  value: 'label',
};

/** What the client threw, in one sentence; a refusal's fields named as the form names them. */
function refused(error: unknown): Error {
  const failure = toActionError(error);
  if (failure instanceof QuaysideError && failure.fields) {
    failure.fields = Object.fromEntries(Object.entries(failure.fields).map(([k, v]) => [formFields[k] ?? k, v]));
  }
  return failure;
}

function definitions(session: Session): AdminDefinition[] {
  const options = adminOptionRows(session.db);
  return adminDefinitionRows(session.db).map((row) => {
    const type = valueTypeOf(row.entityType);
    return {
      id: row.id,
      entityType: row.entityType as DefinitionEntityType,
      apiSlug: row.apiSlug,
      name: row.name ?? row.apiSlug,
      dataType: row.dataType ?? 'short_text',
      description: row.description,
      options: options
        .filter((o) => o.definitionId === row.id && o.value !== null)
        .map((o) => ({ id: o.id, value: o.value!, label: o.label ?? o.value! })),
      valueCount: type ? valueCountOf(session.db, type, row.apiSlug) : 0,
    };
  });
}

function definitionOf(session: Session, id: string): AdminDefinition {
  const found = definitions(session).find((d) => d.id === id);
  if (!found) throw new QuaysideError('not_found', 'This custom field is no longer here; it may have been deleted.');
  return found;
}

function clientOf(session: Session): TrackingApiClient {
  if (!session.client) throw new QuaysideError('key_refused', session.noKeyMessage);
  return session.client;
}

/** The record a write answered with, or a refusal when the service said nothing usable. */
function recordOf(doc: JsonApiDocument | null, type: string): StoredResource {
  const data = doc && !Array.isArray(doc.data) ? doc.data : null;
  if (!data || data.type !== type || typeof data.id !== 'string') {
    throw new QuaysideError('busy', 'The Tracking API answered without the custom field; try again in a minute.');
  }
  return data;
}

const write = (session: Session, resources: StoredResource[]) =>
  writeResources(session.db, resources, { syncedAt: new Date().toISOString() });

/** An option as stored: the service gives it no link to its definition, so it is added here. */
const optionUnder = (definitionId: string, option: StoredResource): StoredResource => ({
  ...option,
  relationships: {
    ...option.relationships,
    definition: { data: { type: 'custom_field_definition', id: definitionId } },
  },
});

/** A field's name as an API slug: lower-case letters, digits and _, not taken by another field of its type. */
function slugFor(session: Session, entityType: string, name: string): string {
  const base =
    name
      .normalize('NFKD')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^[^a-z]+|_+$/g, '')
      .slice(0, 56) || 'field';
  const taken = new Set(
    adminDefinitionRows(session.db).flatMap((d) => (d.entityType === entityType ? [d.apiSlug] : [])),
  );
  let slug = base;
  for (let n = 2; taken.has(slug); n++) slug = `${base}_${n}`;
  return slug;
}

const optionsPath = (definitionId: string) => `/custom_field_definitions/${encodeURIComponent(definitionId)}/options`;
const optionPath = (definitionId: string, optionId: string) =>
  `${optionsPath(definitionId)}/${encodeURIComponent(optionId)}`;
const definitionPath = (id: string) => `/custom_field_definitions/${encodeURIComponent(id)}`;

/** Relabels the values of a pick list as its options are now (after an option's rename or deletion). */
function relabel(session: Session, definition: AdminDefinition): void {
  const type = valueTypeOf(definition.entityType);
  const now = definitionOf(session, definition.id);
  if (type) relabelValues(session.db, type, definition.apiSlug, new Map(now.options.map((o) => [o.value, o.label])));
}

export function customFieldAdminHandlers(ctx: CoreContext): AdminHandlers {
  const changed = () => ctx.events.emit('data:changed');
  return {
    'customFields:admin': async () => definitions(await ctx.session()),

    'customFields:createDefinition': async ({ entityType, name, dataType, options }) => {
      const session = await ctx.session();
      const client = clientOf(session);
      const attributes = { entity_type: entityType, api_slug: slugFor(session, entityType, name), display_name: name };
      let created: StoredResource;
      try {
        created = recordOf(
          await client.post(
            '/custom_field_definitions',
            { data: { type: 'custom_field_definition', attributes: { ...attributes, data_type: dataType } } },
            { priority: 'user' },
          ),
          'custom_field_definition',
        );
      } catch (error) {
        throw refused(error);
      }
      const made: StoredResource[] = [];
      try {
        for (const [i, label] of (isPickList(dataType) ? options : []).entries()) {
          const doc = await client.post(
            optionsPath(created.id),
            { data: { type: 'custom_field_option', attributes: { label, value: label, position: i + 1 } } },
            { priority: 'user' },
          );
          made.push(optionUnder(created.id, recordOf(doc, 'custom_field_option')));
        }
      } catch (error) {
        // A field without all its choices is not what was asked for: taken back at the service.
        await client.delete(definitionPath(created.id), { priority: 'user' }).catch((undo: unknown) => {
          ctx.log('a new custom field whose choices were refused could not be deleted again', undo);
        });
        throw refused(error);
      }
      write(session, [created, ...made]);
      changed();
      return definitionOf(session, created.id);
    },

    'customFields:renameDefinition': async ({ id, name }) => {
      const session = await ctx.session();
      definitionOf(session, id);
      let doc;
      try {
        doc = await clientOf(session).patch(
          definitionPath(id),
          { data: { type: 'custom_field_definition', attributes: { display_name: name } } },
          { priority: 'user', idempotent: true },
        );
      } catch (error) {
        throw refused(error);
      }
      write(session, [recordOf(doc, 'custom_field_definition')]);
      changed();
      return definitionOf(session, id);
    },

    'customFields:deleteDefinition': async ({ id }): Promise<DeletedDefinition> => {
      const session = await ctx.session();
      const definition = definitionOf(session, id);
      try {
        await clientOf(session).delete(definitionPath(id), { priority: 'user' });
      } catch (error) {
        // Already gone at the service: it goes here too.
        if (!(error instanceof ApiError && error.status === 404)) throw refused(error);
      }
      const type = valueTypeOf(definition.entityType);
      const values = dropDefinition(session.db, id, type ?? '', definition.apiSlug);
      changed();
      return { deleted: true, values };
    },

    'customFields:createOption': async ({ definitionId, label }) => {
      const session = await ctx.session();
      const definition = definitionOf(session, definitionId);
      if (!isPickList(definition.dataType)) {
        throw new QuaysideError('invalid_argument', `${definition.name} is not a pick list; it has no choices.`);
      }
      if (definition.options.some((o) => o.value.toLowerCase() === label.toLowerCase())) {
        throw new QuaysideError('rejected', `${definition.name} already has the choice “${label}”.`, {
          fields: { label: 'This choice is there already.' },
        });
      }
      let doc;
      try {
        doc = await clientOf(session).post(
          optionsPath(definitionId),
          {
            data: {
              type: 'custom_field_option',
              attributes: { label, value: label, position: definition.options.length + 1 },
            },
          },
          { priority: 'user' },
        );
      } catch (error) {
        throw refused(error);
      }
      write(session, [optionUnder(definitionId, recordOf(doc, 'custom_field_option'))]);
      changed();
      return definitionOf(session, definitionId);
    },

    'customFields:renameOption': async ({ definitionId, optionId, label }) => {
      const session = await ctx.session();
      const definition = definitionOf(session, definitionId);
      if (!definition.options.some((o) => o.id === optionId)) {
        throw new QuaysideError('not_found', 'This choice is no longer here; it may have been deleted.');
      }
      let doc;
      try {
        doc = await clientOf(session).patch(
          optionPath(definitionId, optionId),
          { data: { type: 'custom_field_option', attributes: { label } } },
          { priority: 'user', idempotent: true },
        );
      } catch (error) {
        throw refused(error);
      }
      write(session, [optionUnder(definitionId, recordOf(doc, 'custom_field_option'))]);
      relabel(session, definition);
      changed();
      return definitionOf(session, definitionId);
    },

    'customFields:deleteOption': async ({ definitionId, optionId }) => {
      const session = await ctx.session();
      const definition = definitionOf(session, definitionId);
      try {
        await clientOf(session).delete(optionPath(definitionId, optionId), { priority: 'user' });
      } catch (error) {
        if (!(error instanceof ApiError && error.status === 404)) throw refused(error);
      }
      dropOption(session.db, optionId);
      relabel(session, definition);
      changed();
      return definitionOf(session, definitionId);
    },
  };
}
