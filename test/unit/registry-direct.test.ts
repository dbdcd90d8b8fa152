import { test } from 'node:test';
import assert from 'node:assert/strict';
import { directRegistry, readNpmConfigList } from '../../scripts/lib/releases/npm-config.ts';
import { packumentUrl, readPackument } from '../../scripts/lib/releases/registry-direct.ts';

// `npm config list --long` as the client prints it: sections in order of precedence, overridden values commented out,
// unset secrets of the defaults shown as protected.
const LIST = [
  '; "default" config from default values',
  '',
  '_auth = (protected)',
  'ca = null',
  'cafile = null',
  'cert = null',
  'https-proxy = null',
  'key = null',
  'noproxy = [""]',
  'offline = false',
  'password = (protected)',
  'prefer-offline = false',
  'proxy = null',
  '; registry = "http://default.invalid/" ; overridden by env',
  'strict-ssl = true',
  'tag = "latest"',
  '',
  '; "user" config from /home/someone/.npmrc',
  '',
  '@private:registry = "http://private.invalid/npm/"',
  '//private.invalid/npm/:_authToken = (protected)',
  '',
  '; "env" config from environment',
  '',
  'registry = "http://127.0.0.1:9/"',
].join('\n');

const config = () => {
  const read = readNpmConfigList(LIST);
  assert.ok(read, 'the listing reads');
  return read;
};
const edited = (edit: Record<string, unknown>) => new Map([...config(), ...Object.entries(edit)]);

test("npm's listing: the effective value of each setting; an unreadable line means npm must be asked", () => {
  const read = config();
  assert.equal(read.get('registry'), 'http://127.0.0.1:9/', 'the env section overrides, the commented line does not');
  assert.deepEqual(read.get('noproxy'), ['']);
  assert.equal(read.has('_auth'), false, 'an unset secret of the defaults is not a credential');
  assert.equal(read.has('//private.invalid/npm/:_authToken'), true, 'a secret of a config file is');
  assert.equal(readNpmConfigList(`${LIST}\nregistry: "http://127.0.0.1:9/"`), undefined);
  assert.equal(readNpmConfigList(`${LIST}\nproxy = not json`), undefined);
  assert.equal(readNpmConfigList('{"registry": "http://127.0.0.1:9/"}'), undefined, 'JSON is not the listing');
});

test('the registry of a package: its scope’s, else the default; only when a plain request is what npm would send', () => {
  assert.deepEqual(directRegistry(config(), {}, 'plain'), { registry: 'http://127.0.0.1:9/' });
  assert.deepEqual(directRegistry(config(), {}, '@other/pkg'), { registry: 'http://127.0.0.1:9/' });
  assert.ok('notDirect' in directRegistry(config(), {}, '@private/pkg'), 'credentials for the scope’s registry');
  const noSlash = edited({ registry: 'http://127.0.0.1:9/npm' });
  assert.deepEqual(directRegistry(noSlash, {}, 'plain'), { registry: 'http://127.0.0.1:9/npm/' });
  const withCa = edited({ cafile: '/etc/some-ca.pem' });
  assert.deepEqual(directRegistry(withCa, {}, 'plain'), {
    registry: 'http://127.0.0.1:9/',
    cafile: '/etc/some-ca.pem',
  });
});

test('anything npm would send differently declines the direct request', () => {
  const declines = (settings: Record<string, unknown>, env: NodeJS.ProcessEnv = {}) =>
    assert.ok('notDirect' in directRegistry(edited(settings), env, 'plain'), JSON.stringify({ settings, env }));
  declines({ '//127.0.0.1:9/:_authToken': Symbol('protected') });
  declines({ _auth: 'test' });
  declines({ proxy: 'http://127.0.0.1:3128/' });
  declines({ 'https-proxy': 'http://127.0.0.1:3128/' });
  declines({}, { HTTPS_PROXY: 'http://127.0.0.1:3128/' });
  declines({}, { http_proxy: 'http://127.0.0.1:3128/' });
  declines({ 'strict-ssl': false });
  declines({ cert: '-----BEGIN CERTIFICATE-----' });
  declines({ offline: true });
  declines({ 'prefer-offline': true });
  declines({ tag: 'next' });
  declines({ registry: 'file:///srv/registry/' });
  declines({ registry: 'not a url' });
  // Credentials for another registry change nothing.
  assert.ok(!('notDirect' in directRegistry(edited({ '//elsewhere.invalid/:_authToken': 'x' }), {}, 'plain')));
  assert.ok(!('notDirect' in directRegistry(config(), { HTTPS_PROXY: '' }, 'plain')), 'an empty proxy variable');
});

test('the packument’s address: a scope’s slash escaped as npm sends it; a name npm would not send is none', () => {
  assert.equal(packumentUrl('http://127.0.0.1:9/', 'plain'), 'http://127.0.0.1:9/plain');
  assert.equal(packumentUrl('http://127.0.0.1:9/npm/', '@scope/pkg'), 'http://127.0.0.1:9/npm/@scope%2fpkg');
  assert.equal(packumentUrl('http://127.0.0.1:9/', '../etc'), undefined);
  assert.equal(packumentUrl('http://127.0.0.1:9/', 'a/b'), undefined);
});

const packument = (latest: unknown, versions: readonly string[], more: Record<string, unknown> = {}) =>
  JSON.stringify({ 'dist-tags': { latest }, versions: Object.fromEntries(versions.map((v) => [v, {}])), ...more });

test('a packument read as npm view reads it: releases in semver order, the latest tag', () => {
  assert.deepEqual(readPackument(packument('1.10.0', ['1.10.0', '1.9.0', '1.10.0-rc.2', '1.10.0-rc.10', '1.2.0'])), {
    latest: '1.10.0',
    versions: ['1.2.0', '1.9.0', '1.10.0-rc.2', '1.10.0-rc.10', '1.10.0'],
  });
  assert.deepEqual(readPackument(packument('0.1.0', ['0.1.0'])), { latest: '0.1.0', versions: ['0.1.0'] });
});

test('a packument npm might read otherwise is left to npm', () => {
  for (const [why, body] of [
    ['unpublished', packument('1.0.0', ['1.0.0'], { time: { unpublished: { time: '2026-01-01T00:00:00.000Z' } } })],
    ['latest not listed', packument('2.0.0', ['1.0.0'])],
    ['latest a prerelease', packument('2.0.0-rc.1', ['2.0.0-rc.1'])],
    ['no latest', packument(undefined, ['1.0.0'])],
    ['a number npm normalizes', packument('1.0.0', ['1.0.0', 'v2.0.0'])],
    ['build metadata', packument('1.0.0', ['1.0.0', '1.0.0+build.1'])],
    ['a leading zero', packument('1.0.0', ['1.0.0', '1.0.0-01'])],
    ['no versions', JSON.stringify({ 'dist-tags': { latest: '1.0.0' } })],
    ['not an object', '["1.0.0"]'],
    ['not JSON', '<html>'],
  ] as const)
    assert.equal(readPackument(body), undefined, why);
});
