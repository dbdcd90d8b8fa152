/**
 * The exports resolve where the site is served. `npm start` (scripts/start.ts) is run as
 * it runs, into a temporary folder and on a port the system picks (PORT=0); then every
 * link of llms.txt and llms-full.txt, every schema's `$id`, every `$ref` and every `$schema`
 * that names the site, in every schema the build wrote (and catalog.json's `$schema`),
 * must get an HTTP 200 from that server, and a `$ref` with a fragment must name a member
 * of the file it reaches. The server's answer is the reference, not the code that wrote
 * the links; the process group started here is ended by the test whatever happens.
 *
 * The same build is the check of one site address: SITE_URL (here the server's own address) is the start of every
 * absolute URL the site writes, so no built file may name the default address, and the catalog, changes.json, the
 * schemas, the feeds and llms.txt name the served one. A malformed address stops the build, naming the variable.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { ROOT, runBuild } from '../helpers/browser.ts';
import { servedAddress } from '../../scripts/lib/start-settings.ts';
import { DEFAULT_SITE_URL } from '../../src/lib/site/site-settings.ts';

let out: string;
let server: ChildProcess | undefined;
let base: string;
let origin: string;
let output = '';

/** The served address from start's output, once the build is in place; rejects if it ends first. */
function servedBase(child: ChildProcess, ms: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`npm start served nothing within ${ms / 1000} s:\n${output.slice(-4000)}`)),
      ms,
    );
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => {
      output = (output + chunk).slice(-200_000);
      for (const line of output.split('\n')) {
        const address = servedAddress(line.replace(/\x1b\[[0-9;]*m/g, ''));
        if (address) {
          clearTimeout(timer);
          resolve(address);
        }
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`npm start ended (${code ?? signal}) before it served the build:\n${output.slice(-4000)}`));
    });
  });
}

/** Ends the process group started here: SIGTERM, then SIGKILL if it is still there after a while. */
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const ended = new Promise((resolve) => child.once('exit', resolve));
  const signal = (s: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, s);
    } catch {
      // the group has ended
    }
  };
  signal('SIGTERM');
  if (await Promise.race([ended.then(() => true), new Promise((r) => setTimeout(() => r(false), 10_000))])) return;
  signal('SIGKILL');
  await ended;
}

before(async () => {
  out = mkdtempSync(join(tmpdir(), 'served-exports-'));
  const { NODE_TEST_CONTEXT: _context, SITE_URL: _site, ...env } = process.env;
  server = spawn(process.execPath, [join(ROOT, 'scripts/start.ts'), '--out', out], {
    cwd: ROOT,
    env: { ...env, PORT: '0', ASTRO_TELEMETRY_DISABLED: '1' },
    stdio: ['pipe', 'pipe', 'inherit'],
    detached: true,
  });
  base = await servedBase(server, 400_000);
  origin = new URL(base).origin;
});

after(async () => {
  if (server) await stop(server);
  if (out) rmSync(out, { recursive: true, force: true });
});

interface Answer {
  status: number;
  body: string;
}
const answers = new Map<string, Promise<Answer>>();
/** The server's answer for a URL without its fragment, asked once. */
function get(url: string): Promise<Answer> {
  const key = url.replace(/#.*$/, '');
  let answer = answers.get(key);
  if (!answer) {
    answer = fetch(key, { signal: AbortSignal.timeout(30_000) }).then(async (res) => ({
      status: res.status,
      body: await res.text(),
    }));
    answers.set(key, answer);
  }
  return answer;
}

/** Runs `check` over `items`, eight at a time. */
async function inBatches<T>(items: readonly T[], check: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += 8) await Promise.all(items.slice(i, i + 8).map(check));
}

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

/**
 * The links of an llms.txt file, as exports.test.ts reads them: outside code spans, in link syntax, alone on a line, or
 * after "JSON Schema: ".
 */
