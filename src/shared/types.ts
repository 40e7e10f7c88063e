import type { Rates } from './exposure';
import type { NotificationSettings } from './alerts';
import type { ContainerRow, ShipmentRow, TrackingRequestRow } from './rows';
import type { ContainerFilters, ShipmentFilters } from './views';

/** Row and value types the views show. JSON-safe: strings for dates, no classes. */

export interface AppInfo {
  name: string;
  version: string;
  /** Folder holding the databases and settings (QUAYSIDE_DATA_DIR or the app's user-data folder). */
  dataDir: string;
  /** True while no API key is configured: the app shows generated demo data. */
  demo: boolean;
  versions: { node: string; electron: string | null; chrome: string | null };
}

export type Theme = 'light' | 'dark' | 'system';
export type TimeDisplay = 'local' | 'port';

export interface Settings {
  theme: Theme;
  /** Show dates in the laptop's time zone or in the time zone of the port they happen at. */
  timeDisplay: TimeDisplay;
  syncIntervalMinutes: number;
  /** The forwarder's per-diem rates: demurrage and detention are estimated from them. */
  rates: Rates;
  /** Which document files a sync keeps for offline use (larger ones are fetched when opened); absent: the defaults. */
  documentFiles?: DocumentFileLimits;
  /** Days the change history keeps (default 180); absent: the default. */
  changeRetentionDays?: number;
  /** Hours after which the terminal's data is too old to call a box ready or overdue (default 24); absent: the default. */
  terminalStaleHours?: number;
  /** Alert rules and desktop notifications (default: every rule on, desktop on, off in demo); absent: the defaults. */
  notifications?: NotificationSettings;
  /** settings.json was written by a newer Quayside: the sentence to show (defaults are in use). */
  fileProblem?: string;
}

export interface DocumentFileLimits {
  /** Files up to this size are kept (MB). */
  maxFileMb: number;
  /** All kept files together up to this size (MB). */
  maxTotalMb: number;
}

export type KeyStorage = 'keychain' | 'safe-storage' | 'session';

/** A profile as the renderer sees it: never the key, only its last four characters. */
export interface ProfileSummary {
  id: string;
  name: string;
  baseUrl: string;
  keyLast4: string;
  /**
   * 'accepted' when the service took the key; 'unverified' when it could not be asked;
   * 'needs-key' when Quayside will not send the stored key (see `keyProblem`) until the profile
   * is given a base URL and its key again.
   */
  keyStatus: 'accepted' | 'unverified' | 'needs-key';
  /** Why the profile needs its key again, in a sentence the UI shows; absent otherwise. */
  keyProblem?: string;
  keyStorage: KeyStorage;
  createdAt: string;
  /**
   * A team hub account: its sync pulls from this PostgreSQL address (shown without its password);
   * `keyLast4` is empty when this computer has no API key of its own for it.
   */
  hub?: { url: string; passwordStorage?: KeyStorage };
}

export interface ProfilesState {
  profiles: ProfileSummary[];
  /** null: the demo account. */
  activeId: string | null;
  /** Where keys are kept on this machine, and why when it is not the keychain. */
  keyStorage: { kind: KeyStorage; note: string | null };
  /** profiles.json was written by a newer Quayside, or could not be read: the sentence to show. */
  fileProblem?: string;
}

export interface KeyCheck {
  /**
   * 'unverified': a known-good address (the default, or one where a key was accepted) could not
   * be reached. 'address-failed': any other address that did not answer as the Tracking API;
   * the message names it and why.
   */
  result: 'accepted' | 'refused' | 'unverified' | 'address-failed';
  message: string;
}

export interface SyncProgressInfo {
  mode: 'full' | 'incremental';
  step: string;
  pagesDone: number;
  pagesTotal: number;
  requests: number;
  rateLimited: number;
  etaSeconds: number | null;
}

export interface SyncRun {
  id: number;
  kind: string;
  startedAt: string;
  finishedAt: string | null;
  status: string;
  requests: number;
  rateLimited: number;
  counts: Record<string, number>;
  error: string | null;
}

