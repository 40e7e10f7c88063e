import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveAppAsset, serveAppAsset } from '../../src/main/app-protocol';
import { securitySettings } from '../../src/main/security';
import { tempDir } from '../helpers/temp-dir';

describe('app:// protocol', () => {
  const root = '/srv/renderer';

  it('maps app URLs to files under the renderer folder', () => {
    expect(resolveAppAsset(root, 'app://quayside/')).toBe('/srv/renderer/index.html');
    expect(resolveAppAsset(root, 'app://quayside/assets/index.js')).toBe('/srv/renderer/assets/index.js');
  });

  it('refuses other hosts and paths that escape the folder', () => {
    expect(resolveAppAsset(root, 'app://evil/index.html')).toBeNull();
    expect(resolveAppAsset(root, 'file:///etc/passwd')).toBeNull();
    // URL parsing folds the dots away, so the path stays inside the folder.
    expect(resolveAppAsset(root, 'app://quayside/../../etc/passwd')).toBe('/srv/renderer/etc/passwd');
    expect(resolveAppAsset(root, 'app://quayside/%2e%2e/%2e%2e/etc/passwd')).toBe('/srv/renderer/etc/passwd');
    expect(resolveAppAsset(root, 'app://quayside/assets%5c..%5c..%5csecret')).toBeNull();
    expect(resolveAppAsset(root, 'app://quayside/%00')).toBeNull();
    expect(resolveAppAsset(root, 'app://quayside/%E0%A4%A')).toBeNull();
  });

  it('serves files with their type and the CSP, and 404s what is missing', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), '<p>hi</p>');
    const found = await serveAppAsset(dir, new Request('app://quayside/index.html'));
    expect(found.status).toBe(200);
    expect(found.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(found.headers.get('content-security-policy')).toBe(securitySettings.contentSecurityPolicy);
    expect(await found.text()).toBe('<p>hi</p>');
    expect((await serveAppAsset(dir, new Request('app://quayside/missing.js'))).status).toBe(404);
    expect((await serveAppAsset(dir, new Request('app://quayside/assets'))).status).toBe(404);
  });
});
