import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { menuTemplate } from '../../src/main/menu';
import { createUpdater, type UpdaterOptions, type UpdateSource } from '../../src/main/updater';

// Electron's own type, as the updater takes it (only main and preload import electron).
type MessageBoxOptions = Parameters<UpdaterOptions['ask']>[0];

class FakeFeed extends EventEmitter implements UpdateSource {
  autoDownload = true;
  autoInstallOnAppQuit = true;
  allowDowngrade = true;
  channel: string | null = null;
  checks = 0;
  downloads = 0;
  installs = 0;
  constructor(private readonly latest: string | null) {
    super();
  }
  checkForUpdates() {
    this.checks++;
    queueMicrotask(() =>
      this.latest ? this.emit('update-available', { version: this.latest }) : this.emit('update-not-available', {}),
    );
    return Promise.resolve(null);
  }
  downloadUpdate() {
    this.downloads++;
    queueMicrotask(() => this.emit('update-downloaded', { version: this.latest }));
    return Promise.resolve([]);
  }
  quitAndInstall() {
    this.installs++;
  }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

function setUp(
  latest: string | null,
  answers: number[],
  opts: { demo?: boolean | (() => boolean); installed?: boolean; arch?: string } = {},
) {
  const feed = new FakeFeed(latest);
  const asked: MessageBoxOptions[] = [];
  const updater = createUpdater({
    source: feed,
    currentVersion: '1.0.0',
    installed: opts.installed ?? true,
    isDemo: () => Promise.resolve(typeof opts.demo === 'function' ? opts.demo() : (opts.demo ?? false)),
    arch: opts.arch,
    intervalMs: 20,
    ask: (options) => {
      asked.push(options);
      return Promise.resolve({ response: answers.shift() ?? 1, checkboxChecked: false });
    },
    log: vi.fn(),
  });
  return { feed, asked, updater };
}

describe('auto-update', () => {
  it('never downloads, installs or downgrades on its own', () => {
    const { feed } = setUp('1.1.0', []);
    expect(feed.autoDownload).toBe(false);
    expect(feed.autoInstallOnAppQuit).toBe(false);
    expect(feed.allowDowngrade).toBe(false);
    expect(feed.channel).toBeNull();
    // arm64 builds read their own feed, as release.yml publishes it.
    expect(setUp('1.1.0', [], { arch: 'arm64' }).feed).toMatchObject({ channel: 'arm64', allowDowngrade: false });
  });

  it('starts checking once a live account replaces the demo, and never stacks dialogs', async () => {
    let demo = true;
    const { feed, asked, updater } = setUp('1.1.0', [], { demo: () => demo });
    const stop = await updater.startBackgroundChecks();
    expect(feed.checks).toBe(0);
    demo = false;
    await vi.waitFor(() => expect(feed.checks).toBeGreaterThanOrEqual(2), { timeout: 10_000 });
    stop();
    // The first "Download?" is still open (the fake never answers before the next check).
    expect(asked.length).toBeLessThanOrEqual(feed.checks);
  });

  it('asks before downloading, and says Quayside will restart before installing', async () => {
    const { feed, asked, updater } = setUp('1.1.0', [0, 0]);
    await updater.checkNow();
    await settle();
    expect(asked[0]).toMatchObject({ message: 'Quayside 1.1.0 is available.', buttons: ['Download', 'Later'] });
    expect(feed.downloads).toBe(1);
    expect(asked[1]!.detail).toMatch(/will close and restart/);
    expect(asked[1]!.buttons).toEqual(['Restart now', 'Later']);
    expect(feed.installs).toBe(1);
  });

  it('"Later" leaves everything as it is', async () => {
    const { feed, updater } = setUp('1.1.0', [0, 1]);
    await updater.checkNow();
    await settle();
    expect(feed.downloads).toBe(1);
    expect(feed.installs).toBe(0);
    const declined = setUp('1.1.0', [1]);
    await declined.updater.checkNow();
    await settle();
    expect(declined.feed.downloads).toBe(0);
  });

  it('answers a check from the menu even when there is nothing new', async () => {
    const { asked, updater } = setUp(null, []);
    await updater.checkNow();
    await settle();
    expect(asked[0]!.message).toBe('Quayside 1.0.0 is the latest version.');
  });

  it('checks in the background for a live account, not in demo mode nor in a copy that is not installed', async () => {
    const live = setUp(null, []);
    const stop = await live.updater.startBackgroundChecks();
    await settle();
    expect(live.feed.checks).toBe(1);
    // A quiet check that finds nothing says nothing.
    expect(live.asked).toEqual([]);
    stop();

    const demo = setUp('1.1.0', [], { demo: true });
    (await demo.updater.startBackgroundChecks())();
    expect(demo.feed.checks).toBe(0);

    const unpacked = setUp('1.1.0', [], { installed: false });
    (await unpacked.updater.startBackgroundChecks())();
    expect(unpacked.feed.checks).toBe(0);
    await unpacked.updater.checkNow();
    expect(unpacked.asked[0]!.message).toMatch(/not installed/);
  });

  it('puts "Check for Updates…" in the app menu on macOS and under Help elsewhere', () => {
    const onCheck = vi.fn();
    const labels = (platform: NodeJS.Platform) =>
      menuTemplate({ platform, onCheckForUpdates: onCheck, devTools: false }).map((m) => ({
        label: m.label ?? m.role,
        items: Array.isArray(m.submenu) ? m.submenu.map((i) => i.label ?? i.role ?? i.type) : [],
      }));
    expect(labels('darwin')[0]).toMatchObject({
      label: 'Quayside',
      items: expect.arrayContaining(['Check for Updates…']),
    });
    expect(labels('win32').at(-1)).toEqual({ label: 'Help', items: ['Check for Updates…'] });
    expect(JSON.stringify(labels('linux'))).not.toContain('toggleDevTools');
  });
});
