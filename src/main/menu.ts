/** The application menu: the usual roles, plus "Check for Updates…". */
import type { MenuItemConstructorOptions } from 'electron';

export function menuTemplate(options: {
  platform: NodeJS.Platform;
  onCheckForUpdates: () => void;
  devTools: boolean;
}): MenuItemConstructorOptions[] {
  const updates: MenuItemConstructorOptions = { label: 'Check for Updates…', click: options.onCheckForUpdates };
  const mac = options.platform === 'darwin';
  const view: MenuItemConstructorOptions[] = [
    { role: 'resetZoom' },
    { role: 'zoomIn' },
    { role: 'zoomOut' },
    { type: 'separator' },
    { role: 'togglefullscreen' },
  ];
  if (options.devTools) view.unshift({ role: 'reload' }, { role: 'toggleDevTools' }, { type: 'separator' });
  return [
    ...(mac
      ? [
          {
            label: 'Quayside',
            submenu: [
              { role: 'about' },
              updates,
              { type: 'separator' },
              { role: 'hide' },
              { role: 'hideOthers' },
              { role: 'unhide' },
              { type: 'separator' },
              { role: 'quit' },
            ],
          } satisfies MenuItemConstructorOptions,
        ]
      : []),
    { label: 'File', submenu: [mac ? { role: 'close' } : { role: 'quit' }] },
    { role: 'editMenu' },
    { label: 'View', submenu: view },
    { role: 'windowMenu' },
    ...(mac ? [] : [{ label: 'Help', submenu: [updates] } satisfies MenuItemConstructorOptions]),
  ];
}
