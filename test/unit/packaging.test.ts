/**
 * The installers' configuration and the release workflows, checked against the schemas their
 * tools publish (electron-builder's own `scheme.json`; SchemaStore's GitHub workflow schema), plus
 * what a company's IT would look for: hardened, per-user, native modules outside the archive, fuses.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Ajv, type ErrorObject } from 'ajv';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { securitySettings } from '../../src/main/security';
import { APP_ID } from '../../src/shared/app-id';
import { icnsTypes } from '../../scripts/make-icons';

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
