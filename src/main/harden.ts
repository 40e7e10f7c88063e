import { shell, type Session, type WebContents } from 'electron';
import { isAllowedExternalUrl, isAppUrl, securitySettings } from './security';

/** Denies every permission request and check; nothing in Quayside needs one. */
export function denyPermissions(session: Session): void {
  session.setPermissionRequestHandler((_contents, permission, callback) => {
    callback(securitySettings.grantedPermissions.includes(permission));
  });
  session.setPermissionCheckHandler((_contents, permission) =>
    securitySettings.grantedPermissions.includes(permission),
  );
}

/** No navigation away from the app, no new windows, no webviews; allowlisted links open outside. */
export function hardenWebContents(contents: WebContents, devServerUrl?: string): void {
  contents.on('will-navigate', (event, url) => {
    if (!isAppUrl(url, devServerUrl)) event.preventDefault();
  });
  contents.on('will-redirect', (event, url) => {
    if (!isAppUrl(url, devServerUrl)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    if (isAllowedExternalUrl(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
}