export interface SyncStatus {
  /** busy: another process (the CLI, a cron job) is syncing this account's database. */
  state: 'idle' | 'syncing' | 'busy' | 'failed';
  progress: SyncProgressInfo | null;
  lastRun: SyncRun | null;
  /** When the last successful sync finished. */
  lastSyncedAt: string | null;
  nextSyncAt: string | null;
  online: boolean;
  error: string | null;
}

/** One point on a container's timeline, from its attributes (no events needed). */
export interface Milestone {
  key: string;
  label: string;
  at: string | null;
  /** Planned but not happened yet. */
  estimated: boolean;
  place: string | null;
  timezone: string | null;
  /** Taken from an event that corrects one the carrier withdrew. */
  corrected?: boolean;
  /** The carrier's own words for it (its raw event), when the sync has read them. */
  carrierWording?: string;
}

export interface TransportEventRow {
  id: string;
  event: string;
  label: string;
  timestamp: string | null;
  timezone: string | null;
  location: string | null;
  locationCode: string | null;
  terminal: string | null;
  vessel: string | null;
  voyage: string | null;
  dataSource: string | null;
  /** When the carrier withdrew this event (it is kept for history, never a milestone). */
  withdrawnAt: string | null;
  /** The event that corrects this one (it names this one as its previous version). */
  replacedBy: string | null;
  /** The event this one corrects. */
  replaces: string | null;
}

/** A place: a port or a metro area (the store's `locations` view). */
export interface LocationInfo {
  kind: 'port' | 'metro_area';
  id: string;
  code: string | null;
  name: string | null;
  stateAbbr: string | null;
  countryCode: string | null;
  timeZone: string | null;
}

export interface TerminalInfo {
  id: string;
  name: string | null;
  nickname: string | null;
  firmsCode: string | null;
  smdgCode: string | null;
  bicFacilityCode: string | null;
  address: string | null;
  port: string | null;
  /** A rail terminal's metro area. */
  metroArea: { name: string | null; code: string | null } | null;
}

/** A shipping line as the views name it, with its own tracking and contact pages when the service gives them. */
export interface ShippingLineInfo {
  name: string | null;
  scac: string | null;
  trackingUrl: string | null;
  contactUrl: string | null;
}

export interface ContainerDetail {
  container: ContainerRow;
  milestones: Milestone[];
  /** Empty picked up at origin, and delivered to the consignee after full out, with their zones. */
  emptyOut: { at: string; timezone: string | null } | null;
  delivered: { at: string; timezone: string | null } | null;
  /** Holds at the inland facility (a rail ramp): null when the service sends none for this box. */
  facilityHolds: { name: string; status: string; description: string | null }[] | null;
  facilityFeesTotal: number | null;
  terminal: TerminalInfo | null;
  railCarriers: { pod: string | null; inland: string | null };
  /** The rail ramp the box ends at inland (the shipment's destination terminal), with its metro area. */
  railTerminal: TerminalInfo | null;
  location: string | null;
  /** When transport events were last fetched for this container. */
  eventsSyncedAt: string | null;
}

export interface ShipmentDetail {
  shipment: ShipmentRow;
  containers: ContainerDetail[];
  terminal: TerminalInfo | null;
  /** Its destination, port or metro area (null until synced). */
  destination: LocationInfo | null;
  /** The terminal its cargo ends at (its destination terminal): a rail ramp with its metro area, or a terminal. */
  destinationTerminal: TerminalInfo | null;
  /** The first plans beside the current ones, and the destination's own dates. */
  originalEtd: string | null;
  destinationEta: string | null;
  destinationAta: string | null;
  destinationOriginalEta: string | null;
  destinationTimezone: string | null;
  shippingLine: ShippingLineInfo | null;
  trackingRequestId: string | null;
}

/**
 * Why a search result matched: the field, in a forwarder's words ("Reference number"), and its
 * value cut into parts, the typed text marked (`hit`) so the palette can highlight it.
 */
export interface SearchMatch {
  field: string;
  parts: { text: string; hit: boolean }[];
}

/** A search result with why it matched (null when no one field holds the text on its own). */
export type Found<Row> = Row & { matched: SearchMatch | null };

