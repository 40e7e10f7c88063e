/**
 * The installers' configuration and the release workflows, checked against the schemas their
 * tools publish (electron-builder's own `scheme.json`; SchemaStore's GitHub workflow schema), plus
 * what a company's IT would look for: hardened, per-user, native modules outside the archive, fuses.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Ajv, type ErrorObject } from 'ajv';
import { Packager, type CliOptions } from 'electron-builder';
import { configureBuildCommand, createYargs, normalizeOptions } from 'electron-builder/out/builder';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { securitySettings } from '../../src/main/security';
import { APP_ID } from '../../src/shared/app-id';
import { icnsTypes } from '../../scripts/make-icons';
import { planSigning, signingSecrets, type RunnerOs } from '../../scripts/release-signing';
import { electronSuite } from '../helpers/electron-required';
import { tempDir } from '../helpers/temp-dir';

const require = createRequire(import.meta.url);
const builderSchema = JSON.parse(readFileSync(require.resolve('app-builder-lib/scheme.json'), 'utf8')) as object;
const workflowSchema = JSON.parse(
  readFileSync(join(dirname(require.resolve('schemastore/package.json')), 'schemas/json/github-workflow.json'), 'utf8'),
) as object;

type Config = Record<string, unknown> & {
  mac: Record<string, unknown> & { target: { target: string; arch: string[] }[] };
  win: Record<string, unknown> & { target: { target: string; arch: string[] }[] };
  linux: Record<string, unknown> & { target: { target: string; arch: string[] }[] };
  nsis: Record<string, unknown>;
};
const config = parse(readFileSync('electron-builder.yml', 'utf8')) as Config;

function validator(schema: object) {
  const ajv = new Ajv({ allErrors: true, strict: false, allowUnionTypes: true });
  const validate = ajv.compile(schema);
  return (value: unknown): ErrorObject[] => (validate(value) ? [] : (validate.errors ?? []));
}

describe('electron-builder.yml', () => {
  const check = validator(builderSchema);

  it('is valid against the JSON schema electron-builder ships', () => {
    expect(check(config)).toEqual([]);
  });

  it('is refused with a typo, a wrong type or an unknown target', () => {
    const { asarUnpack, ...rest } = config;
    expect(check({ ...rest, asarUnpak: asarUnpack }).length).toBeGreaterThan(0);
    expect(check({ ...config, nsis: { ...config.nsis, perMachine: 'no' } }).length).toBeGreaterThan(0);
    expect(check({ ...config, mac: { ...config.mac, hardenedRuntme: true } }).length).toBeGreaterThan(0);
    expect(check({ ...config, electronFuses: { runAsNod: false } }).length).toBeGreaterThan(0);
  });

  it('sets the fuses main expects, keeps the app in an asar and native modules out of it', () => {
    expect(config.electronFuses).toEqual(securitySettings.fuses);
    expect(config.asar).toBe(true);
    expect(config.asarUnpack).toContain('**/*.node');
    expect(config.appId).toBe(APP_ID);
    expect(config.productName).toBe('Quayside');
  });

  it('builds a hardened, notarisable macOS dmg and zip for both architectures', () => {
    expect(config.mac.target).toEqual([
      { target: 'dmg', arch: ['arm64', 'x64'] },
      { target: 'zip', arch: ['arm64', 'x64'] },
    ]);
    expect(config.mac.hardenedRuntime).toBe(true);
    expect(config.mac.notarize).not.toBe(false);
    const entitlements = readFileSync(config.mac.entitlements as string, 'utf8');
    expect(entitlements).toContain('<key>com.apple.security.cs.allow-jit</key>');
    // Nothing beyond what V8 needs: no library-validation or sandbox escapes.
    expect(entitlements).not.toContain('disable-library-validation');
  });

  it('installs per user on Windows (x64 and arm64) and as AppImage and deb on Linux', () => {
    expect(config.win.target).toEqual([{ target: 'nsis', arch: ['x64', 'arm64'] }]);
    expect(config.nsis).toMatchObject({ perMachine: false, allowElevation: false });
    expect(config.linux.target.map((t) => t.target)).toEqual(['AppImage', 'deb']);
  });
});

