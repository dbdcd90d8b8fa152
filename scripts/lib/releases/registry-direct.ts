/**
 * Asking the registry about a package without starting the npm client: one HTTP request for its packument, to the
 * registry npm's configuration names (npm-config.ts), with a time limit. Only a plain answer is taken: 200 with a
 * packument whose every release number is one npm reads the same way, or 404 (not found, as `npm view` says E404).
 * Anything else — another status, a network error, a time-out, an odd packument, a configuration npm would send
 * differently (credentials, a proxy) — is undefined: the caller asks `npm view`, which then says what is wrong in its
 * own words.
 */
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { compareVersions } from '../../../src/lib/core/version-order.ts';
import { type DirectRegistry, directRegistry, npmConfig } from './npm-config.ts';

/** The packument's `dist-tags` and `versions`, in the form npm answers a registry that asks for less. */
export const ABBREVIATED = 'application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8, */*';
/** The whole packument (`time` is only in it). */
export const FULL = 'application/json';

const DIRECT_TIMEOUT_MS = 15_000;
const MAX_BYTES = 64 * 1024 * 1024;

/** A package name npm's registry serves at one path segment (a scope's slash escaped). */
const PACKAGE_NAME = /^(?:@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/;

/** Where the registry serves the packument of `pkg`, as npm asks for it; undefined for a name npm would not send so. */
export function packumentUrl(registry: string, pkg: string): string | undefined {
  return PACKAGE_NAME.test(pkg) ? `${registry}${pkg.replace('/', '%2f')}` : undefined;
}

/** A release number `npm view` keeps and orders as compareVersions does: semver's, without build metadata. */
const NUMERIC = '(?:0|[1-9][0-9]{0,14})';
const IDENTIFIER = `(?:${NUMERIC}|[0-9]*[A-Za-z-][0-9A-Za-z-]*)`;
const STRICT_VERSION = new RegExp(`^${NUMERIC}\\.${NUMERIC}\\.${NUMERIC}(?:-${IDENTIFIER}(?:\\.${IDENTIFIER})*)?$`);

/** A packument read as JSON, or undefined when it is not an object. */
function packumentObject(body: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(body);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What a packument says, as `npm view` would say it: every release number sorted (npm's order), the `latest` tag.
 * Undefined for anything `npm view` might read otherwise (an unpublished package, a release number npm would drop or
 * order differently, a `latest` it does not list, no plain `x.y.z` latest): the caller then asks npm. Pure.
 */
export function readPackument(body: string): { latest: string; versions: string[] } | undefined {
  const doc = packumentObject(body);
  if (!doc) return undefined;
  const { 'dist-tags': tags, versions, time } = doc;
  if (typeof time === 'object' && time !== null && 'unpublished' in time) return undefined;
  if (typeof versions !== 'object' || versions === null || Array.isArray(versions)) return undefined;
  if (typeof tags !== 'object' || tags === null) return undefined;
  const latest = (tags as Record<string, unknown>)['latest'];
  const listed = Object.keys(versions);
  if (typeof latest !== 'string' || !/^\d+\.\d+\.\d+$/.test(latest) || !listed.includes(latest)) return undefined;
  if (!listed.every((v) => v.length <= 256 && STRICT_VERSION.test(v))) return undefined;
  return { latest, versions: listed.sort(compareVersions) };
}

/** A registry's answer: its status and body. */
export interface HttpAnswer {
  status: number;
  body: string;
}

/**
 * One GET of `url`, without redirects; undefined on a network error, at the time limit or for a body over the size
 * limit.
 */
export function getText(
  url: string,
  options: { accept: string; cafile?: string; timeoutMs?: number },
): Promise<HttpAnswer | undefined> {
  return new Promise((resolve) => {
    let ca: Buffer | undefined;
    try {
      ca = options.cafile ? readFileSync(options.cafile) : undefined;
    } catch {
      return resolve(undefined);
    }
    const request = url.startsWith('https:') ? httpsRequest : httpRequest;
    const signal = AbortSignal.timeout(options.timeoutMs ?? DIRECT_TIMEOUT_MS);
    const req = request(url, { headers: { accept: options.accept }, signal, ...(ca ? { ca } : {}) }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_BYTES) req.destroy();
        else chunks.push(chunk);
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      // Cut off (the limit, the time): no end, an error or only the close. Once ended, these change nothing.
      res.on('error', () => resolve(undefined));
      res.on('close', () => resolve(undefined));
    });
    req.on('error', () => resolve(undefined));
    req.end();
  });
}

/** Where to ask about `pkg` directly, given npm's configuration in `env`; undefined when npm must be asked. */
export async function directSource(
  pkg: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<(DirectRegistry & { url: string }) | undefined> {
  const config = await npmConfig(env);
  if (!config) return undefined;
  const registry = directRegistry(config, env, pkg);
  if ('notDirect' in registry) return undefined;
  const url = packumentUrl(registry.registry, pkg);
  return url ? { ...registry, url } : undefined;
}

/**
 * The newest release of `pkg` and every release it lists, or not found, straight from the registry; undefined when
 * the answer must come from `npm view` (see the module's comment).
 */
export async function askDirectly(
  pkg: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ kind: 'package'; latest: string; versions: string[] } | { kind: 'not-found' } | undefined> {
  const source = await directSource(pkg, env);
  if (!source) return undefined;
  const answer = await getText(source.url, {
    accept: ABBREVIATED,
    ...(source.cafile ? { cafile: source.cafile } : {}),
  });
  if (answer?.status === 404) return { kind: 'not-found' };
  if (answer?.status !== 200) return undefined;
  const read = readPackument(answer.body);
  return read ? { kind: 'package', ...read } : undefined;
}
