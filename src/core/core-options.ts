/**
 * What the composition root (createCore) is given: its own module so that core.ts and the
 * handlers' context both import it without importing each other.
 */
import type { DesktopNotification } from '../shared/alerts';
import type { AppInfo } from '../shared/types';
import type { DemoService } from './demo-service';
import type { Logger } from './dispatch';
import type { ReadsAsideMode } from './reads/reads-aside';
import type { SafeStorageStore, SecretStore } from './secrets/index';

export interface CoreOptions {
  /** Absolute folder for databases and settings (see resolveDataDir). */
  dataDir: string;
  appVersion: string;
  /** Runtime versions to report; Electron's main passes its own. */
  versions?: Partial<AppInfo['versions']>;
  /** Where log lines go besides the log file (main: the console). They arrive scrubbed of keys. */
  log?: Logger;
  /** The folder of the rotated log file (main: `<user data>/logs`); no file when absent. */
  logDir?: string;
  /** Where keys are kept: the OS keychain and Electron's safeStorage when main has them. */
  secrets?: { keychain?: SecretStore; safeStorage?: SafeStorageStore; probeTimeoutMs?: number };
  /** Asks where to save an export (main: a save dialog); null when the user cancels. */
  chooseExportPath?: (suggestedName: string) => Promise<string | null>;
  /**
   * Asks which folder an export of one file per customer goes to (main: a folder dialog that can
   * make a new one); null when the user cancels. `format` says which files it will hold.
   */
  chooseExportFolder?: (format: 'csv' | 'xlsx') => Promise<string | null>;
  /**
   * Opens a kept file with the computer's viewer (main: `shell.openPath`, which answers '' or why
   * not); the test host records the request instead. Without it, `documents:open` says it cannot.
   */
  openPath?: (path: string) => Promise<string>;
  /** Shows a kept file selected in the file manager (main: `shell.showItemInFolder`); nothing is run. */
  showItemInFolder?: (path: string) => void;
  /**
   * Shows a desktop notification (main: Electron's Notification; the test host records it).
   * `open()` is what a click does: the app's window shows the list behind it. Core calls it only
   * when Settings want desktop notifications (and, on the demo account, only when turned on).
   */
  notify?: (notification: DesktopNotification & { open(): void }) => void;
  /** Periodic background sync (off in tests that drive sync themselves). */
  autoSync?: boolean;
  /**
   * The service the demo account (no profile) syncs from: main and the CLI pass the sandbox.
   * Without one, the demo account opens its database but a sync says no demo service is available.
   */
  demo?: DemoService;
  fetch?: typeof fetch;
  /** The clock answers that depend on the moment read (the export's pickup columns); tests move it. Default: Date.now. */
  now?: () => number;
  /**
   * Where the lists' pages and counts and Ctrl+K's search run (core/reads): 'auto' (default) in a
   * worker thread once the account's database is large, 'always' or 'never' for tests.
   */
  readsAside?: ReadsAsideMode;
  /** The wait before a failed request to the service is tried again; tests pass one that does not wait on the clock. */
  retryWait?: (ms: number, signal?: AbortSignal) => Promise<void>;
}
