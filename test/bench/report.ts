import { writeFileSync } from 'node:fs';

export interface Measure {
  name: string;
  value: number;
  unit: string;
  /** e.g. "< 5000" or ">= 100000" */
  target: string;
  pass: boolean;
  /**
   * What the figure is read against, measured in the same run on the same machine: the least the
   * work can cost (SQLite alone doing the same reads or writes, an idle page's frames, the
   * request lower bound). `ratio` is value / anchor: it says what Quayside adds, whatever the
   * machine's speed, where the raw figure says mostly how fast the machine is.
   */
  anchor?: Anchor;
  ratio?: number;
}

export interface Anchor {
  name: string;
  value: number;
}

/** A measure with its target: `below` or `atLeast` a bound. */
export function measure(
  name: string,
  value: number,
  unit: string,
  bound: { below?: number; atLeast?: number; anchor?: Anchor },
): Measure {
  const rounded = round(value);
  const anchored = bound.anchor
    ? {
        anchor: { name: bound.anchor.name, value: round(bound.anchor.value) },
        // An anchor of 0 (an idle page dropping no frame) gives no ratio, only the pair.
        ...(bound.anchor.value > 0 ? { ratio: round(value / bound.anchor.value) } : {}),
      }
    : {};
  if (bound.below !== undefined)
    return { name, value: rounded, unit, target: `< ${bound.below}`, pass: value < bound.below, ...anchored };
  if (bound.atLeast !== undefined)
    return { name, value: rounded, unit, target: `>= ${bound.atLeast}`, pass: value >= bound.atLeast, ...anchored };
  return { name, value: rounded, unit, target: 'report', pass: true, ...anchored };
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
    m.anchor ? `${m.anchor.value} ${m.unit} (${m.anchor.name})` : '',
    m.ratio !== undefined ? `${m.ratio}x` : '',
  ]);
  const header = ['measure', 'value', 'target', '', 'anchor', 'value / anchor'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
}

export function writeResults(measures: Measure[], file = 'bench-results.json'): void {
  writeFileSync(file, `${JSON.stringify(measures, null, 2)}\n`);
}
