/**
 * Type test, checked by `npm run typecheck` (svelte-check over tsconfig.web.json), never run: the
 * renderer's list filters, sorts and chips are the IPC contract's (`listViews` in
 * src/shared/requests.ts), so a filter key, value or sort field a list does not take fails tsc.
 * Each `@ts-expect-error` fails the check if its line ever compiles (the types loosened).
 */
import type { ListFilters, ListSortField } from '../../src/shared/requests';
import type { ListQuery } from '../../src/renderer/src/lib/list-api';
import type { Column, FilterDef, ListDef } from '../../src/renderer/src/lib/lists-model';
import type { ListRow } from '../../src/shared/ipc';

// What the lists really send.
export const containersDueSoon: ListQuery<'containers'> = {
  filters: { statuses: ['available'], onHold: false, lfdTo: '2026-11-26T23:59:59.999Z', carriers: ['MAEU'] },
  sort: { field: 'last_free_day', direction: 'asc' },
};
export const failedRequests: ListFilters<'trackingRequests'> = { statuses: ['failed'], search: 'MSCU' };
export const emailsWithDocuments: ListQuery<'emailSubmissions'> = {
  filters: { hasDocuments: true, search: 'invoice' },
  sort: { field: 'sent_at', direction: 'desc' },
};
// @ts-expect-error: email submissions have no carrier.
export const emailsByCarrier: ListFilters<'emailSubmissions'> = { carriers: ['MAEU'] };
export const etaChip: FilterDef<ListFilters<'shipments'>> = {
  key: 'eta',
  label: 'ETA',
  kind: 'range',
  days: 'etaDays',
  from: 'etaFrom',
  to: 'etaTo',
};
export const byEta: ListSortField<'shipments'> = 'eta';

// Custom fields: a typed filter per field (by api_slug) and a sort by `cf.<api_slug>`.
export const byPoNumber: ListQuery<'shipments'> = {
  filters: {
    customFields: {
      po_number: { kind: 'text', contains: '4500' },
      incoterm: { kind: 'options', values: ['FOB', 'CIF'] },
      cargo_ready_date: { kind: 'date', from: '2026-03-01' },
    },
  },
  sort: { field: 'cf.po_number', direction: 'desc' },
};
export const palletsAndCold: ListFilters<'containers'> = {
  customFields: { pallet_count: { kind: 'number', min: 10 }, temperature_controlled: { kind: 'flag', is: true } },
};
export const byCostCentre: ListSortField<'trackingRequests'> = 'cf.cost_centre';
export const wrongCustomKind: ListFilters<'shipments'> = {
  // @ts-expect-error: a text filter holds what it contains, not a pick list's values
  customFields: { po_number: { kind: 'text', values: ['x'] } },
};
// @ts-expect-error: a yes/no filter holds a boolean
export const wrongCustomFlag: ListFilters<'containers'> = { customFields: { cold: { kind: 'flag', is: 'yes' } } };
// @ts-expect-error: a custom field's sort names it after `cf.`
export const wrongCustomSort: ListSortField<'shipments'> = 'po_number';
// @ts-expect-error: email submissions have no custom fields
export const emailsByPo: ListFilters<'emailSubmissions'> = { customFields: {} };
// @ts-expect-error: nor sort by one
export const emailsSortedByPo: ListSortField<'emailSubmissions'> = 'cf.po_number';

// A filter key the list does not have (`carrier` for `carriers`).
// @ts-expect-error: unknown filter key
export const wrongKey: ListFilters<'shipments'> = { carrier: ['MAEU'] };

// A value of the wrong type: carriers are a list.
// @ts-expect-error: string where the contract takes string[]
export const wrongValue: ListFilters<'shipments'> = { carriers: 'MAEU' };

// A tracking request's status on the containers list.
// @ts-expect-error: not a container status
export const wrongStatus: ListFilters<'containers'> = { statuses: ['failed'] };

// A container filter on the shipments list.
// @ts-expect-error: shipments have no last free day
export const wrongList: ListFilters<'shipments'> = { lfdFrom: '2026-11-23T00:00:00.000Z' };

// Shipments do not sort by last free day.
// @ts-expect-error: not a shipment sort field
export const wrongSort: ListQuery<'shipments'>['sort'] = { field: 'last_free_day', direction: 'asc' };

// A chip offering values for a yes/no filter, and a range over keys that are no instants.
// @ts-expect-error: etaSlipped is a flag, not a list of values
export const wrongChipKind: FilterDef<ListFilters<'shipments'>> = {
  key: 'etaSlipped',
  label: 'x',
  kind: 'options',
  source: 'tags',
};
export const wrongRange: FilterDef<ListFilters<'shipments'>> = {
  key: 'eta',
  label: 'ETA',
  kind: 'range',
  // @ts-expect-error: search is text, not an end of a date range
  from: 'search',
  to: 'etaTo',
};

// A column sorting by a field its list does not sort by.
export const wrongColumn: Column<ListRow<'trackingRequests'>, ListSortField<'trackingRequests'>> = {
  key: 'eta',
  label: 'ETA',
  // @ts-expect-error: tracking requests do not sort by ETA
  sort: 'eta',
  width: 100,
  exportKeys: [],
  cell: () => ({ kind: 'text', text: '' }),
  shownByDefault: true,
};

// A list definition whose default sort its list does not take.
export const wrongDefault: Pick<ListDef<'containers'>, 'defaultSort'> = {
  // @ts-expect-error: containers do not sort by ETA
  defaultSort: { field: 'eta', direction: 'asc' },
};
