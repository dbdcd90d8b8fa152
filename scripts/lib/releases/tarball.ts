/**
 * Reading a downloaded npm tarball without trusting it. The integrity pin covers the
 * tarball's bytes, not what they unpack to, so every entry's header is read here (in
 * Node, not by `tar`, which keeps links and device nodes) and the tarball is refused
 * whole when any entry is not a plain file or folder, or names a path outside the
 * package: absolute, with a `..` or empty segment, a backslash or a control character.
 * Only then are files written, with no link followed and every written file's real
 * path checked to lie inside the package folder.
 *
 * npm tarballs hold one top folder (usually `package/`); like `tar --strip-components=1`
 * it is dropped from every path.
 */
import { gunzipSync } from 'node:zlib';
import { lstatSync, mkdirSync, readdirSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';

/** The tarball is refused: the message names the tarball, the entry and the rule it breaks. */
export class UnsafeTarballError extends Error {
  override name = 'UnsafeTarballError';
}

export interface TarEntry {
  /** Path inside the package (top folder dropped), `/`-separated; '' for the top folder itself. */
  path: string;
  /** Path as the tarball names it. */
  raw: string;
  kind: 'file' | 'directory';
  data: Buffer;
}

const BLOCK = 512;
const TYPE_NAMES: Record<string, string> = {
  '1': 'a hard link',
  '2': 'a symbolic link',
  '3': 'a character device',
  '4': 'a block device',
  '6': 'a FIFO',
  K: 'a long link name (GNU)',
  S: 'a sparse file (GNU)',
  V: 'a volume label',
  M: 'a multi-volume continuation',
  D: 'a directory dump (GNU)',
};

function text(block: Buffer, start: number, length: number): string {
  const field = block.subarray(start, start + length);
  const end = field.indexOf(0);
  return field.subarray(0, end < 0 ? length : end).toString('utf8');
}

function octal(block: Buffer, start: number, length: number, what: string, where: string): number {
  const field = block.subarray(start, start + length);
  if (field[0]! & 0x80) {
    // GNU base-256: big-endian, the first byte's high bit marks it.
    let value = field[0]! & 0x7f;
    for (let i = 1; i < length; i++) value = value * 256 + field[i]!;
    return value;
  }
  const digits = text(block, start, length).trim();
  if (digits === '') return 0;
  if (!/^[0-7]+$/.test(digits))
    throw new UnsafeTarballError(`${where}: the ${what} field is not an octal number (${JSON.stringify(digits)})`);
  return parseInt(digits, 8);
}

/** Pax extended header records (`<length> <key>=<value>\n`). */
function paxRecords(data: Buffer, where: string): Map<string, string> {
  const records = new Map<string, string>();
  let at = 0;
  while (at < data.length) {
    if (data[at] === 0) break;
    const space = data.indexOf(0x20, at);
    const length = space < 0 ? NaN : Number(data.subarray(at, space).toString('ascii'));
    if (!Number.isInteger(length) || length <= 0 || at + length > data.length)
      throw new UnsafeTarballError(`${where}: unreadable pax header record`);
    const record = data.subarray(space + 1, at + length - 1).toString('utf8');
    const eq = record.indexOf('=');
    if (eq < 0) throw new UnsafeTarballError(`${where}: unreadable pax header record`);
    records.set(record.slice(0, eq), record.slice(eq + 1));
    at += length;
  }
  return records;
}

/**
 * The rule a path inside the package breaks, or undefined when it is safe: relative,
 * `/`-separated, no `.`/`..`/empty segment, no backslash, no control character.
 */
export function unsafePathRule(path: string): string | undefined {
  if (path.startsWith('/')) return 'an absolute path';
  if (/^[A-Za-z]:/.test(path)) return 'a drive-letter path';
  if (path.includes('\\')) return 'a backslash in the path';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(path)) return 'a control character in the path';
  const segments = path.replace(/\/$/, '').split('/');
  if (segments.some((s) => s === '..')) return 'a ".." segment in the path';
  if (segments.some((s) => s === '.' || s === '')) return 'an empty or "." segment in the path';
  return undefined;
}

/** Throws when a header's checksum (bytes 148–155 counted as spaces) is not the one it stores. */
function checkHeaderSum(header: Buffer, where: string): void {
  const stored = octal(header, 148, 8, 'checksum', where);
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : header[i]!;
  if (sum !== stored)
    throw new UnsafeTarballError(`${where}: header checksum mismatch (not a tar file, or a damaged one)`);
}

/**
 * An entry of tar type `type` at path `raw`, or UnsafeTarballError when it is not a plain file or folder inside the
 * package.
 */
function checkedEntry(type: string, raw: string, linkpath: string, data: Buffer, where: string): TarEntry {
  const kind = type === '0' || type === '\0' || type === '7' ? 'file' : type === '5' ? 'directory' : undefined;
  if (!kind) {
    const what = TYPE_NAMES[type] ?? `an entry of unknown type ${JSON.stringify(type)}`;
    throw new UnsafeTarballError(
      `${where} is ${what}${linkpath ? ` (to ${JSON.stringify(linkpath)})` : ''}; a package may hold only plain ` +
        `files and folders`,
    );
  }
  const rawRule = unsafePathRule(raw);
  if (rawRule) throw new UnsafeTarballError(`${where} has ${rawRule}; every path must stay inside the package`);
  const slash = raw.indexOf('/');
  const path = slash < 0 ? '' : raw.slice(slash + 1).replace(/\/$/, '');
  if (path === '' && kind === 'file')
    throw new UnsafeTarballError(`${where} is a file outside the package's top folder`);
  return { path, raw, kind, data };
}

