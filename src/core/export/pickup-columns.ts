/**
 * The containers export's pickup columns: the answer of `src/shared/pickup.ts`
 * at the moment of the export, with the terminal data's stale limit from Settings, so the file
 * says what the container page says. A box whose terminal data is stale reads "Can’t tell" with
 * the limit in words (the exact check time is in its own column), never "Ready".
 */
import type { ContainerRow } from '../../shared/rows';
import { formatAge, lfdSourceLabels, pickupStateLabels, pickupTruth } from '../../shared/pickup';
import { timestamp, type ExportColumn } from './columns';

export interface PickupExportOptions {
  /** The export's "now" (epoch ms). */
  now: number;
  /** Terminal data older than this many hours is stale (Settings, default 24). */
  staleHours: number;
}

/**
 * "Ready for pickup" as the Pickup column answers it (yes only when that says Ready), in place of
 * the stored flag, which reads availability and holds only and would say yes for a box whose
 * terminal data is stale or whose fees are owed.
 */
export function pickupReadyColumn(options: PickupExportOptions): ExportColumn<ContainerRow> {
  return {
    key: 'pickup_ready',
    header: 'Ready for pickup',
    value: (r) => pickupTruth(r, options.now, options.staleHours).state === 'ready',
  };
}

export function pickupColumns(options: PickupExportOptions): ExportColumn<ContainerRow>[] {
  // One answer per row, read by the columns beside each other.
  let last: ContainerRow | null = null;
  let truth: ReturnType<typeof pickupTruth> | null = null;
  const truthOf = (row: ContainerRow) => {
    if (row !== last) {
      last = row;
      truth = pickupTruth(row, options.now, options.staleHours);
    }
    return truth!;
  };
  const staleText = (t: ReturnType<typeof pickupTruth>) =>
    t.ageHours === null
      ? 'The terminal has not been checked for this box'
      : `Terminal data older than ${formatAge(options.staleHours)}: availability may have changed`;
  return [
    { key: 'pickup', header: 'Pickup', value: (r) => pickupStateLabels[truthOf(r).state] },
    {
      key: 'pickup_detail',
      header: 'Pickup: why',
      value: (r) => {
        const t = truthOf(r);
        return t.state === 'unknown' ? staleText(t) : t.reasons;
      },
    },
    {
      key: 'lfd_source',
      header: 'Last free day source',
      value: (r) => {
        const source = truthOf(r).lastFreeDay?.source;
        return source ? lfdSourceLabels[source] : null;
      },
    },
    ...timestamp<ContainerRow>(
      'terminal_checked_at',
      'Terminal checked',
      (r) => r.terminalCheckedAt,
      (r) => r.podTimezone,
    ),
  ];
}