function llmsLinks(text: string): string[] {
  const prose = text.replace(/`[^`\n]*`/g, '``');
  return [
    ...prose.matchAll(/\]\(([^)\s]+)\)/g),
    ...prose.matchAll(/^(https?:\/\/\S+)$/gm),
    ...prose.matchAll(/JSON Schema: (\S+)$/gm),
  ].map((m) => m[1]!);
}

/**
 * What names another document in a schema: `$id`, `$schema` and `$ref` (strings), each with the base it resolves
 * against. Values (`const`, `enum`, `default`, `examples`) are data, not schema.
 */
function references(
  node: unknown,
  base: string,
  found: { keyword: '$id' | '$schema' | '$ref'; value: string; base: string }[] = [],
) {
  if (Array.isArray(node)) for (const item of node) references(item, base, found);
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return found;
  const schema = node as Record<string, unknown>;
  const here = typeof schema['$id'] === 'string' ? new URL(schema['$id'], base).href : base;
  for (const keyword of ['$id', '$schema', '$ref'] as const) {
    const value = schema[keyword];
    if (typeof value === 'string') found.push({ keyword, value, base: keyword === '$id' ? base : here });
  }
  for (const [key, value] of Object.entries(schema))
    if (!['const', 'enum', 'default', 'examples'].includes(key)) references(value, here, found);
  return found;
}

/** The member a fragment names (a JSON pointer, or an `$anchor`), or undefined. */
function member(document: unknown, fragment: string): unknown {
  const name = decodeURIComponent(fragment);
  if (name === '') return document;
  if (!name.startsWith('/')) {
    const anchored = (node: unknown): unknown => {
      if (typeof node !== 'object' || node === null) return undefined;
      if ((node as Record<string, unknown>)['$anchor'] === name) return node;
      for (const value of Object.values(node)) {
        const hit = anchored(value);
        if (hit !== undefined) return hit;
      }
      return undefined;
    };
    return anchored(document);
  }
  let at: unknown = document;
  for (const step of name
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))) {
    if (typeof at !== 'object' || at === null || !Object.hasOwn(at, step)) return undefined;
    at = (at as Record<string, unknown>)[step];
  }
  return at;
}

test('npm start serves the build at the address it was built for, not the default one', async () => {
  assert.notEqual(origin, DEFAULT_SITE_URL);
  const home = await get(base);
  assert.equal(home.status, 200, base);
  const llms = await get(`${base}llms.txt`);
  assert.equal(llms.status, 200);
  assert.ok(!llms.body.includes(DEFAULT_SITE_URL), 'llms.txt names the default address');
});

test('every link of llms.txt and llms-full.txt is on the served site and answers 200', async (t) => {
  for (const file of ['llms.txt', 'llms-full.txt']) {
    const { status, body } = await get(`${base}${file}`);
    assert.equal(status, 200, file);
    const links = [...new Set(llmsLinks(body))];
    assert.ok(links.length > 10, `${file}: ${links.length} links`);
    assert.deepEqual(
      links.filter((l) => new URL(l).origin !== origin),
      [],
      `${file}: links off the served site`,
    );
    const broken: string[] = [];
    await inBatches(links, async (link) => {
      const { status: code } = await get(link);
      if (code !== 200) broken.push(`${link}: ${code}`);
    });
    assert.deepEqual(broken, [], `${file}: links the server does not answer with 200`);
    t.diagnostic(`${file}: ${links.length} distinct links, each answered 200`);
  }
});

test('every $id, and every $ref and $schema that names the site, in every schema the build wrote, resolves on the served site', async (t) => {
  const schemas = files(out)
    .map((f) => relative(out, f).split('\\').join('/'))
    .filter((p) => p.endsWith('.schema.json') && !p.startsWith('_astro/'));
  assert.ok(schemas.length > 100, `${schemas.length} schema files`);
  const problems: string[] = [];
  const counts = { $id: 0, $schema: 0, $ref: 0, inFile: 0, elsewhere: 0 };
  const check = async (path: string) => {
    const url = new URL(path, base).href;
    const { status, body } = await get(url);
    if (status !== 200) return void problems.push(`${url}: ${status}`);
    const document = JSON.parse(body) as Record<string, unknown>;
    if (typeof document['$id'] !== 'string' || new URL(document['$id']).origin !== origin)
      problems.push(`${path}: $id ${String(document['$id'])} is not on the served site`);
    for (const { keyword, value, base: against } of references(document, url)) {
      const target = new URL(value, against);
      if (target.origin !== origin) {
        // Only the JSON Schema meta-schemas and upstream's own references may lie elsewhere; never a site address.
        if (target.href.startsWith(DEFAULT_SITE_URL) || /^(localhost|127\.0\.0\.1|\[::1\])$/.test(target.hostname))
          problems.push(`${path}: ${keyword} ${value} names a site address that is not this one`);
        counts.elsewhere++;
        continue;
      }
      counts[keyword]++;
      const reached = await get(target.href);
      if (reached.status !== 200) {
        problems.push(`${path}: ${keyword} ${value} → ${target.href}: ${reached.status}`);
        continue;
      }
      if (keyword === '$ref') {
        if (
          target.href.replace(/#.*$/, '') === url.replace(/#.*$/, '') ||
          target.href.startsWith(`${String(document['$id'])}#`)
        )
          counts.inFile++;
        if (member(JSON.parse(reached.body), target.hash.replace(/^#/, '')) === undefined)
          problems.push(`${path}: $ref ${value} → ${target.href} names no member of that file`);
      }
      if (
        keyword === '$id' &&
        value === document['$id'] &&
        (JSON.parse(reached.body) as { $id?: unknown }).$id !== value
      )
        problems.push(`${path}: the file at its $id ${value} has another $id`);
    }
  };
  await inBatches(schemas, check);
  const catalog = await get(`${base}catalog.json`);
  assert.equal(catalog.status, 200);
  const catalogSchema = String((JSON.parse(catalog.body) as { $schema: unknown }).$schema);
  assert.equal(new URL(catalogSchema).origin, origin, 'catalog.json names its schema on the served site');
  assert.equal((await get(catalogSchema)).status, 200, `catalog.json's $schema ${catalogSchema}`);
  assert.deepEqual(problems, []);
  // Not vacuous: the schemas refer to each other across files, not only inside themselves.
  assert.ok(counts.$ref > counts.inFile, `${counts.$ref} $refs on the site, ${counts.inFile} inside their own file`);
  assert.ok(counts.$id >= schemas.length, `${counts.$id} $ids`);
  t.diagnostic(
    `${schemas.length} schema files: ${counts.$id} $ids, ${counts.$ref} $refs (${counts.$ref - counts.inFile} to another file), ${counts.$schema} $schema on the site, ${counts.elsewhere} elsewhere; ${answers.size} URLs asked`,
  );
});

