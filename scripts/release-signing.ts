/**
 * The first step of each release.yml packaging job: a build from a `v*` tag goes to customers,
 * so it must be signed (and on macOS notarised). This fails such a build at once, naming each
 * missing repository secret, instead of letting electron-builder ship an unsigned installer;
 * any other build (a branch, a manual run) may stay unsigned and says so in the log.
 *
 * It never sees a secret's value: the workflow passes `HAS_<SECRET>: ${{ secrets.<SECRET> != '' }}`.
 * It writes `force=true|false` to $GITHUB_OUTPUT, which the Package step hands to electron-builder
 * as `forceCodeSigning` (electron-builder then fails rather than skip signing it could not do).
 *
 * Run by Node itself (`node scripts/release-signing.ts`, Node 24 strips the types): no imports
 * beyond Node's own.
 */
import { appendFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export type RunnerOs = 'Linux' | 'macOS' | 'Windows';

interface Secret {
  name: string;
  what: string;
}

/** The repository secrets a signed build needs on each system (names as in release.yml). */
export const signingSecrets: Record<RunnerOs, Secret[]> = {
  macOS: [
    { name: 'MAC_CSC_LINK', what: 'the Developer ID Application certificate, a base64 .p12' },
    { name: 'MAC_CSC_KEY_PASSWORD', what: 'the password of MAC_CSC_LINK' },
    { name: 'APPLE_API_KEY_P8', what: 'the App Store Connect API key for notarisation, the text of its .p8 file' },
    { name: 'APPLE_API_KEY_ID', what: 'the ID of APPLE_API_KEY_P8' },
    { name: 'APPLE_API_ISSUER', what: 'the issuer ID of APPLE_API_KEY_P8' },
  ],
  Windows: [
    { name: 'WIN_CSC_LINK', what: 'the code-signing certificate, a base64 .pfx' },
    { name: 'WIN_CSC_KEY_PASSWORD', what: 'the password of WIN_CSC_LINK' },
  ],
  // AppImage and deb carry no code signature.
  Linux: [],
};

const signedWhat: Record<RunnerOs, string> = {
  macOS: 'signed and notarised',
  Windows: 'signed',
  Linux: 'built (Linux installers carry no code signature)',
};

export interface SigningInput {
  /** GITHUB_REF, e.g. refs/tags/v1.4.0 or refs/heads/main. */
  ref: string;
  os: RunnerOs;
  /** HAS_<SECRET>=true for each secret that is set. */
  env: Record<string, string | undefined>;
}

export interface SigningPlan {
  ok: boolean;
  /** Passed to electron-builder as forceCodeSigning. */
  force: boolean;
  missing: string[];
  /** One line for the log, as a GitHub annotation. */
  message: string;
}

export const releaseTag = (ref: string): string | null => /^refs\/tags\/(v.*)$/.exec(ref)?.[1] ?? null;

export function planSigning({ ref, os, env }: SigningInput): SigningPlan {
  const tag = releaseTag(ref);
  const missing = signingSecrets[os].filter((s) => env[`HAS_${s.name}`] !== 'true');
  const list = missing.map((s) => `${s.name} (${s.what})`).join(', ');
  if (tag) {
    if (missing.length === 0) {
      return {
        ok: true,
        force: true,
        missing: [],
        message: `::notice title=Signed release::Release ${tag}: the ${os} installers are ${signedWhat[os]}; electron-builder fails the build if it cannot sign.`,
      };
    }
    return {
      ok: false,
      force: true,
      missing: missing.map((s) => s.name),
      message: `::error title=Unsigned release refused::Release ${tag} must be ${signedWhat[os]} on ${os}, but ${missing.length === 1 ? 'this repository secret is' : 'these repository secrets are'} not set: ${list}; add ${missing.length === 1 ? 'it' : 'them'} under Settings > Secrets and variables > Actions and run the release again.`,
    };
  }
  const unsigned =
    missing.length === 0
      ? `the ${os} installers are signed with the secrets present, but signing is not enforced`
      : `the ${os} installers are built unsigned (not set: ${missing.map((s) => s.name).join(', ')}) and are not for customers`;
  return {
    ok: true,
    force: false,
    missing: missing.map((s) => s.name),
    message:
      os === 'Linux'
        ? `::notice title=Not a release::${ref} is not a release tag; Linux installers carry no code signature.`
        : `::notice title=Not a release::${ref} is not a release tag: ${unsigned}.`,
  };
}

const isRunnerOs = (value: string | undefined): value is RunnerOs =>
  value === 'macOS' || value === 'Windows' || value === 'Linux';

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const os = process.env.RUNNER_OS;
  if (!isRunnerOs(os)) {
    console.log(`::error::RUNNER_OS is "${os ?? ''}": this check runs on a GitHub runner (Linux, macOS or Windows).`);
    process.exit(1);
  }
  const plan = planSigning({ ref: process.env.GITHUB_REF ?? '', os, env: process.env });
  console.log(plan.message);
  if (process.env.GITHUB_OUTPUT) appendFileSync(process.env.GITHUB_OUTPUT, `force=${plan.force}\n`);
  process.exitCode = plan.ok ? 0 : 1;
}
