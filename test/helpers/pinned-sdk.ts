/** The pinned Claude Agent SDK package, fetched once per machine into a cache folder. */
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fetchPackage } from '../../scripts/lib/releases/npm-package.ts';
import { ROOT } from './browser.ts';

export function pinnedSdkDir(): string {
  const pin = JSON.parse(readFileSync(join(ROOT, 'scripts/pins.json'), 'utf8'))['claude-code'] as {
    package: string;
    version: string;
  };
  const cache = join(tmpdir(), 'agent-tool-reference-cache', `${pin.package.replace('/', '+')}@${pin.version}`);
  if (!existsSync(join(cache, 'package', 'package.json'))) {
    rmSync(cache, { recursive: true, force: true });
    mkdirSync(cache, { recursive: true });
    fetchPackage(pin.package, pin.version, cache);
  }
  return join(cache, 'package');
}
