/**
 * The IPC contract: every channel the renderer may invoke and every event main may push.
 * Preload, main binding, core handlers, test host and renderer all derive their types from
 * this file; nothing else declares a channel. No node, electron or DOM imports here.
 */
import { z } from 'zod';
import {
  addHubProfileSchema,
  addProfileSchema,
  containerEventsSchema,
  createTrackingRequestSchema,
  exportEventsSchema,
  exportSchema,
  historySchema,
  idSchema,
  listArguments,
  removeProfileSchema,
  reportErrorSchema,
  searchSchema,
  dashboardSchema,
  switchProfileSchema,
  syncStartSchema,
  updateProfileSchema,
  updateShipmentSchema,
  validateKeySchema,
} from './requests';
import {
  changesCountSchema,
  changesForRecordSchema,
  changesListSchema,
  exportChangesSchema,
  type ChangeRow,
  type ChangesCount,
} from './changes';
import { alertsListSchema, type AlertsList } from './alerts';
import { insightsExportSchema, insightsRequestSchema, type InsightsResult } from './insights';
import type { DocumentInfo, DocumentOpened } from './documents';
import type { PerCustomerExportResult } from './export-per-customer';
import { filterValuesSchema, type FilterValues } from './filter-values';
import { listNames, type ListName, type ListTypes } from './list-views';
import {
  customFieldDefinitionsSchema,
  customFieldsOfRecordSchema,
  setCustomFieldSchema,
  type CustomFieldDefinitionInfo,
  type CustomFieldItem,
  type CustomFieldsOfRecord,
} from './custom-fields';
import {
  createDefinitionSchema,
  createOptionSchema,
  deleteDefinitionSchema,
  deleteOptionSchema,
  renameDefinitionSchema,
  renameOptionSchema,
  type AdminDefinition,
  type DeletedDefinition,
} from './custom-field-admin';
import { lookupNames, type LookupName } from './lookups';
import type { ShipmentRow, TrackingRequestRow } from './rows';
import { settingsPatchSchema } from './settings';
import { inferCarrierSchema, type CarrierSuggestion, type ContainerRefreshResult } from './service-actions';
import {
  openServiceResultSchema,
  serviceSearchSchema,
  type OpenedServiceResult,
  type ServiceSearchAnswer,
} from './service-search';
import { createWebhookSchema, updateWebhookSchema, type CreatedWebhook, type WebhookNotifications } from './webhooks';
import {
  importIdSchema,
  previewImportSchema,
  readImportSchema,
  sendImportSchema,
  setImportCarrierSchema,
  type ImportProgressEvent,
  type ImportState,
  type ImportTable,
} from './imports';
import type {
  AppInfo,
  DashboardSummary,
  DatabaseHealth,
  DataInfo,
  ExportResult,
  FilterOptions,
  KeyCheck,
  LookupRecord,
  MoveAsideResult,
  ProfileSummary,
  ProfilesState,
  SearchResults,
  Settings,
  SyncProgressInfo,
  SyncRun,
  SyncStatus,
  TransportEventRow,
  WebhookRow,
} from './types';
import type { Page } from './views';
import type { ContainerRoute } from './routing';

/** A channel: a schema for its argument and a phantom type for its result. */
function channel<Result>() {
  return <Args extends z.ZodType>(args: Args) => ({ args, result: undefined as unknown as Result });
}

/** An event pushed from main: a phantom type for its payload. */
function event<Payload>() {
  return { payload: undefined as unknown as Payload };
}

const noArgument = z.undefined();

/**
 * Each list view's channels, from the shared list map (src/shared/list-views.ts):
 * `<name>:list` (a keyset page of rows), `<name>:count` and `<name>:get` (its detail by id).
 */
type ListChannels = {
  [N in ListName as `${N}:list`]: { args: (typeof listArguments)[N]['list']; result: Page<ListTypes[N]['row']> };
} & {
  [N in ListName as `${N}:count`]: { args: (typeof listArguments)[N]['count']; result: number };
} & {
  [N in ListName as `${N}:get`]: { args: typeof idSchema; result: ListTypes[N]['detail'] };
};
const listChannels = Object.fromEntries(
  listNames.flatMap((name) => [
    [`${name}:list`, channel<unknown>()(listArguments[name].list)],
    [`${name}:count`, channel<unknown>()(listArguments[name].count)],
    [`${name}:get`, channel<unknown>()(idSchema)],
  ]),
) as ListChannels;

