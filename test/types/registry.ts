/**
 * Type test (checked by `npm run typecheck`, never run): names derived from the resource
 * registry are literal, so a misspelt resource or column name fails `tsc`.
 */
import {
  columnNames,
  defineRegistry,
  defineViews,
  resources,
  views,
  type ColumnName,
  type ResourceName,
  type TableName,
  type ViewTable,
} from '../../src/core/resources';
import { columns, defineResource, defineView, idColumn } from '../../src/core/resources/define';

export const column: ColumnName<'shipments'> = 'bill_of_lading';
// @ts-expect-error: a misspelt column of a descriptor
export const misspeltColumn: ColumnName<'shipments'> = 'bill_of_ladng';
// @ts-expect-error: a column of another resource
export const otherColumn: ColumnName<'ports'> = 'bill_of_lading';

export const resource: ResourceName = 'trackingRequests';
export const table: TableName<'trackingRequests'> = 'tracking_requests';
// @ts-expect-error: another resource's table
export const otherTable: TableName<'trackingRequests'> = 'shipments';
// @ts-expect-error: a misspelt resource name
export const misspeltResource: ResourceName = 'trackingRequest';
// @ts-expect-error: a misspelt resource name as a type argument
export type Misspelt = ColumnName<'shipmnts'>;

export const names: 'id' | 'scac' | 'name' | 'short_name' | 'raw' | 'synced_at' = columnNames('shippingLines')[0]!;
// @ts-expect-error: a misspelt column read off a descriptor
export const misspeltRead = resources.containers.columns.lfd_deadline;

const c = columns();
export const badConflict = defineResource({
  name: 'things',
  types: ['thing'],
  table: 'things',
  writeRank: 1,
  columns: { id: idColumn, label: c.text(() => null) },
  // @ts-expect-error: onConflict names a column the descriptor does not have
  onConflict: { lable: 'excluded.label' },
});

const things = defineResource({
  name: 'things',
  types: ['thing'],
  table: 'things',
  writeRank: 1,
  columns: { id: idColumn, owner_id: c.ref('owners', () => null) },
});
const owners = defineResource({
  name: 'owners',
  types: ['owner'],
  table: 'owners',
  writeRank: 0,
  columns: { id: idColumn },
});
export const registry = defineRegistry({ owners, things });
// @ts-expect-error: a reference to a resource the registry does not hold
export const missingTarget = defineRegistry({ things });
// @ts-expect-error: an entry under another name than its descriptor's
export const misnamed = defineRegistry({ owners, thing: things });

// Views (e.g. locations): their SQL name is a literal, their sources are resource names.
export const locationsTable: ViewTable<'locations'> = 'locations';
// @ts-expect-error: a view's table is its own
export const otherView: ViewTable<'locations'> = 'ports';
export const sources: readonly ResourceName[] = views.locations.view.sources;
const places = defineView({
  name: 'places',
  view: { table: 'places', sources: ['ports', 'metroAreas'] },
  columns: ['id'],
});
export const placesRegistry = defineViews({ places });
const nowhere = defineView({ name: 'nowhere', view: { table: 'nowhere', sources: ['metroArea'] }, columns: ['id'] });
// @ts-expect-error: a view over a resource the registry does not hold
export const badSource = defineViews({ nowhere });
// @ts-expect-error: a view under another name than its own
export const misnamedView = defineViews({ place: places });