/**
 * The most a tarball may inflate to: INFLATE_RATIO times its compressed size (packages of text
 * and native programs inflate 2 to 10 times; a gzip of zeros, a thousand), at least
 * MIN_INFLATE_LIMIT (small packages), at most MAX_INFLATED_BYTES. zlib stops at the limit, so
 * a bomb is refused after reading that much, not after inflating all of it.
 */
export const INFLATE_RATIO = 40;
export const MIN_INFLATE_LIMIT = 64 * 1024 * 1024;
export const MAX_INFLATED_BYTES = 1024 * 1024 * 1024;

export function inflateLimit(compressed: number): number {
  return Math.min(MAX_INFLATED_BYTES, Math.max(MIN_INFLATE_LIMIT, compressed * INFLATE_RATIO));
}

/**
 * Every entry of the gzipped tarball `bytes`, checked: throws UnsafeTarballError on the
 * first entry that is not a plain file or folder or whose path is unsafe. `label`
 * names the tarball in messages.
 */
export function readTarball(bytes: Buffer, label: string): TarEntry[] {
  let tar: Buffer;
  const limit = inflateLimit(bytes.length);
  try {
    tar = gunzipSync(bytes, { maxOutputLength: limit });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
      throw new UnsafeTarballError(
        `${label}: inflates to more than ${limit} bytes (over ${INFLATE_RATIO} times its ${bytes.length} ` +
          `compressed bytes, or over ${MAX_INFLATED_BYTES}); refused as a decompression bomb, nothing was extracted`,
      );
    }
    throw new UnsafeTarballError(`${label}: not a gzipped tarball (${(error as Error).message})`);
  }
  const entries: TarEntry[] = [];
  let at = 0;
  let longName: string | undefined;
  let pax = new Map<string, string>();
  let global = new Map<string, string>();
  while (at + BLOCK <= tar.length) {
    const header = tar.subarray(at, at + BLOCK);
    if (header.every((b) => b === 0)) break;
    const where = `${label}: entry at byte ${at}`;
    checkHeaderSum(header, where);
    const type = String.fromCharCode(header[156]!);
    const size = octal(header, 124, 12, 'size', where);
    const dataStart = at + BLOCK;
    if (dataStart + size > tar.length)
      throw new UnsafeTarballError(`${where}: the entry runs past the end of the tarball`);
    const data = tar.subarray(dataStart, dataStart + size);
    at = dataStart + Math.ceil(size / BLOCK) * BLOCK;

    if (type === 'x') {
      pax = paxRecords(data, where);
      continue;
    }
    if (type === 'g') {
      global = new Map([...global, ...paxRecords(data, where)]);
      continue;
    }
    if (type === 'L') {
      longName = text(data, 0, data.length);
      continue;
    }
    const magic = text(header, 257, 6);
    const prefix = magic.startsWith('ustar') ? text(header, 345, 155) : '';
    const name = text(header, 0, 100);
    const raw = pax.get('path') ?? global.get('path') ?? longName ?? (prefix ? `${prefix}/${name}` : name);
    const linkpath = pax.get('linkpath') ?? text(header, 157, 100);
    longName = undefined;
    pax = new Map();

    entries.push(checkedEntry(type, raw, linkpath, data, `${label}: entry ${JSON.stringify(raw)}`));
  }
  return entries;
}

/** Files whose path (inside the package) `only` accepts, as a map of path → bytes, after checking every entry. */
export function tarballFiles(
  bytes: Buffer,
  label: string,
  only: (path: string) => boolean = () => true,
): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const entry of readTarball(bytes, label))
    if (entry.kind === 'file' && only(entry.path)) files.set(entry.path, entry.data);
  return files;
}

/**
 * Writes the checked entries of the gzipped tarball `bytes` into `dir` (top folder dropped):
 * plain files (mode 0644) and folders only. Afterwards every file's real path must lie inside
 * `dir`'s real path, else UnsafeTarballError.
 */
export function extractTarball(bytes: Buffer, dir: string, label: string): void {
  const entries = readTarball(bytes, label);
  mkdirSync(dir, { recursive: true });
  for (const entry of entries) {
    const target = join(dir, ...entry.path.split('/').filter(Boolean));
    if (entry.kind === 'directory') {
      mkdirSync(target, { recursive: true });
      continue;
    }
    mkdirSync(dirname(target), { recursive: true });
    let existing: ReturnType<typeof lstatSync> | undefined;
    try {
      existing = lstatSync(target);
    } catch {
      existing = undefined;
    }
    if (existing && !existing.isFile())
      throw new UnsafeTarballError(
        `${label}: entry ${JSON.stringify(entry.raw)} would replace a folder or link of the same path`,
      );
    writeFileSync(target, entry.data, { mode: 0o644 });
  }
  assertInside(dir, label);
}

/** Every file and folder under `dir` is a plain file or folder whose real path lies inside `dir`. */
export function assertInside(dir: string, label: string): void {
  const root = realpathSync(dir);
  const walk = (d: string): void => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      const real = realpathSync(path);
      if (!real.startsWith(root + sep) || (!entry.isFile() && !entry.isDirectory())) {
        throw new UnsafeTarballError(
          `${label}: ${path.slice(root.length + 1)} is not a plain file inside the package (its real path is ${real})`,
        );
      }
      if (entry.isDirectory()) walk(path);
    }
  };
  walk(root);
}