test('no built file names the default address', () => {
  const text = (f: string) => (/\.(html|json|js|ts|txt|xml)$/.test(f) ? readFileSync(f, 'utf8') : '');
  const all = files(out);
  assert.ok(all.length > 100, `${all.length} files`);
  assert.deepEqual(
    all.filter((f) => text(f).includes(DEFAULT_SITE_URL)).map((f) => relative(out, f)),
    [],
  );
});

test('the catalog, changes.json, every schema $id, the feeds and llms.txt start with the address the site is served at', () => {
  const read = (path: string) => readFileSync(join(out, path), 'utf8');
  const built = files(out).map((f) => relative(out, f).split('\\').join('/'));
  const exports = ['catalog', 'changes'];
  for (const name of exports) {
    const { $schema } = JSON.parse(read(`${name}.json`)) as { $schema: string };
    assert.equal($schema, `${origin}/${name}.schema.json`);
    assert.equal(JSON.parse(read(`${name}.schema.json`)).$id, $schema);
  }
  // Every other schema is a tool's or an agent's, and its $id names its own folder.
  const schemas = built.filter(
    (f) => f.endsWith('.schema.json') && !f.startsWith('_astro/') && !exports.some((n) => f === `${n}.schema.json`),
  );
  assert.ok(schemas.length > 0);
  for (const f of schemas) {
    const id = String(JSON.parse(read(f)).$id);
    assert.equal(new URL(id).origin, origin, `${f}: $id ${id}`);
    assert.equal(
      new URL(id).pathname.split('/').slice(1, 3).join('/'),
      f.split('/').slice(0, 2).join('/'),
      `${f}: $id names its own tool`,
    );
  }
  const feeds = built.filter((f) => f.endsWith('changelog.xml'));
  assert.ok(feeds.length > 0);
  for (const f of feeds) assert.ok(read(f).includes(`<id>${origin}/`), f);
  const links = [...read('llms.txt').matchAll(/\]\((https?:\/\/[^)]+)\)/g)].map((m) => m[1]!);
  assert.ok(links.length > 0);
  assert.deepEqual(
    links.filter((l) => new URL(l).origin !== origin),
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