/** Each lookup's `<name>:get` (src/shared/lookups.ts): a reference record by id. */
type LookupChannels = {
  [N in LookupName as `${N}:get`]: { args: typeof idSchema; result: LookupRecord };
};
const lookupChannels = Object.fromEntries(
  lookupNames.map((name) => [`${name}:get`, channel<LookupRecord>()(idSchema)]),
) as LookupChannels;

export const contract = {
  'app:info': channel<AppInfo>()(noArgument),
  'settings:get': channel<Settings>()(noArgument),
  'settings:update': channel<Settings>()(settingsPatchSchema),
  'data:info': channel<DataInfo>()(noArgument),
  /** An error the page could not handle, for the local log (a crash report that stays here). */
  'app:reportError': channel<{ logged: true }>()(reportErrorSchema),
  /** Versions, database size, recent syncs and errors as text for a support email; never a key. */
  'app:diagnostics': channel<{ text: string; logPath: string | null }>()(noArgument),
  /** Deletes the active account's local database and starts an empty one (the service keeps everything). */
  'data:deleteLocal': channel<DataInfo>()(noArgument),
  /** Whether the active account's local copy opens: fine, read-only (shown, not synced), or why not. */
  'data:health': channel<DatabaseHealth>()(noArgument),
  /**
   * Renames a local copy that cannot be opened to `<name>.unreadable-<time>` beside it (kept,
   * never deleted) and starts a fresh one. A copy from a newer Quayside moves only with
   * `newerVersion: true`, the forwarder's explicit request.
   */
  'data:moveAside': channel<MoveAsideResult>()(z.object({ newerVersion: z.boolean().optional() }).strict()),

  'profiles:list': channel<ProfilesState>()(noArgument),
  'profiles:add': channel<{ profile: ProfileSummary; check: KeyCheck; state: ProfilesState }>()(addProfileSchema),
  /** A team hub account: checked against the hub (and the key, when given, against the service), then shown. */
  'profiles:addHub': channel<{ profile: ProfileSummary; check: KeyCheck | null; state: ProfilesState }>()(
    addHubProfileSchema,
  ),
  'profiles:update': channel<{ profile: ProfileSummary; check: KeyCheck | null; state: ProfilesState }>()(
    updateProfileSchema,
  ),
  'profiles:remove': channel<ProfilesState>()(removeProfileSchema),
  'profiles:switch': channel<ProfilesState>()(switchProfileSchema),
  'profiles:validateKey': channel<KeyCheck>()(validateKeySchema),

  'sync:start': channel<{ started: boolean }>()(syncStartSchema),
  'sync:cancel': channel<{ cancelled: boolean }>()(noArgument),
  'sync:status': channel<SyncStatus>()(noArgument),
  'sync:history': channel<SyncRun[]>()(historySchema),

  ...listChannels,
  'shipments:search': channel<SearchResults>()(searchSchema),
  /** Ctrl+K on the service (online, with a key): what its search finds that the local copy has not. */
  'search:service': channel<ServiceSearchAnswer>()(serviceSearchSchema),
  /** Fetches one of those results into the local copy; says where it opens. */
  'search:openServiceResult': channel<OpenedServiceResult>()(openServiceResultSchema),
  'containers:events': channel<{
    events: TransportEventRow[];
    fetchedAt: string | null;
    fromCache: boolean;
    /** Why the service could not be asked, when it was asked and failed (the stored events are shown). */
    error: string | null;
  }>()(containerEventsSchema),
  /** A container's route map as stored at the last sync (routing, a paid feature). */
  'containers:route': channel<ContainerRoute>()(idSchema),
  'dashboard:summary': channel<DashboardSummary>()(dashboardSchema),
  'filters:options': channel<FilterOptions>()(noArgument),
  /** One chip's values that match the text typed in its find box, those that start with it first. */
  'filters:values': channel<FilterValues>()(filterValuesSchema),

  'shippingLines:list': channel<LookupRecord[]>()(noArgument),
  ...lookupChannels,

  'trackingRequests:create': channel<TrackingRequestRow>()(createTrackingRequestSchema),
  'shipments:update': channel<ShipmentRow>()(updateShipmentSchema),
  'shipments:stopTracking': channel<ShipmentRow>()(idSchema),
  'shipments:resumeTracking': channel<ShipmentRow>()(idSchema),
  'webhooks:list': channel<WebhookRow[]>()(noArgument),
  'webhooks:delete': channel<{ deleted: true }>()(idSchema),
  /** Creates a webhook on the service; its signing secret comes back this once. */
  'webhooks:create': channel<CreatedWebhook>()(createWebhookSchema),
  'webhooks:update': channel<WebhookRow>()(updateWebhookSchema),
  /** The newest notifications the service sent the account's webhooks (read now when online). */
  'webhooks:notifications': channel<WebhookNotifications>()(noArgument),
  /** The carrier the service predicts for a number being typed; null offline or when it cannot say. */
  'trackingRequests:inferCarrier': channel<CarrierSuggestion | null>()(inferCarrierSchema),
  /** Asks the service to refresh a container from its sources now (10 a minute, a paid feature). */
  'containers:refresh': channel<ContainerRefreshResult>()(idSchema),
  'customFields:ofRecord': channel<CustomFieldsOfRecord>()(customFieldsOfRecordSchema),
  'customFields:set': channel<CustomFieldItem>()(setCustomFieldSchema),
  /** The custom fields of a record type, with the options of pick lists: the lists' columns and filters. */
  'customFields:definitions': channel<CustomFieldDefinitionInfo[]>()(customFieldDefinitionsSchema),
  /** Settings → Custom fields: every definition with its options and how many records hold a value. */
  'customFields:admin': channel<AdminDefinition[]>()(noArgument),
  /** Made at the service (online), then here: a definition, with a pick list's choices. */
  'customFields:createDefinition': channel<AdminDefinition>()(createDefinitionSchema),
  'customFields:renameDefinition': channel<AdminDefinition>()(renameDefinitionSchema),
  /** Deleted at the service with its options and values, then here. */
  'customFields:deleteDefinition': channel<DeletedDefinition>()(deleteDefinitionSchema),
  'customFields:createOption': channel<AdminDefinition>()(createOptionSchema),
  'customFields:renameOption': channel<AdminDefinition>()(renameOptionSchema),
  'customFields:deleteOption': channel<AdminDefinition>()(deleteOptionSchema),
  /** The documents of a shipment or container (by its id), newest first. */
  'documents:forRecord': channel<DocumentInfo[]>()(idSchema),
  /** Opens a document's file with the computer's viewer, fetching it first when it is not kept. */
  'documents:open': channel<DocumentOpened>()(idSchema),
  /** Shows a document's kept file in the computer's file manager (never runs it). */
  'documents:showInFolder': channel<{ shown: true }>()(idSchema),

  /** A list view's rows, filtered, sorted and with its shown columns, to a CSV or XLSX file (`format`). */
  'export:list': channel<ExportResult>()(exportSchema),
  /** The same rows as one file per customer, into a folder the user picks (main asks which). */
  'export:perCustomer': channel<PerCustomerExportResult>()(exportSchema),
  'export:events': channel<ExportResult>()(exportEventsSchema),

  /** Bulk import of tracking requests: a file's bytes or pasted cells, read and its columns mapped. */
  'imports:read': channel<ImportTable>()(readImportSchema),
  /** Every row checked under a mapping; rows without a carrier are then asked of the service. */
  'imports:preview': channel<ImportState>()(previewImportSchema),
  'imports:get': channel<ImportState>()(importIdSchema),
  /** Starts sending the ready rows (or the rows named, failed ones again); progress comes as events. */
  'imports:send': channel<ImportState>()(sendImportSchema),
  'imports:cancel': channel<ImportState>()(importIdSchema),
  'imports:setCarrier': channel<ImportState>()(setImportCarrierSchema),
  /** Every row's result as CSV, where the user picks. */
  'imports:export': channel<ExportResult>()(importIdSchema),
  /** Change history (local): a page of the changes a period and filters pick, newest first. */
  'changes:list': channel<Page<ChangeRow>>()(changesListSchema),
  /** How many changes they pick, with the period as resolved and the "last looked at" mark. */
  'changes:count': channel<ChangesCount>()(changesCountSchema),
  /** One shipment's or container's changes, oldest first (its successive ETAs). */
  'changes:forRecord': channel<ChangeRow[]>()(changesForRecordSchema),
  /** Marks every change so far as looked at, for this account's database. */
  'changes:markLooked': channel<{ lookedAt: string }>()(noArgument),
  /** The changes the filters pick, to a CSV file the user chooses (main asks where). */
  'export:changes': channel<ExportResult>()(exportChangesSchema),
  /** Alerts (local): one sync's (the notification's list) or those raised since an instant, newest first. */
  'alerts:list': channel<AlertsList>()(alertsListSchema),
  /** Carrier, lane and terminal reliability and dwell from the local history (src/shared/insights.ts). */
  'insights:get': channel<InsightsResult>()(insightsRequestSchema.optional()),
  /** One insights table (over the range or by month) to a CSV or XLSX file the user chooses. */
  'insights:export': channel<ExportResult>()(insightsExportSchema),
} as const;

