/**
 * Jobs across agents, checked in the built HTML against the editorial files and
 * comparison files read here independently of the loader: each job's page lists
 * exactly the tools whose editorial file names the job; each tool page names, for
 * its main job, the other agents' tools that do it; each comparison row links to
 * the fields its file names.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'parse5';
import type { DefaultTreeAdapterMap } from 'parse5';
import { buildSite, DIST, ROOT } from '../helpers/browser.ts';

type Node = DefaultTreeAdapterMap['node'];
type Element = DefaultTreeAdapterMap['element'];

interface Editorial {
  agent: string;
  name: string;
  jobs: string[];
}

/** Every editorial file, with the URL of its tool's page (`/<agent>/<file name>/`). */
function editorials(): (Editorial & { url: string })[] {
  const dir = join(ROOT, 'content/editorial');
  return readdirSync(dir).flatMap((agent) =>
    readdirSync(join(dir, agent)).map((f) => ({
      ...(JSON.parse(readFileSync(join(dir, agent, f), 'utf8')) as Editorial),
      url: `/${agent}/${f.replace(/\.json$/, '')}/`,
    })),
  );
}

function html(path: string): Node {
  return parse(readFileSync(join(DIST, path, 'index.html'), 'utf8'));
}

/** Elements matching `test`, in document order. */
function find(node: Node, test: (el: Element) => boolean): Element[] {
  const out: Element[] = [];
  const walk = (n: Node): void => {
    if ('tagName' in n && test(n as Element)) out.push(n as Element);
    for (const c of (n as { childNodes?: Node[] }).childNodes ?? []) walk(c);
    const content = (n as { content?: Node }).content;
    if (content) walk(content);
  };
  walk(node);
  return out;
}

const attr = (el: Element, name: string) => el.attrs.find((a) => a.name === name)?.value;
const hasClass = (el: Element, name: string) => (attr(el, 'class') ?? '').split(/\s+/).includes(name);
const hrefs = (el: Element) => find(el, (e) => e.tagName === 'a').map((a) => attr(a, 'href')!);

before(() => buildSite());

test('each job page lists exactly the tools whose editorial file names the job', () => {
  const jobs = (JSON.parse(readFileSync(join(ROOT, 'content/jobs.json'), 'utf8')) as { jobs: { id: string }[] }).jobs;
  const notes = editorials();
  let nonEmpty = 0;
  for (const job of jobs) {
    const list = find(html(`jobs/${job.id}`), (e) => e.tagName === 'ul' && hasClass(e, 'job-tools'))[0];
    assert.ok(list, `/jobs/${job.id}/ has no tool list`);
    const expected = notes
      .filter((n) => n.jobs.includes(job.id))
      .map((n) => n.url)
      .sort();
    assert.deepEqual(hrefs(list).sort(), expected, job.id);
    if (expected.length > 0) nonEmpty++;
  }
  assert.ok(nonEmpty >= jobs.length / 2, `only ${nonEmpty} of ${jobs.length} jobs have tools`);
});

test("each tool page names, for its main job, every other agent's tool that does it, and links the comparison", () => {
  const notes = editorials();
  let checked = 0;
  for (const note of notes) {
    const main = note.jobs[0];
    if (main === undefined) continue;
    const others = notes
      .filter((n) => n.agent !== note.agent && n.jobs.includes(main))
      .map((n) => n.url)
      .sort();
    const line = find(html(note.url.slice(1)), (e) => e.tagName === 'p' && hasClass(e, 'counterparts'))[0];
    if (others.length === 0) {
      assert.equal(line, undefined, `${note.url}: a counterparts line without counterparts`);
      continue;
    }
    assert.ok(line, `${note.url}: no counterparts line although ${others.join(', ')} do ${main}`);
    const links = hrefs(line);
    assert.deepEqual(links.filter((h) => !h.startsWith('/jobs/')).sort(), others, note.url);
    assert.ok(links.includes(`/jobs/${main}/`), `${note.url}: no link to /jobs/${main}/`);
    checked++;
  }
  assert.ok(checked > 0, 'no tool page has counterparts');
});

test('each comparison block links, per tool, to the fields its comparison file names', () => {
  const dir = join(ROOT, 'content/comparisons');
  const files = existsSync(dir) ? readdirSync(dir) : [];
  assert.ok(files.length > 0, 'no comparison file');
  for (const f of files) {
    const file = JSON.parse(readFileSync(join(dir, f), 'utf8')) as {
      job: string;
      concepts: { id: string; fields: { agent: string; tool: string; field: string }[] }[];
    };
    const page = html(`jobs/${file.job}`);
    for (const concept of file.concepts) {
      const row = find(page, (e) => e.tagName === 'section' && attr(e, 'id') === `concept-${concept.id}`)[0];
      assert.ok(row, `${f}: no row for ${concept.id}`);
      // Field links carry a fragment; the tool names above them do not.
      const links = hrefs(row)
        .filter((h) => h.includes('#'))
        .map((h) => h.replace(/^\/([^/]+)\/([^/]+)\/#/, '$1 $2 '));
      const expected = concept.fields.map((c) => `${c.agent} ${c.tool.toLowerCase()} ${c.field}`);
      assert.deepEqual(links.sort(), expected.sort(), `${f} ${concept.id}`);
    }
  }
});
