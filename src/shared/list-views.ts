/**
 * The list views, by registry name (the resource each lists, as src/core/resources names it):
 * each one's filter schema, sort fields, row and detail. The IPC channels (`<name>:list`,
 * `:count`, `:get`), the renderer's list types and the core's list declarations all come from
 * this map; the view id users see (CLI `export` names, URLs, saved list state, `export:list`'s
 * `view`) is the registry name in kebab case (`viewIdOf`), never typed by hand.
 */
import { emailSubmissionFiltersSchema, emailSubmissionSortFields, type EmailSubmissionRow } from './documents';
import type { ContainerRow, ShipmentRow, TrackingRequestRow } from './rows';
import type { ContainerDetail, ShipmentDetail } from './types';
import {
  containerFiltersSchema,
  containerSortFields,
  shipmentFiltersSchema,
  shipmentSortFields,
  sortSchema,
  sortWithCustomFieldsSchema,
  trackingRequestFiltersSchema,
  trackingRequestSortFields,
} from './views';

export const listViews = {
  shipments: { filters: shipmentFiltersSchema, sort: sortWithCustomFieldsSchema(shipmentSortFields) },
  containers: { filters: containerFiltersSchema, sort: sortWithCustomFieldsSchema(containerSortFields) },
  trackingRequests: {
    filters: trackingRequestFiltersSchema,
    sort: sortWithCustomFieldsSchema(trackingRequestSortFields),
  },
  emailSubmissions: { filters: emailSubmissionFiltersSchema, sort: sortSchema(emailSubmissionSortFields) },
} as const;

/** A list view's registry name: `shipments`, `containers`, `trackingRequests`. */
export type ListName = keyof typeof listViews;

/** What each list's rows are (`<name>:list`) and what `<name>:get` answers. */
export interface ListTypes {
  shipments: { row: ShipmentRow; detail: ShipmentDetail };
  containers: { row: ContainerRow; detail: ContainerDetail };
  trackingRequests: { row: TrackingRequestRow; detail: TrackingRequestRow };
  emailSubmissions: { row: EmailSubmissionRow; detail: EmailSubmissionRow };
}

/** Registry order: the order lists are offered in (CLI usage, export names). */
export const listNames = Object.keys(listViews) as ListName[];

type Kebab<S extends string> = S extends `${infer Head}${infer Tail}`
  ? `${Head extends Uppercase<Head> ? (Head extends Lowercase<Head> ? Head : `-${Lowercase<Head>}`) : Head}${Kebab<Tail>}`
  : S;
/** The view id of a list: its registry name in kebab case (`trackingRequests` → `tracking-requests`). */
export type ViewId<N extends ListName = ListName> = { [K in N]: Kebab<K> }[N];

/** The one place a list's view id is made from its registry name. */
export function viewIdOf<N extends ListName>(name: N): ViewId<N> {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`) as ViewId<N>;
}

const byViewId = new Map<string, ListName>(listNames.map((name) => [viewIdOf(name), name]));
/** The list a view id (a CLI name, a URL segment, a saved state's key) names, if any. */
export function listNameOf(viewId: string): ListName | undefined {
  return byViewId.get(viewId);
}
