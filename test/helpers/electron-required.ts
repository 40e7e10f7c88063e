/**
 * Whether the Electron suite runs, skips or fails. A machine without the Electron binary (npm ci
 * denies its download; a machine offline cannot fetch it) skips the suite with the reason printed.
 * Where QUAYSIDE_REQUIRE_ELECTRON=1 (the CI and release workflows, which fetch the binary after
 * `npm ci`), a missing binary fails the suite instead: a skip there would hide that the real shell
 * was never tested.
 */
export type ElectronSuite = { run: true; binary: string } | { run: false; skip: string } | { run: false; fail: string };

export const missingReason =
  'the Electron binary is not installed (npm ci denies its download); run `npx install-electron` on a machine with internet to run this suite';

export function electronSuite(binary: string | null, env: Record<string, string | undefined>): ElectronSuite {
  if (binary) return { run: true, binary };
  if (env.QUAYSIDE_REQUIRE_ELECTRON === '1') {
    return {
      run: false,
      fail: `The Electron suite is required here (QUAYSIDE_REQUIRE_ELECTRON=1) but ${missingReason}; in CI, the "Electron binary" step after npm ci fetches it.`,
    };
  }
  return { run: false, skip: missingReason };
}
