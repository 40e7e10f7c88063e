import { writeFileSync } from 'node:fs';

/**
 * What a figure is judged on: an absolute bound (from the issues), a bound on value / anchor
 * (the anchor measured in the same run, so the machine's speed and load cancel out), or nothing
 * (a figure reported for the record).
 */
export type TargetKind = 'absolute' | 'ratio' | 'report';

export interface Measure {
  name: string;
  value: number;
  unit: string;
  /** What `pass` judges, e.g. "< 5000", ">= 100000", "ratio <= 2.5x" or "report". */
  target: string;
  targetKind: TargetKind;
  pass: boolean;
  /**
   * What the figure is read against, measured in the same run on the same machine: the least the
   * work can cost (SQLite alone doing the same reads or writes, SQLite's own CSV output of the
   * same query, an idle page's frames, the request lower bound). `ratio` is value / anchor: it
   * says what Quayside adds, whatever the machine's speed, where the raw figure says mostly how
   * fast the machine is.
   */
  anchor?: Anchor;
  ratio?: number;
  /** Beside a ratio target, the absolute one from the issues, kept for the record (not judged). */
  absoluteTarget?: string;
  absolutePass?: boolean;
}

export interface Anchor {
  name: string;
  /** Absent when the anchor could not be measured on this machine; `unavailable` says why. */
  value?: number;
  unavailable?: string;
}

export interface Bound {
  below?: number;
  atLeast?: number;
  anchor?: Anchor;
  /** A ratio target: value / anchor must stay below (times, lower is better)… */
  ratioBelow?: number;
  /** …or reach at least this (rates, higher is better). */
  ratioAtLeast?: number;
}

/**
 * A measure with its target. With a ratio bound and an anchor measured, the ratio is judged and
 * the absolute bound kept beside it for the record; without the anchor (e.g. no sqlite3 on the
 * machine) the absolute bound is judged instead, and the anchor says why it is missing.
 */
export function measure(name: string, value: number, unit: string, bound: Bound): Measure {
  const rounded = round(value);
  const anchorValue = bound.anchor?.value;
  const anchor: Anchor | undefined = bound.anchor
    ? anchorValue === undefined || !Number.isFinite(anchorValue)
      ? { name: bound.anchor.name, unavailable: bound.anchor.unavailable ?? 'not measured' }
      : { name: bound.anchor.name, value: round(anchorValue) }
    : undefined;
  // An anchor of 0 (an idle page dropping no frame) gives no ratio, only the pair.
  const ratio = anchorValue !== undefined && anchorValue > 0 ? value / anchorValue : undefined;
  const absolute =
    bound.below !== undefined
      ? { target: `< ${bound.below}`, pass: value < bound.below }
      : bound.atLeast !== undefined
        ? { target: `>= ${bound.atLeast}`, pass: value >= bound.atLeast }
        : undefined;
  const ratioBound =
    bound.ratioBelow !== undefined
      ? { target: `ratio < ${bound.ratioBelow}x`, pass: (r: number) => r < bound.ratioBelow! }
      : bound.ratioAtLeast !== undefined
        ? { target: `ratio >= ${bound.ratioAtLeast}x`, pass: (r: number) => r >= bound.ratioAtLeast! }
        : undefined;
  const base = {
    name,
    value: rounded,
    unit,
    ...(anchor ? { anchor } : {}),
    ...(ratio !== undefined ? { ratio: round(ratio) } : {}),
  };
  if (ratioBound && ratio !== undefined) {
    return {
      ...base,
      target: ratioBound.target,
      targetKind: 'ratio',
      pass: ratioBound.pass(ratio),
      ...(absolute ? { absoluteTarget: absolute.target, absolutePass: absolute.pass } : {}),
    };
  }
  if (absolute) return { ...base, target: absolute.target, targetKind: 'absolute', pass: absolute.pass };
  return { ...base, target: 'report', targetKind: 'report', pass: true };
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

export function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

export function printTable(measures: Measure[]): void {
  const rows = measures.map((m) => [
    m.name,
    `${m.value} ${m.unit}`,
    m.target,
    m.pass ? 'pass' : 'FAIL',
    m.anchor
      ? m.anchor.value !== undefined
        ? `${m.anchor.value} ${m.unit} (${m.anchor.name})`
        : `unavailable: ${m.anchor.unavailable} (${m.anchor.name})`
      : '',
    m.ratio !== undefined ? `${m.ratio}x` : '',
    m.absoluteTarget !== undefined ? `${m.absoluteTarget} (${m.absolutePass ? 'met' : 'missed'})` : '',
  ]);
  const header = ['measure', 'value', 'target', '', 'anchor', 'value / anchor', 'absolute target (record)'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
}

export function writeResults(measures: Measure[], file = 'bench-results.json'): void {
  writeFileSync(file, `${JSON.stringify(measures, null, 2)}\n`);
}
