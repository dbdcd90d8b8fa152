import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_SITE_URL, siteUrlFrom } from '../../src/lib/site/site-settings.ts';

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
  for (const bad of [
    'tools.example.org',
    'ftp://tools.example.org',
    'https://tools.example.org/docs/',
    'https://tools.example.org/?a=1',
  ]) {
    assert.throws(
      () => siteUrlFrom(bad),
      (e: Error) => e.message.startsWith(`SITE_URL=${JSON.stringify(bad)}`),
      bad,
    );
  }
});

test('a host with characters that would need escaping in HTML, XML, JSON or Markdown is refused, naming the host', () => {
  // The WHATWG URL parser (the reference) accepts these hosts as they are.
  for (const host of ['a"b.example', "a'b.example", 'a`b.example', 'a{b}.example']) {
    const value = `https://${host}`;
    assert.ok(new URL(value).hostname.length > 0, `the URL parser takes ${value}`);
    assert.throws(
      () => siteUrlFrom(value),
      (e: Error) =>
        e.message.startsWith(`SITE_URL=${JSON.stringify(value)} has the host `) &&
        /letters, digits and '-'/.test(e.message),
      value,
    );
  }
  assert.equal(siteUrlFrom('http://[::1]:4321'), 'http://[::1]:4321');
  assert.equal(siteUrlFrom('https://xn--bcher-kva.example'), 'https://xn--bcher-kva.example');
});

test('a user name or password is refused and never echoed', () => {
  for (const value of [
    'https://alice:s3cr3t-PW@tools.example.org',
    'https://s3cr3t-PW@tools.example.org/docs/',
    'https://alice:s3cr3t-PW@tools example.org',
  ]) {
    assert.throws(
      () => siteUrlFrom(value),
      (e: Error) =>
        !e.message.includes('s3cr3t-PW') &&
        !e.message.includes('alice') &&
        e.message.startsWith('SITE_URL="https://***@'),
      value,
    );
  }
});
