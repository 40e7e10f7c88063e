/**
 * `npm run cli -- <command>`: checks the Node version before anything native loads (see
 * node-guard.ts), then runs the CLI (`index.ts`).
 *
 * The `cli` script in package.json runs this with `--max-semi-space-size=4 --optimize-for-size`:
 * by default V8 lets its young generation grow to large semi-spaces, which a sync's page-by-page
 * garbage fills. A cron job's sync is paced by the service, not the CPU, so the CLI takes memory
 * over speed. The flags live in the script because set at run time they do not resize a heap
 * already set up (the bench reads them from package.json).
 */
import { requireSupportedNode } from './node-guard';

requireSupportedNode();
// Before the CLI's modules load: loading them (through tsx, transpiled) would grow the young
// generation that the bound then keeps.
(await import('../core/heap-growth')).boundHeapGrowth();
const { runCli } = await import('./index');
process.exitCode = await runCli(process.argv.slice(2));
