/**
 * The exports resolve where the site is served. Every link of llms.txt and llms-full.txt, every schema's `$id`, every
 * `$ref` and every `$schema` that names the site, in every schema a build wrote (and catalog.json's `$schema`), must
 * get an HTTP 200 from a server of that build, and a `$ref` with a fragment must name a member of the file it reaches.
 * The server's answer is the reference, not the code that wrote the links.
 *
 * Two builds are held to it:
 * - `npm start` (scripts/start.ts) as it runs, on the fixture content (CONTENT_DIR), into a temporary folder and on a
 *   port the system picks (PORT=0): SITE_URL is then the server's own address, the start of every absolute URL the
 *   site writes, so no built file may name the default address, and the catalog, changes.json, the schemas, the feeds
 *   and llms.txt name the served one. The process group started here is ended by the test whatever happens.
 * - the real site the build phase made (dist/, at the default address), at scale: every link and reference of the
 *   real content, asked of a static server of dist/ to which the default address is mapped.
 *
 * A malformed address stops the build, naming the variable.
 */
import { after, before, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { buildSite, DIST, ROOT, runBuild } from '../helpers/browser.ts';
import { serveStatic, type StaticServer } from '../../scripts/lib/system/static-server.ts';
import { servedAddress } from '../../scripts/lib/start-settings.ts';
import { DEFAULT_SITE_URL } from '../../src/lib/site/site-settings.ts';

let out: string;
let server: ChildProcess | undefined;
let base: string;
let origin: string;
let output = '';
/** dist/ served on 127.0.0.1, and the built site as its links name it (the default address). */
let real: StaticServer | undefined;
const REAL_BASE = `${DEFAULT_SITE_URL}/`;

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
    env: { ...env, PORT: '0', ASTRO_TELEMETRY_DISABLED: '1', CONTENT_DIR: join(ROOT, 'test/fixtures/content') },
    stdio: ['pipe', 'pipe', 'inherit'],
    detached: true,
  });
  base = await servedBase(server, 400_000);
  origin = new URL(base).origin;
  buildSite();
  real = await serveStatic(DIST);
});

after(async () => {
  if (server) await stop(server);
  if (out) rmSync(out, { recursive: true, force: true });
  await real?.close();
});

interface Answer {
  status: number;
  body: string;
}
const answers = new Map<string, Promise<Answer>>();
/**
 * The server's answer for a URL without its fragment, asked once. A URL at the default address is asked of the server
 * of dist/.
 */
