import { join } from 'node:path';
import { BrowserWindow } from 'electron';
import { APP_ORIGIN, securitySettings } from './security';

export function createMainWindow(devServerUrl?: string): BrowserWindow {
  const window = new BrowserWindow({
    width: 1360,
    height: 860,
    minWidth: 900,
    minHeight: 600,
    title: 'Quayside',
    show: false,
    backgroundColor: '#0f172a',
    webPreferences: {
      ...securitySettings.webPreferences,
      preload: join(import.meta.dirname, '../preload/index.cjs'),
    },
  });
  window.once('ready-to-show', () => window.show());
  void window.loadURL(devServerUrl ?? `${APP_ORIGIN}/index.html`);
  return window;
}
