import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

export function chromiumInstalled(): boolean {
  return existsSync(CHROMIUM);
}

/**
 * Debian's chromium, headless. The background-networking flags matter: without them chromium keeps
 * trying to reach Google's hosts, which fails on a closed network. A fresh, empty profile every launch
 * (playwright passes it as --user-data-dir).
 */
export async function launchChromium(): Promise<BrowserContext> {
  const profile = mkdtempSync(path.join(os.tmpdir(), 'assay-chromium-'));
  return chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    viewport: { width: 1400, height: 900 },
  });
}
