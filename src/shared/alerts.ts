/**
 * Alerts and desktop notifications: the rules a forwarder picks in Settings, the
 * alerts a sync raises under them, the `alerts:*` channels' arguments and rows, and the one
 * grouped notification a sync shows. Shared by core, the CLI and the renderer.
 */
import { z } from 'zod';

/** What an alert is about, as the Alerts view filters it and the CLI prints it. */
export const alertRules = ['lfd_soon', 'available', 'hold', 'eta_slip', 'tracking_failed'] as const;
export type AlertRule = (typeof alertRules)[number];

export function isAlertRule(value: unknown): value is AlertRule {
  return typeof value === 'string' && (alertRules as readonly string[]).includes(value);
}

/** Each rule in a forwarder's words (Settings, the Alerts view's filter). */
export const alertRuleLabels: Record<AlertRule, string> = {
  lfd_soon: 'Last free day coming, not picked up',
  available: 'Available for pickup',
  hold: 'Hold put on or released',
  eta_slip: 'ETA slipped',
  tracking_failed: 'Tracking request failed',
};

const days = z.number().int().min(1).max(60);

/** Which rules raise alerts, with their thresholds in days; and where alerts are shown. */
export const notificationSettingsSchema = z
  .object({
    /** Show one desktop notification per sync that raised alerts. */
    desktop: z.boolean(),
    /** Also on the demo account (off by default: demo data is not the forwarder's). */
    inDemo: z.boolean(),
    /** A container's last free day is within `days` days (0: today) and it is not picked up. */
    lfdSoon: z.object({ on: z.boolean(), days }).strict(),
    /** A container became available for pickup. */
    available: z.object({ on: z.boolean() }).strict(),
    /** A hold (line, customs, terminal or inland facility) was put on or released. */
    holds: z.object({ on: z.boolean() }).strict(),
    /** An ETA (at the port of discharge or the destination) moved later by more than `days` days. */
    etaSlip: z.object({ on: z.boolean(), days: z.number().int().min(1).max(60) }).strict(),
    /** A tracking request failed (the service could not track the number). */
    trackingFailed: z.object({ on: z.boolean() }).strict(),
  })
  .strict();
export type NotificationSettings = z.infer<typeof notificationSettingsSchema>;

export const defaultNotificationSettings: NotificationSettings = {
  desktop: true,
  inDemo: false,
  lfdSoon: { on: true, days: 2 },
  available: { on: true },
  holds: { on: true },
  etaSlip: { on: true, days: 2 },
  trackingFailed: { on: true },
};

/** One alert as the Alerts view and the CLI read it. */
export interface AlertRow {
  id: number;
  /** The sync that raised it (its sync log id). */
  runId: number | null;
  rule: AlertRule;
  resource: 'shipment' | 'container' | 'tracking_request';
  recordId: string;
  /** Its number: a container's, a shipment's BL, a tracking request's number. */
  number: string | null;
  /** The shipment it belongs to (itself for a shipment), when known. */
  shipmentId: string | null;
  customer: string | null;
  /** What happened, in words ("Last free day Fri 6 Mar", "Customs hold released", "ETA 3 days later"). */
  detail: string;
  /** When the sync raised it (UTC ISO). */
  raisedAt: string;
}

/**
 * `alerts:list`, newest first: one sync's alerts (`runId`, the notification's list), every kept
 * alert since an instant (`since`), or every kept alert (`all`). With none of the three, the
 * alerts of the newest sync that raised any (`runs[0]` of the answer; none when no sync has).
 */
export const alertsListSchema = z
  .object({
    runId: z.number().int().positive().optional(),
    since: z.iso.datetime({ offset: true }).optional(),
    /** Every kept alert rather than the newest sync's (`runId` and `since` still narrow it). */
    all: z.boolean().optional(),
    rules: z.array(z.enum(alertRules)).max(alertRules.length).optional(),
    limit: z.number().int().min(1).max(5000).default(1000),
  })
  .strict();
export type AlertsQuery = z.input<typeof alertsListSchema>;

/** `alerts:list`'s answer: the alerts, and the syncs that raised alerts lately (newest first) to pick from. */
export interface AlertsList {
  alerts: AlertRow[];
  runs: { runId: number; raisedAt: string; count: number }[];
}

/** The desktop notification for one sync: what main shows, and the place a click opens. */
export interface DesktopNotification {
  title: string;
  body: string;
  /** The app's address of the list behind it (`#/alerts?run=12`). */
  route: string;
  /** How many alerts it groups. */
  count: number;
}

/** A number of things in words ("1 container", "3 containers"). */
function counted(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** Each rule's line in a grouped notification. */
const ruleLines: Record<AlertRule, (n: number) => string> = {
  lfd_soon: (n) => `${counted(n, 'last free day', 'last free days')} coming, not picked up`,
  available: (n) => `${counted(n, 'container', 'containers')} available for pickup`,
  hold: (n) => `${counted(n, 'hold', 'holds')} put on or released`,
  eta_slip: (n) => `${counted(n, 'ETA', 'ETAs')} slipped`,
  tracking_failed: (n) => `${counted(n, 'tracking request', 'tracking requests')} failed`,
};

/**
 * The one notification a sync's alerts make: a title with the count, a line per rule (most
 * urgent first) naming up to three numbers, and the Alerts list of that sync behind it.
 */
export function groupAlerts(runId: number, alerts: readonly AlertRow[]): DesktopNotification | null {
  if (alerts.length === 0) return null;
  const lines: string[] = [];
  for (const rule of alertRules) {
    const mine = alerts.filter((a) => a.rule === rule);
    if (mine.length === 0) continue;
    const numbers = [...new Set(mine.map((a) => a.number).filter((n): n is string => n !== null))];
    const named = numbers.slice(0, 3).join(', ') + (numbers.length > 3 ? ` and ${numbers.length - 3} more` : '');
    lines.push(`${ruleLines[rule](mine.length)}${named ? `: ${named}` : ''}`);
  }
  return {
    title:
      alerts.length === 1
        ? 'Quayside: 1 alert from the last sync'
        : `Quayside: ${alerts.length} alerts from the last sync`,
    body: lines.join('\n'),
    route: `#/alerts?run=${runId}`,
    count: alerts.length,
  };
}
