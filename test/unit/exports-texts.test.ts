/**
 * Generated declarations (src/lib/shapes/declarations.ts), llms.txt and
 * llms-full.txt (src/lib/exports/llms.ts), minimal instances
 * (src/lib/shapes/minimal-instance.ts) and the export texts of one tool.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { micromark } from 'micromark';
import { parseFragment } from 'parse5';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { declarationFromSchema, declarationTypeName } from '../../src/lib/shapes/declarations.ts';
import { llmsFullTxt, llmsTxt } from '../../src/lib/exports/llms.ts';
import { minimalInstance } from '../../src/lib/shapes/minimal-instance.ts';
import { toolExportFiles } from '../../src/lib/site/tool-exports.ts';
import { realContent } from '../helpers/real-content.ts';

const ROOT = join(import.meta.dirname, '../..');
const site = realContent();
const ORIGIN = { site: 'https://site.invalid' };

/**
 * Markdown as a CommonMark reader builds it (micromark, raw HTML let through so that any
 * unescaped markup would show up as elements): the top-level nodes of the HTML it renders.
 */
type HtmlNode = {
  nodeName: string;
  tagName?: string;
  value?: string;
  attrs?: { name: string; value: string }[];
  childNodes?: HtmlNode[];
};
const markdownNodes = (markdown: string): HtmlNode[] =>
  (parseFragment(micromark(markdown, { allowDangerousHtml: true })) as unknown as HtmlNode).childNodes!.filter(
    (n) => n.nodeName !== '#text' || n.value!.trim() !== '',
  );
const textOf = (node: HtmlNode): string =>
  node.nodeName === '#text' ? node.value! : (node.childNodes ?? []).map(textOf).join('');
const elementsOf = (node: HtmlNode): HtmlNode[] => [
  ...(node.tagName ? [node] : []),
  ...(node.childNodes ?? []).flatMap(elementsOf),
];
const attr = (node: HtmlNode, name: string) => node.attrs?.find((a) => a.name === name)?.value;
const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();
/**
 * Prose as a reader sees it: one line, and a run in backticks shown as code (its text, without the backticks), as on
 * the pages.
 */
const shown = (text: string) => collapse(text).replace(/`([^`]+)`/g, '$1');

/** Type-checks one declaration file with the compiler API; returns its diagnostics as text. */
function compileErrors(text: string): string[] {
  // A .ts name: skipLibCheck would skip a .d.ts file itself.
  const fileName = '/decl/input.ts';
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    skipLibCheck: true,
  };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (f) => (f === fileName ? text : readFile(f));
  host.fileExists = (
    (exists) => (f: string) =>
      f === fileName || exists(f)
  )(host.fileExists.bind(host));
  host.getSourceFile = (f, v, ...rest) =>
    f === fileName ? ts.createSourceFile(f, text, v) : getSourceFile(f, v, ...rest);
  const program = ts.createProgram([fileName], options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

test('declaration type names come from the callable name', () => {
  assert.equal(declarationTypeName('exec_command'), 'ExecCommandInput');
  assert.equal(declarationTypeName('collaboration.post'), 'CollaborationPostInput');
  assert.equal(declarationTypeName('mcp__server.tool'), 'McpServerToolInput');
  assert.equal(declarationTypeName('2fa'), 'Tool2faInput');
});

test('a declaration generated from a schema compiles and says what the schema says', async () => {
  const text = await declarationFromSchema(
    {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: 'https://site.invalid/codex/x/0.1.0/input.schema.json',
      title: 'ignored as a type name',
      type: 'object',
      properties: {
        cmd: { type: 'string', description: 'Command */ to run.' },
        tty: { type: 'boolean' },
        mode: { enum: ['a', 'b'] },
      },
      required: ['cmd'],
      additionalProperties: false,
    },
    'XInput',
    ['x input (Codex CLI 0.1.0)', 'has */ inside'],
  );
  assert.match(text, /^\/\*\*\n \* x input \(Codex CLI 0\.1\.0\)\n \* has \*\\\/ inside\n \*\//);
  assert.match(text, /export interface XInput \{/);
  assert.match(text, /cmd: string;/);
  assert.match(text, /tty\?: boolean;/);
  assert.match(text, /mode\?: "a" \| "b";/);
  assert.doesNotMatch(text, /\[k: string\]/);
  assert.deepEqual(compileErrors(text), []);
  // Without additionalProperties: false, other keys are allowed, as the schema means.
  assert.match(
    await declarationFromSchema({ type: 'object', properties: { a: { type: 'string' } } }, 'Open', ['o']),
    /\[k: string\]: unknown;/,
  );
});

test('the export files of a tool: schemas with their $id, and the Codex declaration', async () => {
  const post = site.tools.find((t) => t.agent === 'codex' && t.slug === 'collaboration.post')!;
  const codex = site.agents.find((a) => a.id === 'codex')!;
  const files = await toolExportFiles(post, ORIGIN);
  assert.deepEqual([...files.keys()], ['input.schema.json', 'result.schema.json', 'input.d.ts']);
  const schema = JSON.parse(files.get('input.schema.json')!);
  assert.equal(schema.$id, `https://site.invalid/codex/collaboration.post/${codex.version}/input.schema.json`);
  assert.equal(schema.title, `collaboration.post input (Codex CLI ${codex.version})`);
  assert.match(files.get('input.d.ts')!, /export interface CollaborationPostInput \{/);
  assert.deepEqual(compileErrors(files.get('input.d.ts')!), []);
});

