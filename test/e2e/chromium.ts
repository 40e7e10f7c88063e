/** Debian's Chromium (or QUAYSIDE_CHROMIUM), never a downloaded browser, started quietly and headless. */
export const chromiumPath = process.env.QUAYSIDE_CHROMIUM ?? '/usr/bin/chromium';
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
