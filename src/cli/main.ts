/**
 * `npm run cli -- <command>`: checks the Node version before anything native loads (see
 * node-guard.ts), then runs the CLI (`index.ts`).
 */
import { requireSupportedNode } from './node-guard';

requireSupportedNode();
const { runCli } = await import('./index');
process.exitCode = await runCli(process.argv.slice(2));
