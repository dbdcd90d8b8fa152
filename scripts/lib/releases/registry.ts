/**
 * Questions to the npm registry that scripts ask about releases (not
 * downloads; see npm-package.ts): the newest release of a package, and whether
 * one release is published at all. Through the npm client, with a time limit,
 * so the registry the machine is configured with is the one asked.
 */
import { spawnSync } from 'node:child_process';

const REGISTRY_TIMEOUT_MS = 60_000;

/** What `npm view <spec> version --json` answered. Pure reading of the client's output. */
export type ViewAnswer =
  | { kind: 'version'; version: string }
  | { kind: 'not-found' }
  | { kind: 'failed'; reason: string };

/**
 * Reads the npm client's answer: a JSON string (one version), a JSON array (a
 * range matched several; the last is the newest), or an `E404` error object,
 * which means the release does not exist. Anything else is a failure.
 */
export function readViewAnswer(status: number | null, stdout: string, stderr: string): ViewAnswer {
  let parsed: unknown;
  try {
    parsed = stdout.trim() === '' ? undefined : JSON.parse(stdout);
  } catch {
    return { kind: 'failed', reason: `unreadable answer ${JSON.stringify(stdout.slice(0, 200))}` };
  }
  if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) && 'error' in parsed) {
    const error = (parsed as { error: { code?: unknown; summary?: unknown } }).error;
    if (error?.code === 'E404') return { kind: 'not-found' };
    return { kind: 'failed', reason: String(error?.summary ?? error?.code ?? 'unknown error') };
  }
  const version = Array.isArray(parsed) ? parsed[parsed.length - 1] : parsed;
  if (status === 0 && typeof version === 'string' && /^\d+\.\d+\.\d+$/.test(version))
    return { kind: 'version', version };
  // An exact version the registry does not have: npm exits 1 with E404 on standard error only.
  if (status !== 0 && /\bE404\b/.test(stderr) && parsed === undefined) return { kind: 'not-found' };
  return {
    kind: 'failed',
    reason: (stderr.trim().split('\n').pop() ?? '') || `exit ${status}, answer ${JSON.stringify(stdout.slice(0, 200))}`,
  };
}

function view(spec: string): ViewAnswer {
  const result = spawnSync('npm', ['view', spec, 'version', '--json'], {
    encoding: 'utf8',
    timeout: REGISTRY_TIMEOUT_MS,
  });
  if (result.error) return { kind: 'failed', reason: result.error.message };
  return readViewAnswer(result.status, result.stdout ?? '', result.stderr ?? '');
}

/** The newest release of `pkg` (its `latest` tag). Throws, naming the package, when the registry cannot say. */
export function latestVersion(pkg: string): string {
  const answer = view(pkg);
  if (answer.kind === 'version') return answer.version;
  throw new Error(
    `could not read the newest release of ${pkg} from the registry: ` +
      `${answer.kind === 'failed' ? answer.reason : 'not found'}`,
  );
}

/** Whether the registry serves `pkg@version`. Throws when it cannot say (offline, time-out). */
export function isPublished(pkg: string, version: string): boolean {
  const answer = view(`${pkg}@${version}`);
  if (answer.kind === 'failed')
    throw new Error(`could not ask the registry whether ${pkg}@${version} is published: ${answer.reason}`);
  return answer.kind === 'version' && answer.version === version;
}

/**
 * Every release the registry lists for `pkg` (`npm view <pkg> versions --json`); empty when the package does not exist.
 * Throws when the registry cannot say.
 */
export function listedVersions(pkg: string): string[] {
  const result = spawnSync('npm', ['view', pkg, 'versions', '--json'], {
    encoding: 'utf8',
    timeout: REGISTRY_TIMEOUT_MS,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.error) throw new Error(`could not list the releases of ${pkg} from the registry: ${result.error.message}`);
  const answer = readVersionsAnswer(result.status, result.stdout ?? '', result.stderr ?? '');
  if (answer.kind === 'failed')
    throw new Error(`could not list the releases of ${pkg} from the registry: ${answer.reason}`);
  return answer.kind === 'versions' ? answer.versions : [];
}

/**
 * What `npm view <pkg> versions --json` answered: a list (one release comes as a string), not found, or a failure.
 * Pure.
 */
export function readVersionsAnswer(
  status: number | null,
  stdout: string,
  stderr: string,
): { kind: 'versions'; versions: string[] } | { kind: 'not-found' } | { kind: 'failed'; reason: string } {
  let parsed: unknown;
  try {
    parsed = stdout.trim() === '' ? undefined : JSON.parse(stdout);
  } catch {
    return { kind: 'failed', reason: `unreadable answer ${JSON.stringify(stdout.slice(0, 200))}` };
  }
  if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) && 'error' in parsed) {
    const error = (parsed as { error: { code?: unknown; summary?: unknown } }).error;
    if (error?.code === 'E404') return { kind: 'not-found' };
    return { kind: 'failed', reason: String(error?.summary ?? error?.code ?? 'unknown error') };
  }
  if (status === 0 && typeof parsed === 'string') return { kind: 'versions', versions: [parsed] };
  if (status === 0 && Array.isArray(parsed) && parsed.every((v) => typeof v === 'string'))
    return { kind: 'versions', versions: parsed as string[] };
  if (status !== 0 && /\bE404\b/.test(stderr) && parsed === undefined) return { kind: 'not-found' };
  return {
    kind: 'failed',
    reason: (stderr.trim().split('\n').pop() ?? '') || `exit ${status}, answer ${JSON.stringify(stdout.slice(0, 200))}`,
  };
}
