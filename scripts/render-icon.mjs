#!/usr/bin/env node
// Renders media/icon.svg to media/icon.png (128×128, transparent corners) with Debian Chromium.
// Run by hand after editing the SVG: node scripts/render-icon.mjs
import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';

const svg = readFileSync(new URL('../media/icon.svg', import.meta.url), 'utf8');
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'], timeout: 60_000 });
try {
  const page = await browser.newPage({ viewport: { width: 128, height: 128 } });
  await page.setContent(`<html><body style="margin:0;background:transparent">${svg}</body></html>`);
  await page.locator('svg').screenshot({ path: new URL('../media/icon.png', import.meta.url).pathname, omitBackground: true });
} finally {
  await browser.close();
}