export const events = {
  /** Something in the local database changed: refetch what you show. Carries no data. */
  'data:changed': event<void>(),
  'settings:changed': event<Settings>(),
  'profiles:changed': event<ProfilesState>(),
  'sync:progress': event<SyncProgressInfo>(),
  'sync:status': event<SyncStatus>(),
  /** Online or offline, as main sees it from its own requests to the service. */
  'connectivity:changed': event<{ online: boolean }>(),
  'export:progress': event<{ rows: number }>(),
  /** An import's phase and counts, and the rows that changed (at most a few times a second). */
  'imports:progress': event<ImportProgressEvent>(),
  /** Show this place of the app (a desktop notification was clicked): `#/alerts?run=12`. */
  'app:navigate': event<{ route: string }>(),
} as const;

export type Channel = keyof typeof contract;
export type EventName = keyof typeof events;
export type ArgOf<C extends Channel> = z.input<(typeof contract)[C]['args']>;
export type ParsedArgOf<C extends Channel> = z.output<(typeof contract)[C]['args']>;
export type ResultOf<C extends Channel> = (typeof contract)[C]['result'];
export type PayloadOf<E extends EventName> = (typeof events)[E]['payload'];

/** A row of each list view, as its `<name>:list` channel returns it. */
export type ListRow<V extends ListName> = ListTypes[V]['row'];

