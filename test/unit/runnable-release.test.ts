import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readPackageAnswer } from '../../scripts/lib/releases/registry.ts';
import {
  listingPackages,
  newestRelease,
  printsVersion,
  releaseEvidence,
  releaseTimes,
  runnablePackage,
  runnableVersions,
  type PackageListing,
} from '../../scripts/lib/releases/runnable-release.ts';

// Answers as `npm view <package> dist-tags.latest versions --json` prints them: a wrapper that stopped at 3.1.2
// while its platform package went on to 3.1.5 (and started later, at 3.0.1), plus a prerelease.
const answer = (latest: string, versions: string | string[]) =>
  `${JSON.stringify({ 'dist-tags.latest': latest, versions }, null, 2)}\n`;
const WRAPPER_STDOUT = answer('3.1.2', ['3.0.0', '3.0.1', '3.1.0', '3.1.1', '3.1.2', '3.2.0-beta.1']);
const PLATFORM_STDOUT = answer('3.1.5', ['3.0.1', '3.1.0', '3.1.1', '3.1.2', '3.1.3', '3.1.4', '3.1.5']);
const E404_JSON = JSON.stringify(
  { error: { code: 'E404', summary: 'Not Found', detail: 'could not be found' } },
  null,
  2,
);

function listing(pkg: string, stdout: string, status = 0, stderr = ''): PackageListing {
  const read = readPackageAnswer(status, stdout, stderr);
  if (read.kind === 'failed') throw new Error(read.reason);
  return { package: pkg, versions: read.kind === 'package' ? read.versions : [] };
}
const listings = [listing('wrapper', WRAPPER_STDOUT), listing('wrapper-linux-x64', PLATFORM_STDOUT)];

test('the registry answer: the newest release and a list, one release as a string, a missing package as an empty listing; failures are never "not listed"', () => {
  assert.deepEqual(readPackageAnswer(0, PLATFORM_STDOUT, ''), {
    kind: 'package',
    latest: '3.1.5',
    versions: ['3.0.1', '3.1.0', '3.1.1', '3.1.2', '3.1.3', '3.1.4', '3.1.5'],
  });
  assert.deepEqual(readPackageAnswer(0, answer('1.0.0', '1.0.0'), ''), {
    kind: 'package',
    latest: '1.0.0',
    versions: ['1.0.0'],
  });
  assert.equal(listing('gone', E404_JSON, 1, 'npm error code E404\n').versions.length, 0);
  assert.equal(readPackageAnswer(1, '', 'npm error code ETIMEDOUT\n').kind, 'failed');
  assert.equal(readPackageAnswer(0, answer('1.0.0', [1, 2] as unknown as string[]), '').kind, 'failed');
  assert.equal(readPackageAnswer(0, answer('latest', ['1.0.0']), '').kind, 'failed', 'a tag that is not a release');
  assert.equal(readPackageAnswer(0, '"1.0.0"\n', '').kind, 'failed', 'the answer to another question');
});

test('a release only the platform package lists is runnable, from that package; one both list comes from the wrapper', () => {
  assert.equal(runnablePackage(listings, '3.1.5'), 'wrapper-linux-x64');
  assert.equal(runnablePackage(listings, '3.1.1'), 'wrapper');
  assert.equal(runnablePackage(listings, '3.0.0'), 'wrapper');
  assert.deepEqual(listingPackages(listings, '3.1.2'), ['wrapper', 'wrapper-linux-x64']);
});

test('"not published" only when no package lists the release', () => {
  assert.equal(runnablePackage(listings, '3.1.6'), undefined);
  assert.deepEqual(releaseEvidence(listings, '3.1.6'), [
    { package: 'wrapper', lists: false },
    { package: 'wrapper-linux-x64', lists: false },
  ]);
  assert.deepEqual(releaseEvidence(listings, '3.1.4'), [
    { package: 'wrapper', lists: false },
    { package: 'wrapper-linux-x64', lists: true },
  ]);
  // The wrapper alone would say the release is missing: the rule reads every package.
  assert.equal(runnablePackage(listings.slice(0, 1), '3.1.4'), undefined);
});

