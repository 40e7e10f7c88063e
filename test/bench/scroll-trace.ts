/**
 * Not a suite of `npm run bench`: a tool to read what a scrolled frame of the shipments list costs
 * the renderer, apart from the machine's load. Wall-clock frames (the renderer suite) wait for a
 * core on a shared machine; a Chromium trace's thread time (`tdur`) counts only the CPU a thread
 * got. Scrolls the list as the renderer suite does (wheel 100 px, fling 700 px a frame, 4 s each)
 * under CDP `Tracing` and prints, per frame: the main thread's CPU (p50, p95, mean), its parts
 * (script, style, layout, paint and layerize), elements restyled and objects laid out, and the
 * CPU of the renderer's compositor and raster threads.
 *
 *   npx tsx test/bench/scroll-trace.ts [--rounds N] [--db FILE] [LABEL=RENDERER_DIR ...]
 *
 * Each LABEL=DIR is a built renderer (default: now=out/renderer); with several, their runs are
 * interleaved round by round, so the machine's load falls on each alike. `--db FILE` keeps the
 * generated 100k-shipment database there (built when missing), for the next run.
 */
import { existsSync, linkSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { chromiumArgs, chromiumPath } from '../e2e/chromium';
import { startTestHost } from '../e2e/host/server';
import { buildBigDatabaseApart } from './big-database';
import { percentile } from './report';

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: Record<string, unknown> & {
    name?: string;
    elementCount?: number;
    beginData?: { dirtyObjects?: number };
  };
}

interface FrameCosts {
  frames: number;
  mainCpu: number[];
  parts: Record<string, number>;
  byName: Record<string, number>;
  restyled: number;
  laidOut: number;
  /** Display items painted anew (not taken from the cache) per frame, and raster ops run. */
  painted: number;
  rasterOps: number;
  otherThreadsCpu: number;
  load: number;
}

const args = process.argv.slice(2);
const roundsAt = args.indexOf('--rounds');
const rounds = roundsAt >= 0 ? Number(args[roundsAt + 1]) : 3;
const dbAt = args.indexOf('--db');
const keptDb = dbAt >= 0 ? resolve(args[dbAt + 1]!) : undefined;
const saveAt = args.indexOf('--save');
const saveDir = saveAt >= 0 ? resolve(args[saveAt + 1]!) : undefined;
let saved = 0;
const variants = args
  .filter((a, i) => a.includes('=') && ![roundsAt + 1, dbAt + 1, saveAt + 1].includes(i))
  .map((a) => {
    const [label, dir] = a.split('=') as [string, string];
    return { label, dir: resolve(dir) };
  });
if (variants.length === 0) variants.push({ label: 'now', dir: resolve(import.meta.dirname, '../../out/renderer') });

/** Top-level work of the main thread, by the trace event that names it. */
const partOf: Record<string, string> = {
  FunctionCall: 'script',
  FireAnimationFrame: 'script',
  EvaluateScript: 'script',
  EventDispatch: 'script',
  TimerFire: 'script',
  RunMicrotasks: 'script',
  'v8.callFunction': 'script',
  'v8.run': 'script',
  MinorGC: 'gc',
  MajorGC: 'gc',
  'V8.GC_SCAVENGER': 'gc',
  UpdateLayoutTree: 'style',
  'Document::recalcStyle': 'style',
  Layout: 'layout',
  'LocalFrameView::performLayout': 'layout',
  'InlineNode::ShapeTextIncludingFirstLine': 'layout',
  PrePaint: 'paint',
  'Blink.PrePaint.UpdateTime': 'paint',
  Paint: 'paint',
  'Blink.Paint.UpdateTime': 'paint',
  CullRectUpdate: 'paint',
  Layerize: 'layerize',
  'PaintArtifactCompositor::Update': 'layerize',
  'Blink.CompositingInputs.UpdateTime': 'layerize',
  UpdateLayer: 'layerize',
  Commit: 'layerize',
};

