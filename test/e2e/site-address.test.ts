/**
 * One site address: SITE_URL, set when the build runs, is the start of every
 * absolute URL the site writes. A build with another address must not contain
 * the default one anywhere, and its catalog, schemas, feeds and llms.txt must
 * name the new one. A malformed address stops the build, naming the variable.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { runBuild } from '../helpers/browser.ts';
import { DEFAULT_SITE_URL } from '../../src/lib/site/site-settings.ts';

const ADDRESS = 'https://tools.example.test:8443';
let out: string;
let files: string[];

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}
const read = (path: string) => readFileSync(join(out, path), 'utf8');

before(() => {
  out = mkdtempSync(join(tmpdir(), 'site-address-'));
  const result = runBuild(['--out', out], { SITE_URL: ADDRESS });
  assert.equal(result.status, 0, `build with SITE_URL failed:\n${result.stdout}\n${result.stderr}`);
  files = walk(out).map((f) => relative(out, f));
});

after(() => rmSync(out, { recursive: true, force: true }));

test('no built file names the default address', () => {
  const text = (f: string) => (/\.(html|json|js|ts|txt|xml)$/.test(f) ? readFileSync(join(out, f), 'utf8') : '');
  const naming = files.filter((f) => text(f).includes(DEFAULT_SITE_URL));
  assert.deepEqual(naming, []);
});

test('the catalog, changes.json, every schema $id, the feeds and llms.txt start with the address', () => {
  const exports = ['catalog', 'changes'];
  for (const name of exports) {
    const { $schema } = JSON.parse(read(`${name}.json`)) as { $schema: string };
    assert.equal($schema, `${ADDRESS}/${name}.schema.json`);
    assert.equal(JSON.parse(read(`${name}.schema.json`)).$id, $schema);
  }
  // Every other schema is a tool's or an agent's.
  const schemas = files.filter((f) => f.endsWith('.schema.json') && !exports.some((n) => f === `${n}.schema.json`));
  assert.ok(schemas.length > 0);
  for (const f of schemas) {
    const id = String(JSON.parse(read(f)).$id);
    assert.equal(new URL(id).origin, ADDRESS, `${f}: $id ${id}`);
    assert.equal(
      new URL(id).pathname.split('/').slice(1, 3).join('/'),
      f.split('/').slice(0, 2).join('/'),
      `${f}: $id names its own tool`,
    );
  }
  const feeds = files.filter((f) => f.endsWith('changelog.xml'));
  assert.ok(feeds.length > 0);
  for (const f of feeds) assert.ok(read(f).includes(`<id>${ADDRESS}/`), f);
  const links = [...read('llms.txt').matchAll(/\]\((https?:\/\/[^)]+)\)/g)].map((m) => m[1]!);
  assert.ok(links.length > 0);
  assert.deepEqual(
    links.filter((l) => new URL(l).origin !== ADDRESS),
    [],
  );
});

test('a malformed address stops the build, naming SITE_URL and the value', () => {
  const bad = mkdtempSync(join(tmpdir(), 'site-address-bad-'));
  try {
    const result = runBuild(['--out', bad], { SITE_URL: 'https://tools.example.test/docs/' });
    assert.notEqual(result.status, 0);
    assert.match(
      `${result.stdout}\n${result.stderr}`,
      /SITE_URL="https:\/\/tools\.example\.test\/docs\/" must be an origin only/,
    );
  } finally {
    rmSync(bad, { recursive: true, force: true });
  }
});