/** What main implements: one function per channel, given the already-validated argument. */
export type Handlers = {
  [C in Channel]: (arg: ParsedArgOf<C>) => Promise<ResultOf<C>> | ResultOf<C>;
};

export const channelNames = Object.keys(contract) as Channel[];
export const eventNames = Object.keys(events) as EventName[];

export function isChannel(name: unknown): name is Channel {
  return typeof name === 'string' && Object.hasOwn(contract, name);
}

export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && Object.hasOwn(events, name);
}

/** Codes a caller can act on. Messages are written for a forwarder to read. */
export const errorCodes = [
  'invalid_argument',
  'unknown_channel',
  'forbidden',
  'not_found',
  'needs_connection',
  /** The service refused the API key. */
  'key_refused',
  /** The service refused the request's content; `fields` says which field and why. */
  'rejected',
  'rate_limited',
  /** The service already tracks this number (a tracking request pending or created); `existing` names it. */
  'already_tracked',
  /** The local database or disk refused the write (full, read-only, damaged). */
  'storage',
  'busy',
  'internal',
] as const;
export type ErrorCode = (typeof errorCodes)[number];

export interface IpcError {
  code: ErrorCode;
  message: string;
  /** For `rejected` and `invalid_argument`: a message per field (e.g. `scac`, `requestNumber`). */
  fields?: Record<string, string>;
  /** For `already_tracked`: the tracking request that already exists. */
  existing?: ExistingTrackingRequest;
}

export interface ExistingTrackingRequest {
  id: string;
  /** False when the local copy does not have it yet (a sync brings it). */
  inLocalCopy: boolean;
  /** Its shipment, once the local copy knows it. */
  shipmentId: string | null;
  requestNumber: string;
  scac: string;
}

export type Envelope<T> = { ok: true; value: T } | { ok: false; error: IpcError };

/**
 * What the preload exposes as `window.api` (and the e2e test host injects in its place):
 * envelopes, not thrown errors, because contextBridge keeps only an Error's message and stack.
 * The renderer wraps it with `createApi` from ./client to get typed calls that throw.
 */
export interface Bridge {
  invoke(channel: string, arg?: unknown): Promise<Envelope<unknown>>;
  on(event: string, listener: (payload: unknown) => void): () => void;
}