describe('icons', () => {
  const pngSize = (file: string) => {
    const png = readFileSync(file);
    expect(png.subarray(1, 4).toString('ascii')).toBe('PNG');
    return [png.readUInt32BE(16), png.readUInt32BE(20)];
  };

  it('come in every size the platforms ask for, drawn from resources/icon.svg', () => {
    expect(readFileSync('resources/icon.svg', 'utf8')).toContain('<svg');
    expect(pngSize('resources/icon.png')).toEqual([1024, 1024]);
    for (const size of [16, 32, 48, 64, 128, 256, 512]) {
      expect(pngSize(`resources/icons/${size}x${size}.png`)).toEqual([size, size]);
    }
  });

  it('are real ICO and ICNS containers with PNG images inside', () => {
    const ico = readFileSync('resources/icon.ico');
    expect(ico.readUInt16LE(2)).toBe(1);
    const count = ico.readUInt16LE(4);
    expect(count).toBeGreaterThanOrEqual(5);
    const sizes: number[] = [];
    for (let i = 0; i < count; i++) {
      const entry = 6 + i * 16;
      const offset = ico.readUInt32LE(entry + 12);
      expect(ico.subarray(offset + 1, offset + 4).toString('ascii')).toBe('PNG');
      sizes.push(ico.readUInt8(entry) || 256);
    }
    expect(sizes).toContain(256);

    const icns = readFileSync('resources/icon.icns');
    expect(icns.subarray(0, 4).toString('ascii')).toBe('icns');
    expect(icns.readUInt32BE(4)).toBe(icns.length);
    const types: string[] = [];
    for (let at = 8; at < icns.length; at += icns.readUInt32BE(at + 4))
      types.push(icns.subarray(at, at + 4).toString('ascii'));
    expect(types).toEqual(Object.values(icnsTypes));
  });
});

describe('GitHub workflows', () => {
  const check = validator(workflowSchema);
  const load = (name: string) => parse(readFileSync(`.github/workflows/${name}`, 'utf8')) as Record<string, unknown>;

  it.each(['ci.yml', 'release.yml'])('%s is valid against the published workflow schema', (name) => {
    expect(check(load(name))).toEqual([]);
  });

  it('is refused with a typo', () => {
    const ci = load('ci.yml');
    const { jobs, ...rest } = ci;
    expect(check({ ...rest, job: jobs }).length).toBeGreaterThan(0);
    expect(check({ ...ci, on: { pusj: {} } }).length).toBeGreaterThan(0);
  });

  it('tests on all three systems on every push, and releases installers to a draft from a tag', () => {
    const ci = load('ci.yml') as {
      on: { push: unknown };
      jobs: { test: { strategy: { matrix: { include: { os: string }[] } } } };
    };
    expect(ci.on.push).toBeDefined();
    expect(ci.jobs.test.strategy.matrix.include.map((m) => m.os)).toEqual([
      'ubuntu-latest',
      'macos-latest',
      'windows-latest',
    ]);
    const release = readFileSync('.github/workflows/release.yml', 'utf8');
    expect(release).toContain("tags: ['v*']");
    expect(release).toContain('npm test');
    // Packages are built with --publish never and attached once, to one draft, by the last job.
    expect(release).toContain('--publish never');
    expect(release).toContain('gh release create "$TAG" --repo "$GITHUB_REPOSITORY" --draft');
    // arm64 installers have their own update feed, the channel the app asks for on arm64.
    expect(release).toMatch(/mv "\$feed" "arm64\$\{feed#latest\}"/);
    expect(config.publish).toEqual([{ provider: 'github', releaseType: 'draft' }]);
  });
});

interface Step {
  name?: string;
  id?: string;
  if?: string;
  run?: string;
  uses?: string;
  env?: Record<string, string>;
}
interface Job {
  if?: string;
  env: Record<string, string>;
  steps: Step[];
  strategy: { matrix: { include: { name?: string; os: string; args?: string }[] } };
}
type Workflow = { on: Record<string, unknown>; jobs: Record<string, Job> };
const workflow = (name: string) => parse(readFileSync(`.github/workflows/${name}`, 'utf8')) as Workflow;
const stepIndex = (job: Job, match: (step: Step) => boolean) => {
  const index = job.steps.findIndex(match);
  expect(index).toBeGreaterThanOrEqual(0);
  return index;
};