export interface SearchResults {
  shipments: Found<ShipmentRow>[];
  containers: Found<ContainerRow>[];
  trackingRequests: Found<TrackingRequestRow>[];
  /** Ports and metro areas, by UN/LOCODE or name. */
  locations: Found<LocationInfo>[];
}

export interface CountBucket {
  key: string;
  label: string;
  count: number;
}

/** The filters behind the dashboard's time-bound tiles, fixed at `generatedAt`, so a tile's list shows what it counted. */
export interface DashboardFilters {
  arrivingNext7Days: ShipmentFilters;
  etaSlipped: ShipmentFilters;
  arrivedNotAvailable: ContainerFilters;
  lfdToday: ContainerFilters;
  lfdWithin3Days: ContainerFilters;
  overdue: ContainerFilters;
  pickupSoon: ContainerFilters;
}

export interface DashboardSummary {
  generatedAt: string;
  /**
   * When a sync last stored every still-tracking shipment with its containers (the urgent walks,
   * run first): from then on the tiles about boxes and arrivals count, even during a first sync.
   */
  urgentStoredAt: string | null;
  filters: DashboardFilters;
  arrivingNext7Days: number;
  arrivedNotAvailable: number;
  lfdToday: number;
  lfdWithin3Days: number;
  overdue: number;
  /** Not picked up yet, the last free day in the next 5 days or already past. */
  pickupSoon: number;
  onHold: CountBucket[];
  etaSlipped: number;
  trackingFailed: CountBucket[];
  awaitingManifest: number;
  /** The zone whose calendar days `arrivalsPerDay` counts. */
  arrivalsZone: string;
  /** Shipments not arrived yet by ETA day in `arrivalsZone`: each day from its local midnight to the next. */
  arrivalsPerDay: { date: string; count: number; from: string; to: string }[];
  containersByStatus: CountBucket[];
  delaysByCarrier: { carrier: string; shipments: number; averageSlipDays: number }[];
}

export interface WebhookRow {
  id: string;
  url: string;
  active: boolean;
  events: string[];
}

export interface LookupRecord {
  id: string;
  type: string;
  /** A readable name for the record. */
  title: string | null;
  attributes: Record<string, unknown>;
  syncedAt: string | null;
}

export interface ExportResult {
  path: string | null;
  rows: number;
  cancelled: boolean;
}

/** The active account's local database, for Settings. */
export interface DataInfo {
  path: string;
  /** The database and its write-ahead log, in bytes. */
  bytes: number;
  shipments: number;
  containers: number;
  trackingRequests: number;
}

export interface FilterOption {
  value: string;
  label: string;
  /** Rows in the local data that carry this value. */
  count: number;
}

/** What each filter chip can offer, from the local data. */
export interface FilterOptions {
  carriers: FilterOption[];
  portsOfLading: FilterOption[];
  portsOfDischarge: FilterOption[];
  destinations: FilterOption[];
  terminals: FilterOption[];
  customers: FilterOption[];
  tags: FilterOption[];
  holdTypes: FilterOption[];
  failedReasons: FilterOption[];
}

/** Why the active account's local copy cannot be opened. */
export type DatabaseProblem =
  'not_a_database' | 'newer_version' | 'no_access' | 'not_a_file' | 'cannot_create' | 'read_only_unusable';

/** Whether the active account's local copy opens, and what can be done when it does not. */
export interface DatabaseHealth {
  path: string;
  /** ok; read_only: shown and exported, not synced; unavailable: see `problem`. */
  state: 'ok' | 'read_only' | 'unavailable';
  problem: DatabaseProblem | null;
  /** One sentence for the forwarder; null when all is well. */
  message: string | null;
  /**
   * offer: moving it aside and starting fresh is the way on; on_request: only if the forwarder
   * insists (a copy from a newer Quayside: updating is the way on); no: moving would not help.
   */
  moveAside: 'offer' | 'on_request' | 'no';
}

export interface MoveAsideResult {
  /** Where the unreadable copy now is (kept, never deleted). */
  movedTo: string;
  health: DatabaseHealth;
}
