/**
 * Preloaded (`node --import`) into a build in tests: every file write whose
 * path contains FAIL_WRITES_MATCHING fails with ENOSPC, as on a full disk. It
 * makes a build fail half-way through writing pages, which content validation
 * can never cause, to show that the previous site survives such a failure.
 */
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';

const match = process.env.FAIL_WRITES_MATCHING;
if (match) {
  const full = (path: unknown): never => {
    throw Object.assign(new Error(`ENOSPC: no space left on device, write '${String(path)}'`), { code: 'ENOSPC' });
  };
  const hit = (path: unknown): boolean => String(path instanceof URL ? path.pathname : path).includes(match);
  const { writeFile } = fs.promises;
  fs.promises.writeFile = ((path: Parameters<typeof writeFile>[0], ...rest: unknown[]) =>
    hit(path)
      ? Promise.reject(full(path))
      : (writeFile as (...a: unknown[]) => Promise<void>)(path, ...rest)) as typeof writeFile;
  const { writeFileSync } = fs;
  fs.writeFileSync = ((path: Parameters<typeof writeFileSync>[0], ...rest: unknown[]) =>
    hit(path) ? full(path) : (writeFileSync as (...a: unknown[]) => void)(path, ...rest)) as typeof writeFileSync;
  syncBuiltinESMExports();
}