describe.each([
  ['ci.yml', 'test'],
  ['release.yml', 'package'],
])('%s runs the Electron suite against the real binary', (file, jobName) => {
  const job = workflow(file).jobs[jobName]!;

  it('fetches Electron after npm ci and before the tests, and fails the suite without it', () => {
    expect(job.env.QUAYSIDE_REQUIRE_ELECTRON).toBe('1');
    const install = stepIndex(job, (s) => s.run === 'node node_modules/electron/install.js');
    expect(job.steps[install]!.if).toBeUndefined();
    expect(install).toBeGreaterThan(stepIndex(job, (s) => s.run?.startsWith('npm ci') === true));
    const tests = job.steps.filter((s) => /\bnpm test\b/.test(s.run ?? ''));
    expect(tests.length).toBe(2);
    for (const test of tests) expect(job.steps.indexOf(test)).toBeGreaterThan(install);
    // Linux: under Xvfb, with the setuid sandbox helper Ubuntu 24.04 needs.
    expect(tests.find((s) => s.if === "runner.os == 'Linux'")?.run).toContain('xvfb-run -a npm test');
    const sandbox = stepIndex(
      job,
      (s) => s.run?.includes('chmod 4755 node_modules/electron/dist/chrome-sandbox') ?? false,
    );
    expect(job.steps[sandbox]!.if).toBe("runner.os == 'Linux'");
    expect(sandbox).toBeGreaterThan(install);
  });
});

describe('the Electron suite without its binary', () => {
  it('runs where the binary is, skips with the reason where it is missing, fails where it is required', () => {
    expect(electronSuite('/opt/electron/electron', { QUAYSIDE_REQUIRE_ELECTRON: '1' })).toEqual({
      run: true,
      binary: '/opt/electron/electron',
    });
    expect(electronSuite(null, {})).toEqual({
      run: false,
      skip: expect.stringMatching(/^the Electron binary is not installed/) as string,
    });
    expect(electronSuite(null, { QUAYSIDE_REQUIRE_ELECTRON: '0' })).toHaveProperty('skip');
    expect(electronSuite(null, { QUAYSIDE_REQUIRE_ELECTRON: '1' })).toEqual({
      run: false,
      fail: expect.stringMatching(
        /^The Electron suite is required here \(QUAYSIDE_REQUIRE_ELECTRON=1\) but the Electron binary is not installed/,
      ) as string,
    });
  });
});

