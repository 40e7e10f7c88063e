import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');

/**
 * A fresh process allocating as a long sync does (pages of objects, a few of which survive each
 * scavenge), with or without the core's bound, reporting its young generation's size in MB
 * before and after.
 */
function youngGenerationAcross(bound: boolean): { before: number; after: number } {
  const script = `
    import { getHeapSpaceStatistics } from 'node:v8';
    ${bound ? "const { boundHeapGrowth } = await import('./src/core/heap-growth.ts'); boundHeapGrowth();" : ''}
    const young = () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size / 1e6;
    const before = young();
    const kept = [];
    for (let page = 0; page < 4000; page++) {
      const rows = Array.from({ length: 200 }, (_, i) => ({ id: page * 200 + i, text: 'x'.repeat(40) + i }));
      kept.push(rows[0]);
      if (kept.length > 20000) kept.splice(0, 10000);
    }
    console.log(JSON.stringify({ before, after: young() }));
  `;
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: root,
    encoding: 'utf8',
  });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { before: number; after: number };
}

describe('heap growth of the process hosting the core', () => {
  it('keeps the young generation at its first size through a long run of page-sized garbage, which V8 alone grows', () => {
    const alone = youngGenerationAcross(false);
    expect(alone.after).toBeGreaterThan(alone.before);
    const bounded = youngGenerationAcross(true);
    expect(bounded.after).toBeLessThanOrEqual(bounded.before);
  });
});