async function scrollTraced(page: Page, pxPerFrame: number, seconds: number): Promise<FrameCosts> {
  const cdp = await page.context().newCDPSession(page);
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', (data) => {
    for (const e of data.value) events.push(e as unknown as TraceEvent);
  });
  const ended = new Promise<void>((done) => cdp.once('Tracing.tracingComplete', () => done()));
  await cdp.send('Tracing.start', {
    transferMode: 'ReportEvents',
    traceConfig: {
      includedCategories: [
        'toplevel',
        'devtools.timeline',
        'disabled-by-default-devtools.timeline',
        'disabled-by-default-devtools.timeline.frame',
        'blink',
        'cc',
        '__metadata',
      ],
    },
  });
  const frames = await page.evaluate(
    ({ pxPerFrame, seconds }) =>
      new Promise<number>((done) => {
        const grid = document.querySelector('[role="grid"]') as HTMLElement;
        let count = 0;
        const end = performance.now() + seconds * 1000;
        const step = (now: number) => {
          count++;
          grid.scrollTop += pxPerFrame;
          if (now < end) requestAnimationFrame(step);
          else done(count - 1);
        };
        requestAnimationFrame(step);
      }),
    { pxPerFrame, seconds },
  );
  await cdp.send('Tracing.end');
  await ended;
  await cdp.detach();
  const load = loadavg()[0]!;

  if (saveDir) writeFileSync(join(saveDir, `trace-${++saved}.json`), JSON.stringify({ frames, events }));
  return { ...analyse(events, frames), load };
}

/** Self thread time (`tdur` less its children's) of each main-thread event, summed by part. */
function analyse(events: TraceEvent[], frames: number): Omit<FrameCosts, 'load'> {
  const threadNames = new Map<string, string>();
  for (const e of events) {
    if (e.ph === 'M' && e.name === 'thread_name') threadNames.set(`${e.pid}:${e.tid}`, String(e.args?.name));
  }
  // The renderer with the page: the one whose main thread ran the frames.
  const mainKey = [...threadNames].find(([, name]) => name === 'CrRendererMain')?.[0];
  const onMain = (e: TraceEvent) => `${e.pid}:${e.tid}` === mainKey;
  const rendererPid = Number(mainKey?.split(':')[0]);
  const isTask = (e: TraceEvent) =>
    e.ph === 'X' && (e.name === 'ThreadControllerImpl::RunTask' || e.name === 'RunTask') && e.cat.includes('toplevel');
  const mainTasks = events.filter((e) => onMain(e) && isTask(e)).sort((a, b) => a.ts - b.ts);
  const frameStarts = events
    .filter((e) => onMain(e) && e.name === 'BeginMainThreadFrame')
    .map((e) => e.ts)
    .sort((a, b) => a - b);
  // Main-thread CPU per frame: the tasks that started between one main-thread frame and the next.
  const mainCpu: number[] = [];
  let t = 0;
  for (let f = 0; f + 1 < frameStarts.length; f++) {
    let cpu = 0;
    while (t < mainTasks.length && mainTasks[t]!.ts < frameStarts[f]!) t++;
    while (t < mainTasks.length && mainTasks[t]!.ts < frameStarts[f + 1]!) cpu += (mainTasks[t++]!.tdur ?? 0) / 1000;
    mainCpu.push(cpu);
  }
  const parts: Record<string, number> = {};
  const byName: Record<string, number> = {};
  let restyled = 0;
  let laidOut = 0;
  const timed = events
    .filter((e) => onMain(e) && e.ph === 'X' && e.dur !== undefined && e.tdur !== undefined)
    .sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  const stack: { e: TraceEvent; children: number }[] = [];
  const selfOf = new Map<TraceEvent, number>();
  const close = (entry: { e: TraceEvent; children: number }) =>
    selfOf.set(entry.e, Math.max(0, entry.e.tdur! - entry.children));
  for (const e of timed) {
    while (stack.length > 0 && stack.at(-1)!.e.ts + stack.at(-1)!.e.dur! <= e.ts) close(stack.pop()!);
    if (stack.length > 0) stack.at(-1)!.children += e.tdur!;
    stack.push({ e, children: 0 });
  }
  while (stack.length > 0) close(stack.pop()!);
  for (const [e, self] of selfOf) {
    const part = partOf[e.name] ?? 'other';
    parts[part] = (parts[part] ?? 0) + self / 1000 / frames;
    byName[e.name] = (byName[e.name] ?? 0) + self / 1000 / frames;
  }
  let painted = 0;
  let rasterOps = 0;
  for (const e of events) {
    if (e.pid === rendererPid && e.name === 'DisplayItemList::Raster') {
      rasterOps += Number(e.args?.rastered_op_count ?? 0);
    }
    if (!onMain(e)) continue;
    if (e.name === 'PaintController::commitNewDisplayItems') painted += Number(e.args?.num_non_cached_new_items ?? 0);
    if (e.name === 'UpdateLayoutTree' && typeof e.args?.elementCount === 'number') restyled += e.args.elementCount;
    if (e.name === 'Layout' && e.ph !== 'E') laidOut += e.args?.beginData?.dirtyObjects ?? 0;
  }
  // The page's renderer, its other threads (compositor, raster workers): CPU of their outermost
  // events, per frame.
  let otherThreadsCpu = 0;
  const ends = new Map<number, number>();
  for (const e of events
    .filter((e) => e.pid === rendererPid && !onMain(e) && e.ph === 'X' && e.tdur !== undefined)
    .sort((a, b) => a.ts - b.ts)) {
    if ((ends.get(e.tid) ?? -1) > e.ts) continue;
    ends.set(e.tid, e.ts + (e.dur ?? 0));
    otherThreadsCpu += e.tdur! / 1000 / frames;
  }
  return {
    frames,
    mainCpu,
    parts,
    byName,
    restyled: restyled / frames,
    laidOut: laidOut / frames,
    painted: painted / frames,
    rasterOps: rasterOps / frames,
    otherThreadsCpu,
  };
}