describe('signed releases', () => {
  const release = workflow('release.yml');
  const job = release.jobs.package!;
  const oses: RunnerOs[] = ['macOS', 'Windows', 'Linux'];
  const allSet = (os: RunnerOs) => Object.fromEntries(signingSecrets[os].map((s) => [`HAS_${s.name}`, 'true']));

  it('refuses a tag build without each signing secret, naming it', () => {
    for (const os of oses) {
      const tagged = planSigning({ ref: 'refs/tags/v1.4.0', os, env: allSet(os) });
      expect(tagged).toMatchObject({ ok: true, force: true, missing: [] });
      for (const secret of signingSecrets[os]) {
        const plan = planSigning({
          ref: 'refs/tags/v1.4.0',
          os,
          env: { ...allSet(os), [`HAS_${secret.name}`]: 'false' },
        });
        expect(plan).toMatchObject({ ok: false, force: true, missing: [secret.name] });
        expect(plan.message).toMatch(/^::error title=Unsigned release refused::Release v1\.4\.0 must be /);
        expect(plan.message).toContain(`this repository secret is not set: ${secret.name} (`);
      }
    }
    expect(signingSecrets.macOS.map((s) => s.name)).toEqual([
      'MAC_CSC_LINK',
      'MAC_CSC_KEY_PASSWORD',
      'APPLE_API_KEY_P8',
      'APPLE_API_KEY_ID',
      'APPLE_API_ISSUER',
    ]);
    expect(signingSecrets.Windows.map((s) => s.name)).toEqual(['WIN_CSC_LINK', 'WIN_CSC_KEY_PASSWORD']);
    const none = planSigning({ ref: 'refs/tags/v2.0.0', os: 'Windows', env: {} });
    expect(none.message).toContain('these repository secrets are not set: WIN_CSC_LINK (');
    expect(none.message).toContain('WIN_CSC_KEY_PASSWORD (');
  });

  it('lets a branch or manual build go unsigned, with a note in the log', () => {
    for (const os of oses) {
      const plan = planSigning({ ref: 'refs/heads/main', os, env: {} });
      expect(plan).toMatchObject({ ok: true, force: false });
      expect(plan.message).toMatch(/^::notice title=Not a release::refs\/heads\/main is not a release tag/);
    }
    expect(planSigning({ ref: 'refs/heads/main', os: 'macOS', env: {} }).message).toContain('built unsigned');
    // Only v* tags are releases.
    expect(planSigning({ ref: 'refs/tags/nightly', os: 'Windows', env: {} })).toMatchObject({ ok: true, force: false });
  });

  it('as a workflow step: exits 1 on a tag without the secrets, and hands force=true to the Package step', () => {
    const inherited = Object.fromEntries(
      Object.entries(process.env).filter(([k]) => !/^(HAS_|GITHUB_|RUNNER_OS$|QUAYSIDE_)/.test(k)),
    );
    const run = (ref: string, os: RunnerOs, has: Record<string, string>) => {
      const output = join(tempDir('quayside-signing-'), 'output');
      const result = spawnSync(process.execPath, ['scripts/release-signing.ts'], {
        env: { ...inherited, GITHUB_REF: ref, RUNNER_OS: os, GITHUB_OUTPUT: output, ...has },
        encoding: 'utf8',
      });
      return { status: result.status, stdout: result.stdout, output: readFileSync(output, 'utf8') };
    };
    const refused = run('refs/tags/v1.4.0', 'Windows', { HAS_WIN_CSC_LINK: 'true', HAS_WIN_CSC_KEY_PASSWORD: 'false' });
    expect(refused.status).toBe(1);
    expect(refused.stdout).toMatch(/^::error title=Unsigned release refused::.*not set: WIN_CSC_KEY_PASSWORD \(/);
    expect(refused.output).toBe('force=true\n');
    const signed = run('refs/tags/v1.4.0', 'macOS', allSet('macOS'));
    expect(signed).toMatchObject({ status: 0, output: 'force=true\n' });
    const branch = run('refs/heads/main', 'macOS', {});
    expect(branch).toMatchObject({ status: 0, output: 'force=false\n' });
    expect(branch.stdout).toContain('::notice');
  });

  it('checks the secrets first, for every build, before any test or packaging', () => {
    expect(Object.keys(release.on)).toEqual(['push', 'workflow_dispatch']);
    expect(release.on.push).toEqual({ tags: ['v*'] });
    const check = stepIndex(job, (s) => s.id === 'signing');
    const step = job.steps[check]!;
    expect(step.run).toBe('node scripts/release-signing.ts');
    expect(step.if).toBeUndefined();
    // After checkout and Node 24 (which runs the .ts file), before anything else.
    expect(job.steps.slice(0, check).map((s) => s.uses)).toEqual(['actions/checkout@v4', 'actions/setup-node@v4']);
    const names = oses.flatMap((os) => signingSecrets[os].map((s) => s.name));
    // Only whether each secret is set, never its value.
    expect(step.env).toEqual(Object.fromEntries(names.map((n) => [`HAS_${n}`, `\${{ secrets.${n} != '' }}`])));
    // The draft release is made from a tag only; a manual run from a branch keeps artifacts.
    expect(release.jobs.release!.if).toBe("startsWith(github.ref, 'refs/tags/v')");
  });

  // Loads the configuration ten times through electron-builder: seconds on a busy runner.
  it(
    'makes electron-builder fail rather than skip signing on a tag (its own CLI and config loader)',
    { timeout: 60_000 },
    async () => {
      const pack = job.steps.find((s) => s.name === 'Package')!;
      expect(pack.run).toContain('${{ steps.signing.outputs.force }}');
      const effective = async (force: string, args: string) => {
        const command = pack
          .run!.replace('${{ matrix.args }}', args)
          .replace('${{ steps.signing.outputs.force }}', force);
        expect(command).not.toContain('${{');
        const argv = command.trim().split(/\s+/);
        expect(argv.slice(0, 2)).toEqual(['npx', 'electron-builder']);
        const cli = (await configureBuildCommand(createYargs()).parse(argv.slice(2))) as CliOptions;
        const packager = new Packager(normalizeOptions(cli));
        await packager.validateConfig();
        return packager.config;
      };
      for (const { args } of job.strategy.matrix.include) {
        expect((await effective('true', args!)).forceCodeSigning).toBe(true);
        expect((await effective('false', args!)).forceCodeSigning).toBe(false);
      }
      // Built anywhere else (npm run dist), the same configuration signs only if it can.
      expect(config.forceCodeSigning).toBe(false);
    },
  );

  it('names the Windows publisher, so electron-updater installs only updates it signed', () => {
    const win = config.win as { signtoolOptions?: { publisherName?: unknown }; verifyUpdateCodeSignature?: unknown };
    expect(win.signtoolOptions?.publisherName).toBe('Quayside');
    expect(win.verifyUpdateCodeSignature).toBe(true);
    // And notarises on macOS (the signing step makes the notarisation key a must on a tag).
    expect(config.mac.notarize).toBe(true);
  });
});
