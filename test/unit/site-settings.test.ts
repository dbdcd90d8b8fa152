import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_SITE_URL, siteUrlFrom } from '../../src/lib/site-settings.ts';

test('unset or empty: the default address, which resolves nowhere', () => {
  assert.equal(siteUrlFrom(undefined), DEFAULT_SITE_URL);
  assert.equal(siteUrlFrom('  '), DEFAULT_SITE_URL);
  assert.match(new URL(DEFAULT_SITE_URL).hostname, /\.invalid$/);
});

test('an origin, with or without its trailing slash or a port, is taken as its origin', () => {
  assert.equal(siteUrlFrom('https://tools.example.org'), 'https://tools.example.org');
  assert.equal(siteUrlFrom('https://tools.example.org/'), 'https://tools.example.org');
  assert.equal(siteUrlFrom('http://127.0.0.1:4321/'), 'http://127.0.0.1:4321');
});

test('anything else is refused, naming the variable and the value', () => {
  for (const bad of ['tools.example.org', 'ftp://tools.example.org', 'https://tools.example.org/docs/', 'https://tools.example.org/?a=1', 'https://u:p@tools.example.org']) {
    assert.throws(() => siteUrlFrom(bad), (e: Error) => e.message.startsWith(`SITE_URL=${JSON.stringify(bad)}`), bad);
  }
});