test('minimal instances: required members only, bounds and formats honoured', () => {
  const schema = {
    type: 'object',
    required: ['n', 'list', 'kind', 'when', 'ref', 'either'],
    properties: {
      n: { type: 'integer', exclusiveMinimum: 0 },
      list: { type: 'array', minItems: 2, items: { type: 'string', minLength: 3 } },
      kind: { enum: ['x', 'y'] },
      when: { type: 'string', format: 'date-time' },
      ref: { $ref: '#/$defs/r' },
      either: { anyOf: [{ type: 'null' }, { type: 'string' }] },
      optional: { type: 'string' },
    },
    $defs: { r: { type: 'object', required: ['a'], properties: { a: { const: 1 } } } },
  };
  const value = minimalInstance(schema);
  assert.deepEqual(value, {
    n: 1,
    list: ['aaa', 'aaa'],
    kind: 'x',
    when: '2026-01-01T00:00:00Z',
    ref: { a: 1 },
    either: null,
  });
  assert.ok(new Ajv2020({ strict: false }).compile(schema)(value));
  assert.throws(() => minimalInstance(false), /accepts no value/);
});

test('llms.txt: an H1, a blockquote, then sections of links with notes, one per tool page', () => {
  const text = llmsTxt(site, ORIGIN);
  const lines = text.split('\n');
  assert.match(lines[0]!, /^# Agent tool reference$/);
  assert.equal(lines[1], '');
  assert.match(
    lines[2]!,
    new RegExp(`^> Every built-in tool of ${site.agents.length} coding-agent CLIs \\(${site.agents[0]!.product} `),
  );
  const sections = lines.filter((l) => l.startsWith('## '));
  // Each agent's section names it with every release its sources come from, read from the files:
  // the capture matrix's pin, and the CLI release its agent record's types bundle.
  const matrixFile = JSON.parse(readFileSync(join(ROOT, 'content/capture-matrix.json'), 'utf8')) as {
    agents: Record<string, { version: string }>;
  };
  site.agents.forEach((a, i) => {
    const heading = sections[i]!;
    assert.ok(heading.startsWith(`## ${a.product} `), heading);
    const recordFile = join(ROOT, 'content/agents', `${a.id}.json`);
    const releases = [
      matrixFile.agents[a.id]?.version,
      existsSync(recordFile)
        ? (JSON.parse(readFileSync(recordFile, 'utf8')) as { version: string }).version
        : undefined,
    ];
    for (const release of releases)
      if (release) assert.ok(heading.includes(` ${release}`), `${heading} names ${release}`);
  });
  assert.ok(sections.includes('## Optional'));
  // Read back as Markdown: one list item per tool, a link to its page labelled with its name, then its summary.
  const items = lines
    .filter((l) => l.startsWith('- '))
    .map((l) => elementsOf(markdownNodes(l)[0]!).find((e) => e.tagName === 'li')!);
  for (const tool of site.tools) {
    const href = `https://site.invalid/${tool.agent}/${tool.slug}/`;
    const item = items.find((li) => li.childNodes!.some((c) => c.tagName === 'a' && attr(c, 'href') === href));
    assert.ok(item, `${tool.agent}/${tool.slug} is listed`);
    // A tool with no editorial summary (an agent added as one module and its captures) is listed by its name alone.
    const summary = tool.editorial?.summary;
    assert.equal(textOf(item), summary ? `${tool.fullName}: ${shown(summary)}` : tool.fullName);
  }
  // Every list line is a link, with a note when there is one to give.
  for (const line of lines.filter((l) => l.startsWith('- ')))
    assert.match(line, /^- \[.+?\]\(https:\/\/site\.invalid\/[^)\s]*\)(: \S.*)?$/);
  assert.ok(text.endsWith('\n') && !text.endsWith('\n\n'));
});

