import { viewIdOf, type ViewId as ListViewId } from '../../../shared/list-views';

/** A screen, as its URL names it (`#/tracking-requests`): a list's is its view id (`viewIdOf`). */
export type ViewId = 'dashboard' | 'changes' | 'alerts' | ListViewId | 'insights' | 'settings';

export interface ViewEntry {
  id: ViewId;
  label: string;
  /** What the view is for, in a forwarder's words. */
  purpose: string;
}

export const views: readonly ViewEntry[] = [
  {
    id: 'dashboard',
    label: 'Dashboard',
    purpose: 'What needs action today: arrivals, last free days, holds and delays.',
  },
  {
    id: 'changes',
    label: 'Changes',
    purpose: 'What each sync saw change: ETAs, status, last free days, holds, fees, since you last looked.',
  },
  {
    id: 'alerts',
    label: 'Alerts',
    purpose:
      'What the syncs raised under your rules: last free days coming, boxes available, holds, ETAs slipped, failures.',
  },
  {
    id: viewIdOf('shipments'),
    label: 'Shipments',
    purpose: 'Every bill of lading you track, with route, vessel and ETA.',
  },
  {
    id: viewIdOf('containers'),
    label: 'Containers',
    purpose: 'Each container’s status, availability, holds and last free day.',
  },
  {
    id: viewIdOf('trackingRequests'),
    label: 'Tracking requests',
    purpose: 'Numbers you asked to track, and any that failed.',
  },
  {
    id: viewIdOf('emailSubmissions'),
    label: 'Email submissions',
    purpose: 'Documents mailed in, what came of each and the shipments they belong to.',
  },
  {
    id: 'insights',
    label: 'Insights',
    purpose:
      'Which carrier, lane and terminal you can trust: on-time arrivals, ETA slips and dwell from your own history.',
  },
  {
    id: 'settings',
    label: 'Settings',
    purpose: 'API key, sync and change history, notifications, time display and theme.',
  },
];

export function isViewId(value: string): value is ViewId {
  return views.some((view) => view.id === value);
}
