import { writeFileSync } from 'node:fs';

export interface Measure {
  name: string;
  value: number;
  unit: string;
  /** e.g. "< 5000" or ">= 100000" */
  target: string;
  pass: boolean;
}

/** A measure with its target: `below` or `atLeast` a bound. */
export function measure(
  name: string,
  value: number,
  unit: string,
  bound: { below?: number; atLeast?: number },
): Measure {
  const rounded = Math.round(value * 100) / 100;
  if (bound.below !== undefined)
    return { name, value: rounded, unit, target: `< ${bound.below}`, pass: value < bound.below };
  if (bound.atLeast !== undefined)
    return { name, value: rounded, unit, target: `>= ${bound.atLeast}`, pass: value >= bound.atLeast };
  return { name, value: rounded, unit, target: 'report', pass: true };
}

export function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

export function printTable(measures: Measure[]): void {
  const rows = measures.map((m) => [m.name, `${m.value} ${m.unit}`, m.target, m.pass ? 'pass' : 'FAIL']);
  const header = ['measure', 'value', 'target', ''];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
}

export function writeResults(measures: Measure[], file = 'bench-results.json'): void {
  writeFileSync(file, `${JSON.stringify(measures, null, 2)}\n`);
}