test('llms-full.txt: each tool with its summary and its fields (path, type, required)', () => {
  const text = llmsFullTxt(site, ORIGIN);
  assert.ok(text.startsWith('# Agent tool reference\n\n> '));
  // Read back as Markdown: each tool's name is an H3, followed by its page's address.
  const nodes = markdownNodes(text);
  for (const tool of site.tools) {
    const url = `https://site.invalid/${tool.agent}/${tool.slug}/`;
    assert.ok(
      nodes.some((n, i) => n.tagName === 'h3' && textOf(n) === tool.fullName && textOf(nodes[i + 1]!) === url),
      `${tool.fullName} heads ${url}`,
    );
  }
  const bash = text.slice(text.indexOf('### Bash\n'), text.indexOf('\n### ', text.indexOf('### Bash\n') + 1));
  assert.match(
    bash,
    /#### Input\n\nTypeScript; JSON Schema: https:\/\/site\.invalid\/claude-code\/bash\/input\.schema\.json\n\n\| Field \| Type \| Required \|/,
  );
  assert.match(bash, /\| `command` \| `string` \| yes \|/);
  assert.match(bash, /\| `timeout` \| `number` \| no \|/);
  assert.match(bash, /#### Result\n/);
  assert.match(bash, /#### Model-facing input\n/);
  // A pipe inside a type cannot break the table: it is inside a code span, escaped.
  for (const line of text.split('\n').filter((l) => l.startsWith('| `')))
    assert.equal(line.replace(/\\\|/g, '').split('|').length, 5, line);
});

test('llms.txt and llms-full.txt carry hostile names and summaries as inert text', () => {
  const NAME =
    'x</title><script>alert(1)</script>*em* [a](javascript:alert(2)) <img src=x onerror=alert(3)> # `c` _u_ ~~s~~ &lt;';
  const SUMMARY =
    '# Heading? [click](javascript:alert(4)) <img src=x onerror="alert(5)"> <javascript:alert(6)> ![i](https://evil.invalid/i.png) &amp; a\\b `<img src=x onerror=alert(9)>` \n\n- item | cell |';
  const JOB = '1. <svg onload=alert(7)>[j](javascript:alert(8))';
  const target = site.tools[0]!;
  const model = {
    ...site,
    tools: site.tools.map((t) =>
      t === target ? { ...t, fullName: NAME, editorial: { ...t.editorial!, summary: SUMMARY } } : t,
    ),
    jobs: site.jobs.map((j, i) => (i === 0 ? { ...j, title: JOB, description: SUMMARY } : j)),
  };
  for (const [file, text] of [
    ['llms.txt', llmsTxt(model, ORIGIN)],
    ['llms-full.txt', llmsFullTxt(model, ORIGIN)],
  ] as const) {
    const nodes = markdownNodes(text);
    const elements = nodes.flatMap(elementsOf);
    assert.deepEqual(
      elements
        .filter(
          (e) =>
            ![
              'h1',
              'h2',
              'h3',
              'h4',
              'p',
              'ul',
              'li',
              'a',
              'code',
              'blockquote',
              'table',
              'thead',
              'tbody',
              'tr',
              'th',
              'td',
            ].includes(e.tagName!),
        )
        .map((e) => e.tagName),
      [],
      `${file}: only the elements of the format`,
    );
    assert.deepEqual(
      elements.flatMap((e) =>
        (e.attrs ?? []).filter((a) => a.name !== 'href' && a.name !== 'align').map((a) => `${e.tagName} ${a.name}`),
      ),
      [],
      `${file}: no attribute but href`,
    );
    for (const a of elements.filter((e) => e.tagName === 'a'))
      assert.match(attr(a, 'href')!, /^https:\/\/site\.invalid\//, `${file}: every link goes to the site`);
    if (file === 'llms.txt') {
      const item = elements.find(
        (e) =>
          e.tagName === 'li' &&
          attr(e.childNodes![0]!, 'href') === `https://site.invalid/${target.agent}/${target.slug}/`,
      )!;
      assert.equal(textOf(item), `${NAME}: ${shown(SUMMARY)}`);
      assert.ok(
        elements.some((e) => e.tagName === 'li' && textOf(e).startsWith(`${JOB}: ${shown(SUMMARY)}`)),
        'the job title and description read as text',
      );
    } else {
      const at = nodes.findIndex((n) => n.tagName === 'h3' && textOf(n) === NAME);
      assert.ok(at >= 0, 'the hostile name is one H3, as text');
      assert.equal(nodes[at + 2]!.tagName, 'p');
      assert.equal(textOf(nodes[at + 2]!), shown(SUMMARY), 'the summary is one paragraph of text');
    }
  }
});
