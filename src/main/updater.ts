/**
 * Updates from the GitHub release feed (electron-updater). Nothing is downloaded or installed
 * without the user saying so: an available update asks first, a downloaded one says that
 * Quayside will close and restart before it does. Background checks are off in demo mode and in
 * copies that are not installed; "Check for Updates…" in the menu always asks.
 */
import type { MessageBoxOptions, MessageBoxReturnValue } from 'electron';

/** The part of electron-updater's AppUpdater used here (a fake stands in for it in tests). */
export interface UpdateSource {
  autoDownload: boolean;
  autoInstallOnAppQuit: boolean;
  allowDowngrade: boolean;
  channel: string | null;
  checkForUpdates(): Promise<unknown>;
  downloadUpdate(): Promise<unknown>;
  quitAndInstall(isSilent?: boolean, isForceRunAfter?: boolean): void;
  on(
    event: 'update-available' | 'update-not-available' | 'update-downloaded',
    listener: (info: { version: string }) => void,
  ): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

export interface UpdaterOptions {
  source: UpdateSource;
  currentVersion: string;
  /** False for a copy run from source or an unpacked build: it has no feed to compare with. */
  installed: boolean;
  isDemo: () => Promise<boolean>;
  ask: (options: MessageBoxOptions) => Promise<MessageBoxReturnValue>;
  log: (message: string, error?: unknown) => void;
  /** Between background checks. */
  intervalMs?: number;
  /** process.arch: arm64 builds read their own feed (`arm64.yml`, `arm64-mac.yml`), see release.yml. */
  arch?: string;
}

export interface Updater {
  /** The menu item: always answers, even "you are up to date". */
  checkNow(): Promise<void>;
  /** Periodic quiet checks; not in demo mode. Returns a stop function. */
  startBackgroundChecks(): Promise<() => void>;
}

export function createUpdater(options: UpdaterOptions): Updater {
  const { source, ask, log } = options;
  source.autoDownload = false;
  source.autoInstallOnAppQuit = false;
  if (options.arch === 'arm64') source.channel = 'arm64';
  // Setting a channel allows downgrades in electron-updater; an update only ever moves forward.
  source.allowDowngrade = false;
  let userAsked = false;
  let downloading = false;
  // One question at a time: a background check does not stack a dialog on an open one.
  let dialogOpen = false;
  const askOnce = async (dialog: MessageBoxOptions): Promise<number | null> => {
    if (dialogOpen) return null;
    dialogOpen = true;
    try {
      return (await ask(dialog)).response;
    } finally {
      dialogOpen = false;
    }
  };

  source.on('update-available', (info) => {
    userAsked = false;
    void (async () => {
      const response = await askOnce({
        type: 'info',
        title: 'Update available',
        message: `Quayside ${info.version} is available.`,
        detail: `You have ${options.currentVersion}. Download it now? Quayside keeps working while it downloads, and asks again before it restarts.`,
        buttons: ['Download', 'Later'],
        defaultId: 0,
        cancelId: 1,
      });
      if (response !== 0) return;
      downloading = true;
      await source.downloadUpdate().catch((error: unknown) => log('downloading the update failed', error));
    })();
  });
  source.on('update-not-available', () => {
    if (!userAsked) return;
    userAsked = false;
    void askOnce({
      type: 'info',
      title: 'No update',
      message: `Quayside ${options.currentVersion} is the latest version.`,
      buttons: ['OK'],
    });
  });
  source.on('update-downloaded', (info) => {
    downloading = false;
    void (async () => {
      const response = await askOnce({
        type: 'question',
        title: 'Restart to update',
        message: `Quayside ${info.version} is ready to install.`,
        detail:
          'Quayside will close and restart to install it. Your data stays on this computer; a sync that is running stops and resumes after the restart.',
        buttons: ['Restart now', 'Later'],
        defaultId: 0,
        cancelId: 1,
      });
      if (response === 0) source.quitAndInstall(false, true);
      // "Later": it is installed the next time the user asks, or by a later check.
    })();
  });
  source.on('error', (error) => {
    log('update check failed', error);
    if (!userAsked && !downloading) return;
    userAsked = false;
    downloading = false;
    void askOnce({
      type: 'warning',
      title: 'Update check failed',
      message: 'Quayside could not check for updates.',
      detail: 'Check the internet connection and try again later. Nothing was changed.',
      buttons: ['OK'],
    });
  });

  return {
    async checkNow() {
      if (!options.installed) {
        await ask({
          type: 'info',
          title: 'Updates',
          message: 'This copy of Quayside is not installed, so it does not update itself.',
          detail: 'Installed copies check the release feed for updates.',
          buttons: ['OK'],
        });
        return;
      }
      userAsked = true;
      await source.checkForUpdates().catch((error: unknown) => log('update check failed', error));
    },
    async startBackgroundChecks() {
      if (!options.installed) return () => {};
      // Asked at each check, so an account added after start-up gets its checks, and demo none.
      const check = async () => {
        if (await options.isDemo()) return;
        await source.checkForUpdates().catch((error: unknown) => log('update check failed', error));
      };
      await check();
      const timer = setInterval(() => void check(), options.intervalMs ?? 6 * 60 * 60 * 1000);
      return () => clearInterval(timer);
    },
  };
}
