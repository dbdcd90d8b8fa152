/**
 * A minimal npm registry on 127.0.0.1, at a port the system picks: the packument of
 * one package listing `versions` (each with the integrity the packument claims, by
 * default that of the bytes served) and their tarballs. Tests send the real npm
 * client to it (`npm_config_registry`), never to the internet.
 *
 * In this process (startRegistry) for a test that runs npm in a child process; as a
 * child process of its own (spawnRegistry: this file run with the path of a JSON
 * description) for a test whose code runs npm synchronously, which would block a
 * server in the same process.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';

export interface ServedVersion {
  bytes: Buffer;
  /** The integrity the packument claims (default: the sha512 of `bytes`). */
  claimedIntegrity?: string;
  /** More fields of this version's manifest in the packument (`claudeCodeVersion`, …). */
  manifest?: Record<string, unknown>;
}

export interface Registry {
  /** `http://127.0.0.1:<port>/` */
  url: string;
  /** The paths requested so far, decoded. */
  requests: string[];
  close(): Promise<void>;
}

export function sha512(bytes: Uint8Array): string {
  return `sha512-${createHash('sha512').update(bytes).digest('base64')}`;
}

export async function startRegistry(name: string, versions: Record<string, ServedVersion>): Promise<Registry> {
  return startRegistries({ [name]: versions });
}

/**
 * The same for several packages at once: each package's `latest` is its last version listed.
 * The tarball of the first package keeps the path `/tarballs/<version>.tgz`; the others are
 * served under `/tarballs/<index>/<version>.tgz`.
 */
export async function startRegistries(packages: Record<string, Record<string, ServedVersion>>): Promise<Registry> {
  const requests: string[] = [];
  const names = Object.keys(packages);
  const tarballPath = (index: number, version: string) =>
    index === 0 ? `/tarballs/${version}.tgz` : `/tarballs/${index}/${version}.tgz`;
  const server = createServer((req, res) => {
    const path = decodeURIComponent(req.url ?? '/');
    requests.push(path);
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const index = names.findIndex((name) => path === `/${name}`);
    const tarball = /^\/tarballs\/(?:(\d+)\/)?(.+)\.tgz$/.exec(path);
    const tarballOf = tarball ? packages[names[Number(tarball[1] ?? 0)] ?? '']?.[tarball[2]!] : undefined;
    if (req.method === 'GET' && index >= 0) {
      const name = names[index]!;
      const versions = packages[name]!;
      // Each version published a day after the one before, from a fixed day, as `npm view … time` reads it.
      const day = (i: number) => new Date(Date.UTC(2026, 0, 1 + i)).toISOString();
      const packument = {
        name,
        'dist-tags': { latest: Object.keys(versions).at(-1) },
        time: {
          created: day(0),
          modified: day(Object.keys(versions).length),
          ...Object.fromEntries(Object.keys(versions).map((version, i) => [version, day(i + 1)])),
        },
        versions: Object.fromEntries(
          Object.entries(versions).map(([version, v]) => [
            version,
            {
              ...v.manifest,
              name,
              version,
              dist: {
                tarball: `${base}${tarballPath(index, version)}`,
                integrity: v.claimedIntegrity ?? sha512(v.bytes),
              },
            },
          ]),
        ),
      };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(packument));
    } else if (req.method === 'GET' && tarballOf) {
      res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(tarballOf.bytes);
    } else {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Not found"}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * The registry of `startRegistry` in a child process, given a JSON file `{name, versions: {v: {file,
 * claimedIntegrity?}}}`.
 */
export async function spawnRegistry(
  description: string,
): Promise<{ url: string; child: ChildProcess; close(): Promise<void> }> {
  const child = spawn(process.execPath, [import.meta.filename, description], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`the registry process exited (${code}) before it listened`)));
    createInterface({ input: child.stdout! }).once('line', resolve);
  });
  return {
    url,
    child,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill();
      }),
  };
}

if (import.meta.main) {
  const { name, versions } = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as {
    name: string;
    versions: Record<string, { file: string; claimedIntegrity?: string }>;
  };
  const served = Object.fromEntries(
    Object.entries(versions).map(([v, { file, claimedIntegrity }]) => [
      v,
      { bytes: readFileSync(file), ...(claimedIntegrity ? { claimedIntegrity } : {}) },
    ]),
  );
  const registry = await startRegistry(name, served);
  console.log(registry.url);
  process.on('SIGTERM', () => void registry.close().then(() => process.exit(0)));
}
