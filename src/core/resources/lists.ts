/**
 * The list views, each declared on its resource's descriptor file (`defineList`): one entry per
 * list of the shared list map (src/shared/list-views.ts), so a list the map names and no
 * resource declares, or one declared under another name, fails tsc.
 */
import type { ListName } from '../../shared/list-views';
import { containersList } from './containers';
import { emailSubmissionsList } from './email-submissions';
import type { ListSpec } from './define-list';
import { shipmentsList } from './shipments';
import { trackingRequestsList } from './tracking-requests';

export type {
  BaseRowOf,
  FilterQuery,
  FilterSql,
  ListFiltersOf,
  ListRowOf,
  ListSortFieldOf,
  ListSpec,
  SortSql,
  StaticSortFieldOf,
} from './define-list';

type ListRegistry = { [N in ListName]: ListSpec<N> };

export const lists: ListRegistry = {
  shipments: shipmentsList,
  containers: containersList,
  trackingRequests: trackingRequestsList,
  emailSubmissions: emailSubmissionsList,
};
