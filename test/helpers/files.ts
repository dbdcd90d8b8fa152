/**
 * File helpers the build tests share: edit a JSON file in place, and snapshot a folder to compare it before and after.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

export function editJson(path: string, edit: (data: any) => void): void {
  const data = JSON.parse(readFileSync(path, 'utf8'));
  edit(data);
  writeFileSync(path, JSON.stringify(data, null, 2));
}

/** Every file under `dir` with its bytes: to compare a folder before and after. */
export function snapshot(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, e.name);
      if (e.isDirectory()) walk(path);
      else files.set(relative(dir, path), readFileSync(path, 'base64'));
    }
  };
  walk(dir);
  return files;
}
