/**
 * Insights: which carrier, lane and terminal a forwarder can trust, from the account's own
 * history. The request (days in the user's zone, optionally one customer) and the typed answer
 * of `insights:get`, shared by core, the CLI and the renderer. Every figure carries the count
 * behind it; a group under the minimum is `small` and never ranked.
 */
import { z } from 'zod';
import { isTimeZone } from './date-formatters';

/** Groups below this many shipments (or containers) are shown greyed and never ranked. */
export const DEFAULT_INSIGHTS_MINIMUM = 5;
/** Month rows kept at most (the latest ones): ten years. */
export const MAX_INSIGHTS_MONTHS = 120;

const day = z.iso.date({ error: 'A day is written YYYY-MM-DD.' });

/** The tables of the answer, each exported on its own. */
export const insightsTables = ['carriers', 'lanes', 'carrierLanes', 'terminals'] as const;
export type InsightsTable = (typeof insightsTables)[number];

export const insightsRequestSchema = z
  .object({
    /** First day of arrivals, in `zone` (included); none: from the first arrival. */
    from: day.optional(),
    /** Last day of arrivals, in `zone` (included); none: to the last arrival. */
    to: day.optional(),
    /** One customer's shipments, by its name as the service gives it. */
    customer: z.string().trim().min(1).max(200).optional(),
    /** The user's zone, which the days and months are read in; none: this computer's. */
    zone: z.string().max(100).refine(isTimeZone, 'Not a time zone.').optional(),
    minimum: z.number().int().min(1).max(1000).optional(),
    /** Also the figures by month of arrival (the trends); false: the whole range only, faster. */
    months: z.boolean().optional(),
    /**
     * The tables to compute (default: all); the others come back empty. Each costs its share of
     * the query: a view shows its first table at once by asking for it alone, then the rest.
     */
    tables: z.array(z.enum(insightsTables)).min(1).max(insightsTables.length).optional(),
  })
  .strict()
  .refine((r) => r.from === undefined || r.to === undefined || r.from <= r.to, 'The first day is after the last.');

export type InsightsRequest = z.input<typeof insightsRequestSchema>;

/** The arrival-reliability groupings and the dwell grouping, as the CLI's `--by` names them. */
export const insightsDimensions = ['carrier', 'lane', 'carrier-lane', 'terminal'] as const;
export type InsightsDimension = (typeof insightsDimensions)[number];
export type ArrivalDimension = Exclude<InsightsDimension, 'terminal'>;

/** A median and 90th percentile (nearest rank), over `count` values; `unknown`: left out, a milestone missing. */
export interface Spread {
  p50: number | null;
  p90: number | null;
  count: number;
  unknown: number;
}

/** A share of `count` (0–1); `unknown` were left out, not knowing. */
export interface Share {
  share: number | null;
  count: number;
  unknown: number;
}

/** Arrival reliability of one carrier, lane or carrier on a lane (over the range, or one `month`). */
export interface ArrivalGroup {
  dimension: ArrivalDimension;
  /** Stable key: the SCAC, `POL→POD` (UN/LOCODEs) or `SCAC POL→POD`; '' parts where not known. */
  key: string;
  carrier: string | null;
  carrierName: string | null;
  pol: string | null;
  polName: string | null;
  pod: string | null;
  podName: string | null;
  /** YYYY-MM of arrival in the result's zone; null: the whole range. */
  month: string | null;
  shipments: number;
  /** Fewer shipments than the minimum: shown greyed, never ranked. */
  small: boolean;
  /** 1 = most on time (then the smaller median slip); null when small or without a first ETA. */
  rank: number | null;
  /** Arrived no later than one day after the first ETA; `unknown`: no first ETA known. */
  onTime: Share;
  /** Arrival minus first ETA, hours (late is positive); over the shipments with a first ETA. */
  slipHours: Spread;
  /**
   * How often the ETA moved on the way, from the change history: over the shipments whose voyage
   * it covers (`count`); `unknown` departed before the history starts (`historyFrom`).
   */
  etaMoves: { mean: number | null; movedShare: number | null; count: number; unknown: number };
  /** Shipments whose first ETA is the earliest the change history saw (the service gave no original ETA). */
  firstEtaFromHistory: number;
}

export type DwellKind = 'terminal' | 'rail';

/** Estimated demurrage and detention of a group's boxes from the rates in Settings. */
export interface DwellCost {
  currency: string;
  demurrage: number;
  detention: number;
  total: number;
  /** Boxes with chargeable days that a rate priced, and those that none did (days only). */
  priced: number;
  unpriced: number;
}

/** Dwell at one terminal or rail terminal (ramp), in days (over the range, or one `month`). */
export interface DwellGroup {
  kind: DwellKind;
  /** The terminal's id; '' when not known. */
  key: string;
  name: string | null;
  month: string | null;
  containers: number;
  small: boolean;
  /** 1 = the shortest median discharge (ramp arrival) to pickup; null when small or not known. */
  rank: number | null;
  /** Discharged (at a ramp: arrived by rail) → available for pickup. */
  dischargeToAvailable: Spread;
  availableToPickedUp: Spread;
  dischargeToPickedUp: Spread;
  pickedUpToEmptyReturned: Spread;
  /** Picked up after the end of the last free day; `count`: boxes picked up with a last free day. */
  pickedUpAfterLfd: Share;
  /** Null when no rates are entered. */
  cost: DwellCost | null;
}

export interface InsightsResult {
  /** The zone the days and months are read in. */
  zone: string;
  /** The days asked (null: open), and the instants they mean: [fromInstant, untilInstant). */
  from: string | null;
  to: string | null;
  fromInstant: string | null;
  untilInstant: string | null;
  customer: string | null;
  minimum: number;
  /** Where the first ETA comes from, in words. */
  firstEtaSource: string;
  /** The tables computed (those not asked are empty). */
  tables: InsightsTable[];
  /** The change history covers voyages that departed from this instant on; null: no sync recorded. */
  historyFrom: string | null;
  carriers: ArrivalGroup[];
  lanes: ArrivalGroup[];
  carrierLanes: ArrivalGroup[];
  /** Terminals then rail terminals. */
  terminals: DwellGroup[];
  /** The same by month of arrival, oldest first (empty when `months: false` was asked). */
  months: {
    carriers: ArrivalGroup[];
    lanes: ArrivalGroup[];
    carrierLanes: ArrivalGroup[];
    terminals: DwellGroup[];
  };
}

export const FIRST_ETA_SOURCE =
  'The first ETA is the service’s original ETA (pod_original_eta_at); where it gives none, the earliest ETA the change history saw.';

export const insightsExportSchema = z
  .object({
    request: insightsRequestSchema.optional(),
    table: z.enum(insightsTables),
    /** The table by month of arrival (the trend's figures) instead of over the whole range. */
    byMonth: z.boolean().optional(),
    format: z.enum(['csv', 'xlsx']).optional(),
  })
  .strict();
export type InsightsExportRequest = z.input<typeof insightsExportSchema>;