function get(url: string): Promise<Answer> {
  const key = url.replace(/#.*$/, '');
  let answer = answers.get(key);
  if (!answer) {
    const asked = key.startsWith(REAL_BASE) ? `${real!.base}/${key.slice(REAL_BASE.length)}` : key;
    answer = fetch(asked, { signal: AbortSignal.timeout(30_000) }).then(async (res) => ({
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

/** A build and where its links say it is: its folder, its base address and that address's origin. */
interface Built {
  label: string;
  dir: string;
  base: string;
  origin: string;
}
/** The build `npm start` served (fixture content, at the server's address), and the real one (at the default). */
const builds = (): Built[] => [
  { label: 'npm start on the fixture content', dir: out, base, origin },
  { label: 'the real site (dist/)', dir: DIST, base: REAL_BASE, origin: DEFAULT_SITE_URL },
];

/** Every distinct link of the build's llms.txt and llms-full.txt answers 200, and none leaves the site. */
async function checkLlmsLinks(site: Built, t: TestContext): Promise<void> {
  for (const file of ['llms.txt', 'llms-full.txt']) {
    const { status, body } = await get(`${site.base}${file}`);
    assert.equal(status, 200, `${site.label}: ${file}`);
    const links = [...new Set(llmsLinks(body))];
    assert.ok(links.length > 0, `${site.label}: ${file}: ${links.length} links`);
    assert.deepEqual(
      links.filter((l) => new URL(l).origin !== site.origin),
      [],
      `${site.label}: ${file}: links off the site`,
    );
    const broken: string[] = [];
    await inBatches(links, async (link) => {
      const { status: code } = await get(link);
      if (code !== 200) broken.push(`${link}: ${code}`);
    });
    assert.deepEqual(broken, [], `${site.label}: ${file}: links the server does not answer with 200`);
    t.diagnostic(`${site.label}: ${file}: ${links.length} distinct links, each answered 200`);
  }
}

test('every link of llms.txt and llms-full.txt is on the served site and answers 200', async (t) => {
  for (const site of builds()) await checkLlmsLinks(site, t);
});

/** The schema files a build wrote, as paths from its root. */
const schemaFiles = (dir: string): string[] =>
  files(dir)
    .map((f) => relative(dir, f).split('\\').join('/'))
    .filter((p) => p.endsWith('.schema.json') && !p.startsWith('_astro/'));

interface ReferenceCounts {
  $id: number;
  $schema: number;
  $ref: number;
  inFile: number;
  elsewhere: number;
}

/**
 * Every `$id`, and every `$ref` and `$schema` that names the site, in every schema of the build resolves on it; how
 * many of each there were.
 */
async function checkSchemaReferences(site: Built, t: TestContext): Promise<ReferenceCounts> {
  const { origin: here } = site;
  const schemas = schemaFiles(site.dir);
  assert.ok(schemas.length > 0, `${site.label}: ${schemas.length} schema files`);
  const problems: string[] = [];
  const counts: ReferenceCounts = { $id: 0, $schema: 0, $ref: 0, inFile: 0, elsewhere: 0 };
  const check = async (path: string) => {
    const url = new URL(path, site.base).href;
    const { status, body } = await get(url);
    if (status !== 200) return void problems.push(`${url}: ${status}`);
    const document = JSON.parse(body) as Record<string, unknown>;
    if (typeof document['$id'] !== 'string' || new URL(document['$id']).origin !== here)
      problems.push(`${path}: $id ${String(document['$id'])} is not on the site`);
    for (const { keyword, value, base: against } of references(document, url)) {
      const target = new URL(value, against);
      if (target.origin !== here) {
        // Only the JSON Schema meta-schemas and upstream's own references may lie elsewhere; never a site address.
        if (
          (here !== DEFAULT_SITE_URL && target.href.startsWith(DEFAULT_SITE_URL)) ||
          /^(localhost|127\.0\.0\.1|\[::1\])$/.test(target.hostname)
        )
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
  const catalog = await get(`${site.base}catalog.json`);
  assert.equal(catalog.status, 200);
  const catalogSchema = String((JSON.parse(catalog.body) as { $schema: unknown }).$schema);
  assert.equal(new URL(catalogSchema).origin, here, `${site.label}: catalog.json names its schema on the site`);
  assert.equal((await get(catalogSchema)).status, 200, `${site.label}: catalog.json's $schema ${catalogSchema}`);
  assert.deepEqual(problems, [], site.label);
  assert.ok(counts.$id >= schemas.length, `${site.label}: ${counts.$id} $ids`);
  t.diagnostic(
    `${site.label}: ${schemas.length} schema files: ${counts.$id} $ids, ${counts.$ref} $refs (${counts.$ref - counts.inFile} to another file), ${counts.$schema} $schema on the site, ${counts.elsewhere} elsewhere`,
  );
  return counts;
}

test('every $id, and every $ref and $schema that names the site, in every schema the build wrote, resolves on the served site', async (t) => {
  const [served, real] = builds();
  await checkSchemaReferences(served!, t);
  const atScale = await checkSchemaReferences(real!, t);
  // Not vacuous: the real site's schemas are every tool's and agent's, and refer to each other across files (the
  // fixture content's refer only inside their own file).
  const inDist = schemaFiles(DIST).length;
  assert.ok(inDist > 100, `${inDist} schema files in dist/`);
  assert.ok(atScale.$ref > atScale.inFile, `${atScale.$ref} $refs in dist/, ${atScale.inFile} inside their own file`);
  t.diagnostic(`${answers.size} URLs asked`);
});

test('no built file names the default address', () => {
  const text = (f: string) => (/\.(html|json|js|ts|txt|xml)$/.test(f) ? readFileSync(f, 'utf8') : '');
  const all = files(out);
  assert.ok(all.length > 20, `${all.length} files`);
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
