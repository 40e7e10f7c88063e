/**
 * 100k shipments, end to end as a user with a large account meets it: the
 * sandbox with 100k shipments in its own process, `npm run cli -- sync` as its own process (no
 * rate limit, so the client's own cost shows), then the app started in Chromium on that synced
 * database (the e2e test host: the real core and the built renderer). Reported: the sync's time,
 * requests and peak RSS, the database's size per shipment, and the app's start to the dashboard's
 * counted tiles and to the list's first rows. Judged where an issue gives a bound at this size.
 *
 * Long: the sandbox alone takes a minute or more to make 100k shipments. `npm run bench -- scale`
 * runs it alone.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { chromiumArgs, chromiumPath } from '../e2e/chromium';
import { startTestHost } from '../e2e/host/server';
import { cliSync } from './client';
import { measure, percentile, type Measure } from './report';
import { requireBuiltRenderer } from './renderer';
import { spawnSandbox } from './sandbox';

const SHIPMENTS = 100_000;

/** The database's bytes on disk: the file with its WAL, if one is left. */
function databaseBytes(path: string): number {
  const size = (file: string) => (existsSync(file) ? statSync(file).size : 0);
  return size(path) + size(`${path}-wal`);
}

export async function benchScale(): Promise<Measure[]> {
  requireBuiltRenderer();
  const dataDir = mkdtempSync(join(tmpdir(), 'quayside-bench-scale-'));
  const measures: Measure[] = [];
  try {
    mkdirSync(join(dataDir, 'demo'), { recursive: true });
    const dbPath = join(dataDir, 'demo', 'demo.sqlite');
    const remote = await spawnSandbox(
      ['--seed', 'bench-scale', '--shipments', String(SHIPMENTS), '--rate-limit', '1000000/60'],
      { heapMb: 12_288, counting: '/download_url' },
    );
    try {
      measures.push(measure('sandbox start, 100k shipments (its own process)', remote.startMs, 'ms', {}));
      const run = await cliSync(remote.url, dbPath);
      if (run.summary.status !== 'ok') throw new Error(`the 100k sync ended ${run.summary.status}`);
      measures.push(
        measure('CLI full sync 100k: time', run.summary.duration_ms / 1000, 's', {}),
        measure('CLI full sync 100k: requests', run.summary.requests, 'requests', {}),
        // The sync outlasts a document's presigned link (15 minutes) many times over: files are
        // fetched as their pages come in, from the links they came with, not one request apiece.
        measure('CLI full sync 100k: requests for document file links', remote.counted(), 'requests', { below: 1 }),
      );
      if (run.peakMb !== null) {
        measures.push(measure('CLI full sync 100k: peak RSS of the sync process', run.peakMb, 'MB', {}));
      }
    } finally {
      await remote.stop();
    }
    measures.push(
      measure('database size per shipment (100k shipments)', databaseBytes(dbPath) / SHIPMENTS / 1024, 'KB', {}),
      measure('database size (100k shipments)', databaseBytes(dbPath) / 1024 / 1024, 'MB', {}),
    );

    // Said as they are made: the app's start below takes minutes, and a failure there must not
    // lose the sync's figures.
    for (const m of measures) console.error(`scale: ${m.name}: ${m.value} ${m.unit}`);
    const host = await startTestHost({ dataDir, autoSync: false });
    const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
    try {
      const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
      await page.addInitScript('window.__name = (fn) => fn;');
      const start = async (route: string, shown: () => number | false) => {
        const times: number[] = [];
        for (let i = 0; i < 3; i++) {
          // Away first: a second goto to the same URL only moves the hash and would not start the app.
          await page.goto('about:blank');
          await page.goto(`${host.url}#/${route}`);
          times.push((await (await page.waitForFunction(shown)).jsonValue()) as number);
        }
        return percentile(times, 50);
      };
      // The dashboard's tiles counted (a synced account: every tile holds a number, none "–").
      const dashboard = await start('dashboard', () => {
        const tiles = [...document.querySelectorAll('section[aria-labelledby="needs-action"] .tile .number')];
        return tiles.length > 0 && tiles.every((t) => /\d/.test(t.textContent ?? '')) ? performance.now() : false;
      });
      const list = await start('shipments', () => {
        const cell = document.querySelector('[role="grid"] [data-index="0"] [role="gridcell"]');
        const count = document.querySelector('[aria-label="Row count"]')?.textContent ?? '';
        return cell?.textContent?.trim() && /\d/.test(count) ? performance.now() : false;
      });
      measures.push(
        measure('app start to the dashboard counted (100k shipments, synced)', dashboard, 'ms', {}),
        measure('app start to the shipments list first rows (100k shipments, synced)', list, 'ms', { below: 1000 }),
      );
    } finally {
      await browser.close();
      await host.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  return measures;
}
