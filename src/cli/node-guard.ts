/**
 * The first thing every entry point runs (`npm run cli`, `npm start`/`npm run dev`, `npm run
 * bench`, `npm run icons`): under a Node older than Quayside supports, better-sqlite3 crashes
 * the process (a segmentation fault, no word), so the check must come before any native module
 * loads. ESM evaluates static imports first, so each entry is a tiny module that imports only
 * this one (Node built-ins and nothing else), calls `requireSupportedNode()`, then imports the
 * real entry dynamically. Run directly (`tsx src/cli/node-guard.ts`) it only checks, for npm
 * scripts that start with another tool. Keep its syntax plain: it must parse under old Node.
 */
import { writeSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The oldest Node Quayside runs on (package.json `engines`). */
export const MIN_NODE = { major: 22, minor: 14 };

export function nodeTooOld(version: string): boolean {
  const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number);
  return major < MIN_NODE.major || (major === MIN_NODE.major && minor < MIN_NODE.minor);
}

export function nodeVersionMessage(version: string): string {
  return (
    `Quayside needs Node ${MIN_NODE.major}.${MIN_NODE.minor} or newer and this is Node ${version.replace(/^v/, '')}: ` +
    'run `. .ci/node.sh` to fetch it from the npm registry, or install it from https://nodejs.org, then try again.'
  );
}

/** Ends the process with exit code 1 and one sentence when this Node is too old. */
export function requireSupportedNode(version: string = process.versions.node): void {
  if (!nodeTooOld(version)) return;
  // Synchronous, so the sentence is out before the process ends, even on a Windows pipe.
  writeSync(2, `${nodeVersionMessage(version)}\n`);
  process.exit(1);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) requireSupportedNode();
