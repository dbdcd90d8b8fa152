/**
 * Questions about a package asked straight of the registry (registry-direct.ts) get the answers `npm view` gives, and
 * where the direct path declines (a release number npm reads its own way, credentials for the registry) the answer
 * comes from `npm view` itself. The reference is the npm client asked the same question of the same registry on
 * 127.0.0.1 (test/helpers/npm-registry.ts).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Registry, startRegistries } from '../helpers/npm-registry.ts';
import { askDirectly } from '../../scripts/lib/releases/registry-direct.ts';
import {
  askPackages,
  listedVersions,
  type PackageAnswer,
  packageAnswer,
  readPackageAnswer,
} from '../../scripts/lib/releases/registry.ts';

const none = { bytes: Buffer.alloc(0) };
const releases = (...versions: string[]) => Object.fromEntries(versions.map((v) => [v, none]));
/** Served packages: listed out of order (npm sorts them), scoped, one release, and one npm reads its own way. */
const SERVED = {
  '@scratch/listed': releases('1.10.0', '1.2.0', '1.9.0-beta.1', '1.9.0'),
  'one-release': releases('0.1.0'),
  'odd-numbers': releases('v2.0.0', '1.0.0'),
};
const MISSING = 'not-served';

let registry: Registry;
let scratch: string;
let env: NodeJS.ProcessEnv;

before(async () => {
  registry = await startRegistries(SERVED);
  scratch = mkdtempSync(join(tmpdir(), 'registry-direct-'));
  env = {
    ...process.env,
    npm_config_registry: registry.url,
    npm_config_cache: join(scratch, 'npm-cache'),
    npm_config_userconfig: join(scratch, 'no-npmrc'),
    npm_config_fetch_retries: '0',
    NO_PROXY: '127.0.0.1',
    no_proxy: '127.0.0.1',
  };
  for (const proxy of ['HTTP_PROXY', 'HTTPS_PROXY', 'http_proxy', 'https_proxy']) delete env[proxy];
});
after(async () => {
  await registry.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** What the npm client answers, read as registry.ts reads it. */
function npmAnswer(pkg: string, withEnv: NodeJS.ProcessEnv): Promise<PackageAnswer> {
  return new Promise((resolve) =>
    execFile(
      'npm',
      ['view', pkg, 'dist-tags.latest', 'versions', '--json'],
      { encoding: 'utf8', env: withEnv },
      (error, stdout, stderr) =>
        resolve(
          readPackageAnswer(error === null ? 0 : typeof error.code === 'number' ? error.code : null, stdout, stderr),
        ),
    ),
  );
}

/** The requests the registry received while `ask` ran. */
async function requestsDuring<T>(ask: () => Promise<T>): Promise<{ answer: T; requests: string[] }> {
  const from = registry.requests.length;
  const answer = await ask();
  return { answer, requests: registry.requests.slice(from) };
}

test('a plain packument, scoped or not, and a missing package: the direct answer is npm view’s, in one request', async () => {
  for (const pkg of ['@scratch/listed', 'one-release', MISSING]) {
    const reference = await npmAnswer(pkg, env);
    assert.notEqual(reference.kind, 'failed', `npm answers about ${pkg}: ${JSON.stringify(reference)}`);
    const { answer, requests } = await requestsDuring(() => askDirectly(pkg, env));
    assert.deepEqual(answer, reference, pkg);
    assert.deepEqual(requests, [`/${pkg}`], `${pkg}: one request, the npm client not started`);
    assert.deepEqual(await packageAnswer(pkg, env), reference);
  }
});

test('a release number npm reads its own way: the direct path declines and the answer is npm view’s', async () => {
  const reference = await npmAnswer('odd-numbers', env);
  assert.equal(reference.kind, 'package', JSON.stringify(reference));
  assert.equal(await askDirectly('odd-numbers', env), undefined);
  assert.deepEqual(await packageAnswer('odd-numbers', env), reference);
});

test('credentials for the registry in npm’s configuration: nothing is asked directly, npm answers', async () => {
  const npmrc = join(scratch, 'with-token');
  writeFileSync(npmrc, `//${new URL(registry.url).host}/:_authToken=test-token\n`);
  const withToken = { ...env, npm_config_userconfig: npmrc };
  const { answer, requests } = await requestsDuring(() => askDirectly('@scratch/listed', withToken));
  assert.equal(answer, undefined);
  assert.deepEqual(requests, [], 'no request went out without the token npm would send');
  assert.deepEqual(await packageAnswer('@scratch/listed', withToken), await npmAnswer('@scratch/listed', env));
});

test('asked ahead without npm, the direct answers are kept for the calls that read them; a declined one is asked of npm there', async () => {
  // The functions that keep answers read npm's configuration from this process's environment.
  for (const key of Object.keys(process.env)) if (!(key in env)) delete process.env[key]; // the proxy variables
  Object.assign(process.env, env);
  const versionsOf = (answer: PackageAnswer) => (answer.kind === 'package' ? answer.versions : []);
  const reference = new Map<string, string[]>();
  for (const pkg of ['@scratch/listed', 'odd-numbers', MISSING])
    reference.set(pkg, versionsOf(await npmAnswer(pkg, env)));
  const ahead = await requestsDuring(() => askPackages(['@scratch/listed', 'odd-numbers', MISSING], { npm: false }));
  assert.deepEqual(ahead.requests.sort(), ['/@scratch/listed', `/${MISSING}`, '/odd-numbers'].sort());
  for (const pkg of ['@scratch/listed', MISSING]) {
    const { answer, requests } = await requestsDuring(async () => listedVersions(pkg));
    assert.deepEqual(answer, reference.get(pkg), pkg);
    assert.deepEqual(requests, [], `${pkg}: the kept answer, nothing asked again`);
  }
  // The declined one would be asked of npm by listedVersions, synchronously, which the registry in this process could
  // not answer while it blocks; that it was not kept shows in askPackages asking it again.
  const again = await requestsDuring(() => askPackages(['@scratch/listed', 'odd-numbers', MISSING], { npm: false }));
  assert.deepEqual(again.requests, ['/odd-numbers'], 'only the declined question is asked again');
});
