import { join } from 'node:path';
import { app, BrowserWindow, dialog, Menu, Notification, protocol, safeStorage, session, shell } from 'electron';
import electronUpdater from 'electron-updater';
import { createCore, type Core } from '../core/core';
import { resolveDataDir } from '../core/paths';
import { adaptAsyncSafeStorage, createKeychainStore, createSafeStorageStore } from '../core/secrets/index';
import { sandboxDemoService } from '../sandbox/demo-service';
import { APP_ID } from '../shared/app-id';
import { serveAppAsset } from './app-protocol';
import { denyPermissions, hardenWebContents } from './harden';
import { bindIpc } from './ipc';
import { menuTemplate } from './menu';
import { createUpdater } from './updater';
import { APP_SCHEME, isAppUrl, securitySettings } from './security';
import { createMainWindow } from './window';

// electron-vite sets this for `npm run dev` only; a packaged app never trusts a dev server.
const devServerUrl = app.isPackaged ? undefined : process.env.ELECTRON_RENDERER_URL;

// Before 'ready': the app scheme's privileges, and Chromium's own data beside ours.
protocol.registerSchemesAsPrivileged([securitySettings.appScheme]);
const dataDir = resolveDataDir(process.env, app.getPath('userData'));
app.setPath('userData', dataDir);

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  let core: Core | undefined;
  let mainWindow: BrowserWindow | undefined;
  // Shown notifications are held until closed: one collected early loses its click.
  const notifications = new Set<Notification>();

  app.on('second-instance', () => {
    if (!mainWindow || mainWindow.isDestroyed()) return;
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
  });
  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents, devServerUrl));

  void app.whenReady().then(() => {
    const rendererDir = join(import.meta.dirname, '../renderer');
    protocol.handle(APP_SCHEME, (request) => serveAppAsset(rendererDir, request));
    denyPermissions(session.defaultSession);
    core = createCore({
      dataDir,
      appVersion: app.getVersion(),
      versions: { electron: process.versions.electron, chrome: process.versions.chrome },
      // Scrubbed of keys by core; also written to <user data>/logs/quayside.log, rotated.
      log: (line) => console.error(`[quayside] ${line}`),
      logDir: join(dataDir, 'logs'),
      // No API key yet: the demo account syncs the sandbox, in this process on loopback.
      demo: sandboxDemoService({ seed: 'demo', shipments: 300 }),
      secrets: {
        keychain: createKeychainStore({ service: APP_ID }),
        safeStorage: createSafeStorageStore({
          safeStorage: adaptAsyncSafeStorage(safeStorage),
          dir: join(dataDir, 'secrets'),
        }),
      },
      // A sync's alerts, grouped: a click brings the window forward on the list behind them.
      notify: (notification) => {
        if (!Notification.isSupported()) return;
        const shown = new Notification({ title: notification.title, body: notification.body });
        notifications.add(shown);
        shown.on('close', () => notifications.delete(shown));
        shown.on('click', () => {
          notifications.delete(shown);
          if (mainWindow && !mainWindow.isDestroyed()) {
            if (mainWindow.isMinimized()) mainWindow.restore();
            mainWindow.show();
            mainWindow.focus();
          }
          notification.open();
        });
        shown.show();
      },
      // A kept document file, with the computer's viewer (core passes only paths inside its documents folder).
      openPath: (path) => shell.openPath(path),
      showItemInFolder: (path) => shell.showItemInFolder(path),
      // The suggested name's extension says the format core will write (.csv or .xlsx).
      chooseExportPath: async (suggestedName) => {
        const excel = suggestedName.endsWith('.xlsx');
        const options = {
          title: excel ? 'Export to Excel' : 'Export to CSV',
          defaultPath: join(app.getPath('downloads'), suggestedName),
          filters: [
            excel ? { name: 'Excel workbook', extensions: ['xlsx'] } : { name: 'CSV (Excel)', extensions: ['csv'] },
          ],
        };
        const result = mainWindow
          ? await dialog.showSaveDialog(mainWindow, options)
          : await dialog.showSaveDialog(options);
        return result.canceled || !result.filePath ? null : result.filePath;
      },
      // One file per customer: a folder, which the dialog can make.
      chooseExportFolder: async (format) => {
        const options = {
          title: `One ${format === 'xlsx' ? 'Excel' : 'CSV'} file per customer: choose a folder`,
          buttonLabel: 'Export here',
          defaultPath: app.getPath('downloads'),
          properties: ['openDirectory', 'createDirectory'] as ('openDirectory' | 'createDirectory')[],
        };
        const result = mainWindow
          ? await dialog.showOpenDialog(mainWindow, options)
          : await dialog.showOpenDialog(options);
        return result.canceled ? null : (result.filePaths[0] ?? null);
      },
    });
    bindIpc(core, (url) => isAppUrl(url, devServerUrl));
    const shownCore = core;
    const updater = createUpdater({
      source: electronUpdater.autoUpdater,
      currentVersion: app.getVersion(),
      installed: app.isPackaged,
      arch: process.arch,
      isDemo: async () => (await shownCore.handlers['app:info'](undefined)).demo,
      ask: (options) =>
        mainWindow && !mainWindow.isDestroyed()
          ? dialog.showMessageBox(mainWindow, options)
          : dialog.showMessageBox(options),
      log: (message, error) => shownCore.log(message, error),
    });
    Menu.setApplicationMenu(
      Menu.buildFromTemplate(
        menuTemplate({
          platform: process.platform,
          onCheckForUpdates: () => void updater.checkNow(),
          devTools: !app.isPackaged,
        }),
      ),
    );
    void updater.startBackgroundChecks();
    process.on('uncaughtException', (error) => shownCore.log('uncaught exception in main', error));
    app.on('render-process-gone', (_event, _contents, details) =>
      shownCore.log(
        'the window’s renderer process ended',
        new Error(`${details.reason} (exit code ${details.exitCode})`),
      ),
    );
    app.on('child-process-gone', (_event, details) =>
      shownCore.log(`a ${details.type} process ended`, new Error(`${details.reason} (exit code ${details.exitCode})`)),
    );
    process.on('unhandledRejection', (reason) => shownCore.log('unhandled rejection in main', reason));
    mainWindow = createMainWindow(devServerUrl);
    app.on('activate', () => {
      if (BrowserWindow.getAllWindows().length === 0) mainWindow = createMainWindow(devServerUrl);
    });
  });

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('will-quit', () => {
    void core?.close();
  });
}
