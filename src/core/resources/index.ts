/**
 * The resource registry: every synced resource, declared once (one descriptor file each).
 * Its keys are the resource names (`ResourceName`), each descriptor's column names stay
 * literal (`ColumnName<'shipments'>`), and a reference to a resource not in the registry, or a
 * key that is not its descriptor's name, fails `tsc`.
 */
import { containers } from './containers';
import { customFieldDefinitions } from './custom-field-definitions';
import { customFieldOptions } from './custom-field-options';
import { customFields } from './custom-fields';
import type { LookupName } from '../../shared/lookups';
import type { Column, ResourceDescriptor, ViewSpec, WalkDef } from './define';
import { documentRepresentations, documents, documentSchemas } from './documents';
import { emailSubmissions } from './email-submissions';
import { parties } from './parties';
import { rawEvents } from './raw-events';
import { locations } from './locations';
import { metroAreas } from './metro-areas';
import { ports } from './ports';
import { shipments } from './shipments';
import { shippingLines } from './shipping-lines';
import { terminals } from './terminals';
import { trackingRequests } from './tracking-requests';
import { transportEvents } from './transport-events';
import { vessels } from './vessels';
import { webhooks } from './webhooks';
import { webhookNotifications } from './webhook-notifications';

export type { Column, ResourceDescriptor, SqlType, WalkDef, WalkWhen, WriteContext } from './define';
export { instantText, internedText, PAGE_SIZE, storedUuid, uuidText } from './define';

/** Each entry named by its key, each reference naming an entry (else `tsc` fails). */
type Registry<R> = {
  [K in keyof R]: ResourceDescriptor & { name: K; columns: Record<string, Column<unknown, keyof R & string>> };
};

export function defineRegistry<const R extends Registry<R>>(entries: R): R {
  return entries;
}

export const resources = defineRegistry({
  ports,
  metroAreas,
  terminals,
  vessels,
  parties,
  shippingLines,
  shipments,
  containers,
  transportEvents,
  rawEvents,
  trackingRequests,
  customFieldDefinitions,
  customFieldOptions,
  customFields,
  emailSubmissions,
  documentSchemas,
  documentRepresentations,
  documents,
  webhooks,
  webhookNotifications,
});

export type Resources = typeof resources;
export type ResourceName = keyof Resources;
/** The columns the writer fills for a resource, as literal names. */
export type ColumnName<N extends ResourceName> = keyof Resources[N]['columns'] & string;
/** A resource's table, as a literal. */
export type TableName<N extends ResourceName = ResourceName> = Resources[N]['table'];

/** Views: registry entries that read synced tables and write none (no type, no walk), each naming its sources. */
type ViewRegistry<V> = { [K in keyof V]: ViewSpec<K & string, ResourceName, string> };
export function defineViews<const V extends ViewRegistry<V>>(entries: V): V {
  return entries;
}
export const views = defineViews({ locations });
export type ViewName = keyof typeof views;
/** A view's SQL name, as a literal. */
export type ViewTable<N extends ViewName = ViewName> = (typeof views)[N]['view']['table'];

/** Resources a sync fetches one by one when a page referenced them without including them (`api.get`). */
export const stubFills: readonly { resource: ResourceName; get: string; step: string }[] = Object.values(
  resources,
).flatMap((d: ResourceDescriptor) =>
  d.api?.get ? [{ resource: d.name as ResourceName, get: d.api.get, step: d.api.fill ?? d.name }] : [],
);

/** How a looked-up resource (src/shared/lookups.ts) is found and named: its table and descriptor `lookup`. */
export function lookupOf(name: LookupName): { table: string; title: string; alt?: string; path: string } {
  const d: ResourceDescriptor = resources[name];
  if (!d.lookup) throw new Error(`${name} has no lookup in its descriptor`);
  return { table: d.table, ...d.lookup };
}

/** Every descriptor, in registry order. */
export const descriptors: readonly ResourceDescriptor[] = Object.values(resources);

/** A resource's column names, in upsert order. */
export function columnNames<N extends ResourceName>(name: N): ColumnName<N>[] {
  return Object.keys(resources[name].columns) as ColumnName<N>[];
}

/** The descriptor that stores a JSON:API type, or undefined for a type the store does not keep. */
const byType = new Map<string, ResourceDescriptor>(descriptors.flatMap((d) => d.types.map((t) => [t, d])));
export function descriptorOfType(type: string): ResourceDescriptor | undefined {
  return byType.get(type);
}

/** A walk together with the resource it syncs. */
export interface Walk extends WalkDef {
  resource: ResourceName;
  path: string;
  includes: readonly string[];
}

/** Every walk of every resource, in the order a run starts them. */
export const walks: readonly Walk[] = descriptors
  .flatMap((d) =>
    (d.walks ?? []).map((w) => ({
      ...w,
      resource: d.name as ResourceName,
      path: d.api?.path ?? '',
      includes: d.api?.includes ?? [],
    })),
  )
  .sort((a, b) => a.order - b.order);
