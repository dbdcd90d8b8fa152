/**
 * Debian's Chromium and the flags every headless run here uses: no sandbox (root), and no
 * background connections (this machine's network refuses them, many at a time).
 * Shared by the end-to-end tests and the benchmark; no browser is ever downloaded.
 */
export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
