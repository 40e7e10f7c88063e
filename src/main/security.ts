/**
 * Every security setting of the shell in one object, so one test can assert them all.
 * Pure data and pure functions: no 'electron' import, so it loads under plain Node.
 * References: https://www.electronjs.org/docs/latest/tutorial/security (numbered rules below).
 */

export const APP_SCHEME = 'app';
export const APP_HOST = 'quayside';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

export const securitySettings = {
  /** Rules 2-4, 6, 9, 10, 12: isolate and sandbox the renderer; no Node, no webviews. */
  webPreferences: {
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    spellcheck: false,
    safeDialogs: true,
  },
  /** Rule 7: the page may load only its own files and talk to nothing remote. */
  contentSecurityPolicy: [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "object-src 'none'",
    "frame-src 'none'",
  ].join('; '),
  /** Rule 18: the app is served from a privileged custom scheme, not file://. */
  appScheme: {
    scheme: APP_SCHEME,
    privileges: { standard: true, secure: true, supportFetchAPI: true, stream: true },
  },
  /** Rule 5: every permission request (camera, notifications, geolocation, ...) is denied. */
  grantedPermissions: [] as readonly string[],
  /** Rules 13-15: navigation and new windows are denied; only these origins open in the browser. */
  externalOrigins: ['https://www.terminal49.com', 'https://developers.terminal49.com'] as readonly string[],
  /** Rule 19: Electron fuses, flipped by electron-builder (electron-builder.yml `electronFuses`). */
  fuses: {
    runAsNode: false,
    enableCookieEncryption: true,
    enableNodeOptionsEnvironmentVariable: false,
    enableNodeCliInspectArguments: false,
    enableEmbeddedAsarIntegrityValidation: true,
    onlyLoadAppFromAsar: true,
    grantFileProtocolExtraPrivileges: false,
  },
} as const;

/** Opens in the user's browser only https URLs on an allowlisted origin, no credentials. */
export function isAllowedExternalUrl(raw: string): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  return (
    url.protocol === 'https:' &&
    url.username === '' &&
    url.password === '' &&
    securitySettings.externalOrigins.includes(url.origin)
  );
}

/**
 * Whether a frame URL is one of ours: the app's custom origin, or the dev server's origin
 * when running `npm run dev` (never set in a packaged app).
 */
export function isAppUrl(raw: string, devServerUrl?: string): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  if (url.protocol === `${APP_SCHEME}:` && url.host === APP_HOST) return true;
  if (devServerUrl) {
    try {
      return url.origin === new URL(devServerUrl).origin;
    } catch {
      return false;
    }
  }
  return false;
}
