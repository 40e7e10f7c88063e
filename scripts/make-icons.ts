/**
 * `npm run icons`: draws resources/icon.svg in Chromium at every size the installers need and
 * writes them next to it: icon.png (1024), icons/NxN.png (Linux), icon.ico (Windows: PNG entries
 * from 16 to 256) and icon.icns (macOS: PNG entries from 16 to 1024). The outputs are committed;
 * run this after changing the drawing.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { requireSupportedNode } from '../src/cli/node-guard';

const resources = resolve(import.meta.dirname, '../resources');
const svg = readFileSync(join(resources, 'icon.svg'), 'utf8');

async function render(sizes: number[]): Promise<Map<number, Buffer>> {
  const { chromium } = await import('@playwright/test');
  const browser = await chromium.launch({
    executablePath: process.env.QUAYSIDE_CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  const out = new Map<number, Buffer>();
  try {
    for (const size of sizes) {
      const page = await browser.newPage({ viewport: { width: size, height: size } });
      const html = `<html><body style="margin:0;background:transparent">${svg.replace('<svg ', `<svg style="display:block;width:${size}px;height:${size}px" `)}</body></html>`;
      await page.setContent(html);
      out.set(size, await page.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } }));
      await page.close();
    }
  } finally {
    await browser.close();
  }
  return out;
}

/** ICO with PNG-compressed entries (Windows Vista and later read these). */
export function ico(images: [number, Buffer][]): Buffer {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(images.length, 4);
  const entries: Buffer[] = [];
  let offset = 6 + 16 * images.length;
  for (const [size, png] of images) {
    const entry = Buffer.alloc(16);
    entry.writeUInt8(size >= 256 ? 0 : size, 0);
    entry.writeUInt8(size >= 256 ? 0 : size, 1);
    entry.writeUInt16LE(1, 4); // planes
    entry.writeUInt16LE(32, 6); // bits per pixel
    entry.writeUInt32LE(png.length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += png.length;
    entries.push(entry);
  }
  return Buffer.concat([header, ...entries, ...images.map(([, png]) => png)]);
}

/** ICNS with PNG entries, by Apple's OSType for each size. */
export const icnsTypes: Record<number, string> = {
  16: 'icp4',
  32: 'icp5',
  64: 'icp6',
  128: 'ic07',
  256: 'ic08',
  512: 'ic09',
  1024: 'ic10',
};
export function icns(images: [number, Buffer][]): Buffer {
  const chunks = images.map(([size, png]) => {
    const head = Buffer.alloc(8);
    head.write(icnsTypes[size]!, 0, 'ascii');
    head.writeUInt32BE(png.length + 8, 4);
    return Buffer.concat([head, png]);
  });
  const total = 8 + chunks.reduce((n, c) => n + c.length, 0);
  const head = Buffer.alloc(8);
  head.write('icns', 0, 'ascii');
  head.writeUInt32BE(total, 4);
  return Buffer.concat([head, ...chunks]);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  requireSupportedNode();
  const pngs = await render([16, 24, 32, 48, 64, 128, 256, 512, 1024]);
  writeFileSync(join(resources, 'icon.png'), pngs.get(1024)!);
  mkdirSync(join(resources, 'icons'), { recursive: true });
  for (const size of [16, 24, 32, 48, 64, 128, 256, 512]) {
    writeFileSync(join(resources, 'icons', `${size}x${size}.png`), pngs.get(size)!);
  }
  writeFileSync(join(resources, 'icon.ico'), ico([16, 24, 32, 48, 64, 128, 256].map((s) => [s, pngs.get(s)!])));
  writeFileSync(join(resources, 'icon.icns'), icns([16, 32, 64, 128, 256, 512, 1024].map((s) => [s, pngs.get(s)!])));
  console.log(`icons written to ${resources}`);
}