const dataDir = mkdtempSync(join(tmpdir(), 'quayside-scroll-trace-'));
try {
  const source = keptDb ?? join(dataDir, 'source.sqlite');
  if (!existsSync(source)) (await buildBigDatabaseApart(source, 100_000, 'bench-renderer')).db.close();
  // One data folder for every run, one host at a time: the database is over a gigabyte.
  const hostDir = join(dataDir, 'host');
  mkdirSync(join(hostDir, 'demo'), { recursive: true });
  linkSync(source, join(hostDir, 'demo', 'demo.sqlite'));
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  const results = new Map<string, FrameCosts[]>();
  try {
    for (let round = 0; round < rounds; round++) {
      for (const variant of variants) {
        const host = await startTestHost({ dataDir: hostDir, autoSync: false, rendererDir: variant.dir });
        const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
        try {
          await page.addInitScript('window.__name = (fn) => fn;');
          await page.goto(`${host.url}#/shipments`);
          await page.locator('[role="grid"] [data-index="0"] [role="gridcell"]').first().waitFor();
          for (const [mode, px] of [
            ['wheel', 100],
            ['fling', 700],
          ] as const) {
            const costs = await scrollTraced(page, px, 4);
            const key = `${variant.label} ${mode}`;
            results.set(key, [...(results.get(key) ?? []), costs]);
            console.error(
              `round ${round + 1} ${key}: main p50 ${percentile(costs.mainCpu, 50).toFixed(1)} ms, load ${costs.load.toFixed(1)}`,
            );
          }
        } finally {
          await page.close();
          await host.close();
        }
      }
    }
  } finally {
    await browser.close();
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const fmt = (x: number) => x.toFixed(1).padStart(7);
  const partNames = ['script', 'gc', 'style', 'layout', 'paint', 'layerize', 'other'];
  console.log(
    `CPU ms per frame (thread time), mean of ${rounds} run(s)\n${'variant'.padEnd(14)} frames main p50    p95   mean |` +
      partNames.map((p) => p.padStart(7)).join('') +
      ' | restyled laid-out painted | other threads raster ops | load',
  );
  for (const [key, runs] of results) {
    console.log(
      `${key.padEnd(14)}${fmt(mean(runs.map((r) => r.frames)))}${fmt(mean(runs.map((r) => percentile(r.mainCpu, 50))))}` +
        `${fmt(mean(runs.map((r) => percentile(r.mainCpu, 95))))}${fmt(mean(runs.map((r) => mean(r.mainCpu))))} |` +
        partNames.map((p) => fmt(mean(runs.map((r) => r.parts[p] ?? 0)))).join('') +
        ` | ${fmt(mean(runs.map((r) => r.restyled)))} ${fmt(mean(runs.map((r) => r.laidOut)))}` +
        `${fmt(mean(runs.map((r) => r.painted)))} |${fmt(mean(runs.map((r) => r.otherThreadsCpu)))}` +
        `${fmt(mean(runs.map((r) => r.rasterOps)))} | ${mean(runs.map((r) => r.load)).toFixed(1)}`,
    );
  }
  for (const [key, runs] of results) {
    const names = new Map<string, number>();
    for (const r of runs)
      for (const [n, v] of Object.entries(r.byName)) names.set(n, (names.get(n) ?? 0) + v / runs.length);
    const top = [...names].sort((a, b) => b[1] - a[1]).slice(0, 12);
    console.log(`${key}: ${top.map(([n, v]) => `${n} ${v.toFixed(2)}`).join(', ')}`);
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
