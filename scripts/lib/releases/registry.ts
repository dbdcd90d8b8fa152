/**
 * Questions to the npm registry that scripts ask about releases (not
 * downloads; see npm-package.ts): the newest release of a package, and whether
 * one release is published at all. The registry the npm client is configured
 * with is the one asked, with a time limit: straight (registry-direct.ts) where
 * npm's configuration allows a plain request, else through the client.
 */
import { execFile, spawnSync } from 'node:child_process';
import { askDirectly } from './registry-direct.ts';

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
  const read = readNpmJson(status, stdout, stderr);
  if (read.kind !== 'json') return read;
  const { parsed } = read;
  const version = Array.isArray(parsed) ? parsed[parsed.length - 1] : parsed;
  if (status === 0 && typeof version === 'string' && /^\d+\.\d+\.\d+$/.test(version))
    return { kind: 'version', version };
  return unexpected(status, stdout, stderr);
}

/**
 * The npm client's JSON answer, or what its failure means: an `E404` error object (or, for an exact version the
 * registry does not have, exit 1 with E404 on standard error only) means not found; other errors and unreadable output
 * are failures.
 */
function readNpmJson(
  status: number | null,
  stdout: string,
  stderr: string,
): { kind: 'json'; parsed: unknown } | { kind: 'not-found' } | { kind: 'failed'; reason: string } {
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
  if (status !== 0 && /\bE404\b/.test(stderr) && parsed === undefined) return { kind: 'not-found' };
  return { kind: 'json', parsed };
}

/** An answer of a shape the question does not expect: the client's last line of error, or what it printed. */
const unexpected = (status: number | null, stdout: string, stderr: string) => ({
  kind: 'failed' as const,
  reason: (stderr.trim().split('\n').pop() ?? '') || `exit ${status}, answer ${JSON.stringify(stdout.slice(0, 200))}`,
});

function view(spec: string): ViewAnswer {
  const result = spawnSync('npm', ['view', spec, 'version', '--json'], {
    encoding: 'utf8',
    timeout: REGISTRY_TIMEOUT_MS,
  });
  if (result.error) return { kind: 'failed', reason: result.error.message };
  return readViewAnswer(result.status, result.stdout ?? '', result.stderr ?? '');
}

/**
 * What `npm view <pkg> dist-tags.latest versions --json` answered: the package's newest release and every release it
 * lists (one release comes as a string), not found, or a failure. Pure reading of the client's output.
 */
export type PackageAnswer =
  | { kind: 'package'; latest: string; versions: string[] }
  | { kind: 'not-found' }
  | { kind: 'failed'; reason: string };

export function readPackageAnswer(status: number | null, stdout: string, stderr: string): PackageAnswer {
  const read = readNpmJson(status, stdout, stderr);
  if (read.kind !== 'json') return read;
  const { parsed } = read;
  if (status === 0 && typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
    const { 'dist-tags.latest': latest, versions } = parsed as Record<string, unknown>;
    const listed = typeof versions === 'string' ? [versions] : versions;
    if (
      typeof latest === 'string' &&
      /^\d+\.\d+\.\d+$/.test(latest) &&
      Array.isArray(listed) &&
      listed.every((v) => typeof v === 'string')
    )
      return { kind: 'package', latest, versions: listed as string[] };
  }
  return unexpected(status, stdout, stderr);
}

/**
 * One question per package and run: the newest release and the listing come in one answer (each `npm view` costs a
 * start of the npm client, and a refresh's plan asks about every package). Failures are not kept: a later call asks
 * again.
 */
const answers = new Map<string, PackageAnswer>();

const PACKAGE_QUESTION = (pkg: string) => ['view', pkg, 'dist-tags.latest', 'versions', '--json'];
const PACKAGE_ANSWER_LIMITS = { encoding: 'utf8', timeout: REGISTRY_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024 } as const;

/** `npm view`'s answer about `pkg`, or undefined when the client could not run to an answer (a kill, a time-out). */
function askNpm(pkg: string, env: NodeJS.ProcessEnv): Promise<PackageAnswer | undefined> {
  return new Promise((resolve) => {
    execFile('npm', PACKAGE_QUESTION(pkg), { ...PACKAGE_ANSWER_LIMITS, env }, (error, stdout, stderr) => {
      const status = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
      const answer = readPackageAnswer(status, stdout, stderr);
      resolve(error === null || typeof error.code === 'number' ? answer : undefined);
    });
  });
}

/**
 * The answer about `pkg`: straight from the registry npm's configuration names (registry-direct.ts: one request, no
 * client to start) when it gives a plain answer, else from `npm view`, which also says in its words what went wrong.
 * Undefined when npm could not run to an answer.
 */
export async function packageAnswer(
  pkg: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<PackageAnswer | undefined> {
  return (await askDirectly(pkg, env)) ?? (await askNpm(pkg, env));
}

/**
 * Asks about several packages at once, a few at a time, keeping the answers for the calls below: a refresh's plan
 * asks about every package. Failures are not kept, so the call that needs the answer asks again and says why it could
 * not. With `npm: false` only the direct questions are asked (a script that reads the answers later, synchronously,
 * and whose failures are to be told then): a question the direct path declines is left to that call.
 */
export async function askPackages(
  pkgs: readonly string[],
  options: { atOnce?: number; npm?: boolean } = {},
): Promise<void> {
  const queue = [...new Set(pkgs)].filter((pkg) => !answers.has(pkg));
  const ask = async (pkg: string) => {
    const answer = options.npm === false ? await askDirectly(pkg) : await packageAnswer(pkg);
    if (answer && answer.kind !== 'failed') answers.set(pkg, answer);
  };
  const lane = async () => {
    for (let pkg = queue.shift(); pkg !== undefined; pkg = queue.shift()) await ask(pkg);
  };
  await Promise.all(Array.from({ length: Math.min(options.atOnce ?? 4, queue.length) }, lane));
}

function askPackage(pkg: string): PackageAnswer {
  const known = answers.get(pkg);
  if (known) return known;
  const result = spawnSync('npm', PACKAGE_QUESTION(pkg), PACKAGE_ANSWER_LIMITS);
  const answer: PackageAnswer = result.error
    ? { kind: 'failed', reason: result.error.message }
    : readPackageAnswer(result.status, result.stdout ?? '', result.stderr ?? '');
  if (answer.kind !== 'failed') answers.set(pkg, answer);
  return answer;
}

/** The newest release of `pkg` (its `latest` tag). Throws, naming the package, when the registry cannot say. */
export function latestVersion(pkg: string): string {
  const answer = askPackage(pkg);
  if (answer.kind === 'package') return answer.latest;
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
 * Every release the registry lists for `pkg`; empty when the package does not exist. Throws when the registry cannot
 * say.
 */
export function listedVersions(pkg: string): string[] {
  const answer = askPackage(pkg);
  if (answer.kind === 'failed')
    throw new Error(`could not list the releases of ${pkg} from the registry: ${answer.reason}`);
  return answer.kind === 'package' ? answer.versions : [];
}
