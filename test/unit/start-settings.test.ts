/**
 * npm start's port and address (scripts/lib/start-settings.ts): the build is for the
 * address the preview server listens at, unless SITE_URL says where it will be deployed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  DEFAULT_PREVIEW_PORT,
  previewPort,
  servedAddress,
  servingLine,
  startSiteUrl,
} from '../../scripts/lib/start-settings.ts';
import { DEFAULT_SITE_URL } from '../../src/lib/site/site-settings.ts';

test('PORT: unset or empty is the default port; 0 lets the system pick; anything else but a port is refused, naming PORT', () => {
  assert.equal(previewPort({}), DEFAULT_PREVIEW_PORT);
  assert.equal(previewPort({ PORT: ' ' }), DEFAULT_PREVIEW_PORT);
  assert.equal(previewPort({ PORT: '8080' }), 8080);
  assert.equal(previewPort({ PORT: '0' }), 0);
  for (const bad of ['-1', '65536', '80.5', 'http', '1e3', '0x50']) {
    assert.throws(
      () => previewPort({ PORT: bad }),
      (e: Error) => e.message.startsWith(`PORT=${JSON.stringify(bad)} `),
      bad,
    );
  }
});

test("the address built for is the server's own local address, never the default one, unless SITE_URL is set", () => {
  assert.equal(startSiteUrl({}, 4321), 'http://localhost:4321');
  assert.equal(startSiteUrl({ SITE_URL: '' }, 50123), 'http://localhost:50123');
  assert.notEqual(startSiteUrl({}, 4321), DEFAULT_SITE_URL);
  assert.equal(startSiteUrl({ SITE_URL: 'https://tools.example.org/' }, 4321), 'https://tools.example.org');
  assert.throws(() => startSiteUrl({ SITE_URL: 'https://tools.example.org/docs/' }, 4321), /SITE_URL=/);
  // The port is the one the server has: 0 (not yet listening) is no address.
  assert.throws(() => startSiteUrl({}, 0), /no port/);
});

test('the serving line names the address, and reads back; a build for another address says so', () => {
  const line = servingLine('/tmp/site at http://x', 'http://localhost:5000', 5000);
  assert.equal(servedAddress(line), 'http://localhost:5000/');
  const elsewhere = servingLine('/work/dist', 'https://tools.example.org', 5000);
  assert.match(elsewhere, /built for https:\/\/tools\.example\.org\//);
  assert.equal(servedAddress(elsewhere), 'http://localhost:5000/');
  assert.equal(servedAddress('start: building /work/dist for http://localhost:5000/'), undefined);
});
