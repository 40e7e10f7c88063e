import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { APP_ORIGIN, isAllowedExternalUrl, isAppUrl, securitySettings } from '../../src/main/security';
import { APP_ID } from '../../src/shared/app-id';

describe('shell security settings', () => {
  it('isolates and sandboxes the renderer with no Node and no webviews', () => {
    expect(securitySettings.webPreferences).toEqual({
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
    });
  });

  it('has a CSP that allows only the app itself and nothing remote', () => {
    const directives: Record<string, string[]> = Object.fromEntries(
      securitySettings.contentSecurityPolicy.split(';').map((part): [string, string[]] => {
        const [name, ...values] = part.trim().split(/\s+/);
        return [name ?? '', values];
      }),
    );
    expect(directives['default-src']).toEqual(["'none'"]);
    expect(directives['script-src']).toEqual(["'self'"]);
    expect(directives['connect-src']).toEqual(["'self'"]);
    expect(directives['object-src']).toEqual(["'none'"]);
    expect(directives['base-uri']).toEqual(["'none'"]);
    expect(securitySettings.contentSecurityPolicy).not.toMatch(/unsafe-(inline|eval)|https?:|\*/);
  });

  it('puts the same CSP in index.html as the app protocol sends', () => {
    const html = readFileSync('src/renderer/index.html', 'utf8');
    const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html);
    expect(meta?.[1]).toBe(securitySettings.contentSecurityPolicy);
  });

  it('denies every permission and serves the app from a privileged custom scheme', () => {
    expect(securitySettings.grantedPermissions).toEqual([]);
    expect(securitySettings.appScheme).toEqual({
      scheme: 'app',
      privileges: { standard: true, secure: true, supportFetchAPI: true, stream: true },
    });
    expect(APP_ORIGIN).toBe('app://quayside');
  });

  it('flips the fuses that let the packaged app run as Node or be inspected', () => {
    expect(securitySettings.fuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
    });
    const builder = parse(readFileSync('electron-builder.yml', 'utf8')) as {
      electronFuses: unknown;
      asar: unknown;
      appId: unknown;
    };
    expect(builder.electronFuses).toEqual(securitySettings.fuses);
    expect(builder.asar).toBe(true);
    // The keychain service name is the app id: keys saved by one build are found by the next.
    expect(builder.appId).toBe(APP_ID);
  });

  it('opens only allowlisted https origins in the browser', () => {
    expect(isAllowedExternalUrl('https://www.terminal49.com/pricing')).toBe(true);
    expect(isAllowedExternalUrl('http://www.terminal49.com/')).toBe(false);
    expect(isAllowedExternalUrl('https://www.terminal49.com.evil.example/')).toBe(false);
    expect(isAllowedExternalUrl('https://user:pw@www.terminal49.com/')).toBe(false);
    expect(isAllowedExternalUrl('file:///etc/passwd')).toBe(false);
    expect(isAllowedExternalUrl('javascript:alert(1)')).toBe(false);
    expect(isAllowedExternalUrl('not a url')).toBe(false);
  });

  it('trusts IPC only from the app origin, or the dev server when one is given', () => {
    expect(isAppUrl('app://quayside/index.html')).toBe(true);
    expect(isAppUrl('app://other/index.html')).toBe(false);
    expect(isAppUrl('file:///tmp/index.html')).toBe(false);
    expect(isAppUrl('http://localhost:5173/')).toBe(false);
    expect(isAppUrl('http://localhost:5173/x', 'http://localhost:5173')).toBe(true);
    expect(isAppUrl('http://localhost:5174/', 'http://localhost:5173')).toBe(false);
  });
});