test('the releases a history lists: every stable release of any package, once, in release order', () => {
  const versions = runnableVersions([listings[1]!, listings[0]!]);
  assert.deepEqual(versions, ['3.0.0', '3.0.1', '3.1.0', '3.1.1', '3.1.2', '3.1.3', '3.1.4', '3.1.5']);
});

test("the newest runnable release is the newest of the packages' newest", () => {
  assert.equal(newestRelease(['3.1.2', '3.1.5']), '3.1.5');
  assert.equal(newestRelease(['3.10.0', '3.9.9']), '3.10.0');
  assert.throws(() => newestRelease(['3.2.0-beta.1']), /no stable release/);
});

test("publication times: the wrapper's first, the platform package's where the wrapper has none", () => {
  const times = releaseTimes([
    { created: 'c', '3.1.2': 'w' },
    { '3.1.2': 'p', '3.1.5': 'p5' },
  ]);
  assert.deepEqual(times, { '3.1.2': 'w', '3.1.5': 'p5' });
});

test('--version output names the release as a whole number', () => {
  assert.equal(printsVersion('3.1.5 (Some CLI)\n', '3.1.5'), true);
  assert.equal(printsVersion('some-cli v3.1.5', '3.1.5'), true);
  assert.equal(printsVersion('3.1.50 (Some CLI)', '3.1.5'), false);
  assert.equal(printsVersion('13.1.5', '3.1.5'), false);
  assert.equal(printsVersion('3.1.5.1', '3.1.5'), false);
  assert.equal(printsVersion('3x1y5', '3.1.5'), false);
});

test('an install of the platform package alone is an install of that release, from that package', async () => {
  const { mkdtempSync, mkdirSync, writeFileSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { AGENTS } = await import('../../src/lib/agents/index.ts');
  const { installDir, installedBinary, installedPackage } = await import('../../scripts/lib/capture/install.ts');
  const agent = (Object.keys(AGENTS) as (keyof typeof AGENTS)[]).find(
    (id) => (AGENTS[id].standalonePackages ?? []).length > 0,
  )!;
  assert.ok(agent, 'some agent declares a standalone package');
  const { npmPackage, binary } = AGENTS[agent];
  const platform = AGENTS[agent].standalonePackages![0]!;
  assert.ok(binary.startsWith(`node_modules/${platform}/`), 'the standalone package holds the program');
  const root = mkdtempSync(join(tmpdir(), 'runnable-'));
  try {
    const dir = installDir(root, npmPackage, '3.1.5');
    mkdirSync(join(dir, 'node_modules', platform), { recursive: true });
    writeFileSync(
      join(dir, 'node_modules', platform, 'package.json'),
      JSON.stringify({ name: platform, version: '3.1.5' }),
    );
    writeFileSync(join(dir, binary), '');
    assert.equal(installedBinary(agent, root, npmPackage, '3.1.5'), join(dir, binary));
    assert.equal(installedPackage(agent, root, npmPackage, '3.1.5'), platform);
    // Another release in that folder is not this one.
    writeFileSync(
      join(dir, 'node_modules', platform, 'package.json'),
      JSON.stringify({ name: platform, version: '3.1.4' }),
    );
    assert.equal(installedBinary(agent, root, npmPackage, '3.1.5'), undefined);
    // The CLI's own package, where installed, is the one named.
    mkdirSync(join(dir, 'node_modules', npmPackage), { recursive: true });
    writeFileSync(
      join(dir, 'node_modules', npmPackage, 'package.json'),
      JSON.stringify({ name: npmPackage, version: '3.1.5', optionalDependencies: { [platform]: '3.1.5' } }),
    );
    assert.equal(installedPackage(agent, root, npmPackage, '3.1.5'), npmPackage);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
