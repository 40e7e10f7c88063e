/** Row and value types the views show. JSON-safe: strings for dates, no classes. */

export interface AppInfo {
  name: string;
  version: string;
  /** Folder holding the databases and settings (QUAYSIDE_DATA_DIR or the app's user-data folder). */
  dataDir: string;
  /** True while no API key is configured: the app shows generated demo data. */
  demo: boolean;
  versions: { node: string; electron: string | null; chrome: string | null };
}

export type Theme = 'light' | 'dark' | 'system';
export type TimeDisplay = 'local' | 'port';

export interface Settings {
  theme: Theme;
  /** Show dates in the laptop's time zone or in the time zone of the port they happen at. */
  timeDisplay: TimeDisplay;
  syncIntervalMinutes: number;
}
