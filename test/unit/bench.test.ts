/**
 * The benchmark's pure helpers (scripts/lib/bench/): Markdown for the baseline
 * site, byte accounting, ratios and the printed table, the command line and
 * repeated builds (order, medians, build-time rows), clean-up and timeouts,
 * and the static server's path mapping. Expected values are worked out by hand
 * from CommonMark/GFM rules and arithmetic; the round-trip tests render the
 * Markdown with the processor Astro 7 itself uses for the baseline's pages.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSatteriMarkdownProcessor } from '@astrojs/markdown-satteri';
import {
  codeSpan,
  escapeText,
  fence,
  fieldTable,
  htmlText,
  inline,
  table,
  baselinePages,
  toolMarkdown,
} from '../../scripts/lib/bench/markdown.ts';
import { DEFAULT_BEFORE, DEFAULT_LIGHTHOUSE_RUNS, parseBenchArgs } from '../../scripts/lib/bench/args.ts';
import { medianScores, type Scores } from '../../scripts/lib/bench/lighthouse.ts';
import { buildOrder, buildTimeRows, median, summarizeBuildTimes } from '../../scripts/lib/bench/runs.ts';
import {
  buildLeftovers,
  builtPageUrls,
  exportRevision,
  historyEventCount,
  markdownUrl,
} from '../../scripts/lib/bench/sites.ts';
import { examplesFromHtml, markdownFromHtml, sidebarFromHtml } from '../../scripts/lib/bench/from-html.ts';
import {
  formatRatio,
  formatValue,
  isRedirectPage,
  jsonRows,
  kindOf,
  ratio,
  renderTable,
  rowRatio,
  sumBytes,
  under,
  withoutFavicon,
  type Fetched,
} from '../../scripts/lib/bench/report.ts';
import { Cleanup } from '../../scripts/lib/bench/cleanup.ts';
import { withTimeout } from '../../scripts/lib/bench/timeout.ts';
import { fileFor, serveStatic } from '../../scripts/lib/system/static-server.ts';
import type { FieldRow } from '../../src/lib/shapes/field-rows.ts';
import { realContent } from '../helpers/real-content.ts';

describe('Markdown of the baseline site', () => {
  test('escapeText: Markdown syntax characters are backslash-escaped, whitespace collapsed', () => {
    assert.equal(escapeText('a*b_c'), 'a\\*b\\_c');
    assert.equal(escapeText('<environment_context>'), '\\<environment\\_context\\>');
    assert.equal(escapeText('[x](y) & z | w # !'), '\\[x\\](y) \\& z \\| w \\# \\!');
    assert.equal(escapeText('two\n\n  lines'), 'two lines');
    // A paragraph that starts like a list item or a heading underline must stay text.
    assert.equal(escapeText('1. not a list'), '1\\. not a list');
    assert.equal(escapeText('- not a list'), '\\- not a list');
    assert.equal(escapeText('= not a heading'), '\\= not a heading');
    assert.equal(escapeText('plain text, (with) punctuation.'), 'plain text, (with) punctuation.');
  });

  test('codeSpan: the fence outgrows backtick runs, padding protects edge backticks, | escaped in tables', () => {
    assert.equal(codeSpan('Read'), '`Read`');
    assert.equal(codeSpan('a`b'), '``a`b``');
    assert.equal(codeSpan('a``b`c'), '```a``b`c```');
    assert.equal(codeSpan('`x'), '`` `x ``');
    assert.equal(codeSpan(' x '), '`  x  `');
    assert.equal(codeSpan('a|b'), '`a|b`');
    assert.equal(codeSpan('a|b', true), '`a\\|b`');
    assert.equal(codeSpan('line\n  next'), '`line next`');
  });

  test('inline: `code` runs become code spans, the rest is escaped text', () => {
    assert.equal(inline('Use `Read` for *files*'), 'Use `Read` for \\*files\\*');
    assert.equal(inline('pipe | and `a|b`', true), 'pipe \\| and `a\\|b`');
  });

  test('fence: at least three backticks, more than any run inside; text ends with a newline', () => {
    assert.equal(fence('x', 'ts'), '```ts\nx\n```');
    assert.equal(fence('x\n', 'ts'), '```ts\nx\n```');
    assert.equal(fence('a\n```\nb', 'md'), '````md\na\n```\nb\n````');
    assert.equal(fence('g', 'text', 'title="lark grammar"'), '```text title="lark grammar"\ng\n```');
  });

  test('table: header, delimiter row, one line per row; an empty cell stays a cell', () => {
    assert.equal(
      table(
        ['A', 'B'],
        [
          ['1', ''],
          ['x', 'y'],
        ],
      ),
      '| A | B |\n| --- | --- |\n| 1 |   |\n| x | y |',
    );
  });

  test('fieldTable: name, type, required (Yes / No / —), meaning with description, values and constraints', () => {
    const base = {
      root: 'input',
      segments: [],
      id: '',
      stableId: '',
      fieldKey: '',
      path: '',
      name: '',
      depth: 0,
      nullable: false,
      deprecated: false,
      constraints: [] as string[],
    };
    const rows: FieldRow[] = [
      {
        ...base,
        label: 'command',
        role: 'property',
        type: 'string',
        required: true,
        description: 'The command to run',
      },
      {
        ...base,
        label: '.timeout',
        role: 'property',
        type: 'number',
        required: false,
        constraints: ['maximum: 600000', 'minimum: 0'],
      },
      { ...base, label: 'status: "completed"', role: 'variant', type: 'object', required: null },
      {
        ...base,
        label: 'mode',
        role: 'property',
        type: '"a" | "b"',
        required: false,
        deprecated: true,
        literals: ['a', 'b'],
      },
    ];
    assert.equal(
      fieldTable(rows),
      [
        '| Field | Type | Required | Meaning and defaults |',
        '| --- | --- | --- | --- |',
        '| `command` | `string` | Yes | The command to run |',
        '| `.timeout` | `number` | No | `maximum: 600000` · `minimum: 0` |',
        '| status: "completed" | `object` | — |   |',
        '| `mode` | `"a" \\| "b"` | No | Deprecated<br>One of: `"a"`, `"b"` |',
      ].join('\n'),
    );
  });

  test('round trip: text, table cells and fenced blocks render to exactly the text they were given', async () => {
    const md = await createSatteriMarkdownProcessor({ syntaxHighlight: false, smartypants: false });
    const decode = (html: string) =>
      html
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&quot;/g, '"')
        .replace(/&#39;/g, "'")
        .replace(/&amp;/g, '&');
    const textOf = (html: string) => decode(html.replace(/<[^>]+>/g, '')).trim();
    const tricky = [
      'Reads <environment_context> and *stars*, _under_scores_, [brackets](not-a-link) & ampersands &amp; too',
      '1. starts like a list | has a pipe # and a hash',
      '- a dash, a `code|span`, ~~tildes~~, a \\ backslash and an *unclosed emphasis',
      'Runs `rm -rf <dir>` only after `confirm: true`!',
    ];
    for (const text of tricky) {
      // In the page the code runs show without their backticks.
      const shown = text.replace(/`([^`\n]+)`/g, '$1');
      const paragraph = (await md.render(inline(text))).code;
      assert.equal(textOf(paragraph), shown, `paragraph: ${text}`);
      const cell = (await md.render(table(['h'], [[inline(text, true)]]))).code;
      assert.equal(textOf(cell.slice(cell.indexOf('<tbody>'))), shown, `table cell: ${text}`);
    }
    for (const code of ['a`b', '`x', ' x ', 'a|b']) {
      assert.equal((await md.render(codeSpan(code))).code.trim(), `<p><code>${code}</code></p>`, code);
    }
    const definition = 'type A = {\n  a: "```";\n}\n\n<b>x</b>\n';
    const block = (await md.render(fence(definition, 'ts'))).code;
    assert.equal(textOf(block), definition.trim());
    // A folded payload is one raw HTML block, whatever it holds: blank lines and markup stay its text.
    const payload = '{"a": "</details><script>x</script>"}\n\n## not a heading\n& done';
    const folded = (
      await md.render(`<details><summary>s</summary><pre><code>${htmlText(payload)}</code></pre></details>`)
    ).code;
    assert.doesNotMatch(folded, /<h2|<script/);
    assert.equal(decode(/<code>([\s\S]*)<\/code>/.exec(folded)![1]!.replace(/&#10;/g, '\n')), payload);
  });

  test('the baseline has one Markdown page per page of the reference, at the same URL, with its field tables', () => {
    const model = realContent();
    const pages = baselinePages(model);
    const files = pages.map((p) => p.file);
    assert.equal(new Set(files).size, files.length, 'no two pages share a file');
    const expected = [
      'index.md',
      'jobs.md',
      ...model.agents.map((a) => `${a.id}/index.md`),
      ...model.tools.map((t) => `${t.agent}/${t.slug}.md`),
    ];
    assert.deepEqual([...files].sort(), expected.sort());

    const bash = model.tools.find((t) => t.agent === 'claude-code' && t.slug === 'bash')!;
    // The recorded calls its page shows, as the site's build would give them (examplesFromHtml, tested below).
    const examples = (bash.examples ?? []).map((e) => ({
      scenario: e.scenario,
      expect: e.expect,
      description: 'Runs it.',
      configuration: e.configuration,
      parts: [
        {
          title: 'Input the model sent',
          text: JSON.stringify(e.calls[0]?.input, null, 2),
          lang: 'json' as const,
          highlighted: true,
        },
      ],
    }));
    const text = toolMarkdown(model, bash, examples).text;
    assert.match(text, /^---\ntitle: "Bash"\n/);
    assert.match(text, /\nslug: "claude-code\/bash"\n---\n/);
    for (const heading of ['## Input', '## Result', '## What turns it on', '## Provenance'])
      assert.ok(text.includes(`\n${heading}`), heading);
    // The recorded calls the tool page shows: each scenario under Examples, its input as a fenced block.
    assert.ok(examples.length > 0, 'the Bash page has recorded calls to mirror');
    assert.ok(text.includes('\n## Examples'));
    assert.ok(!toolMarkdown(model, bash).text.includes('\n## Examples'), 'none without recorded calls');
    for (const example of examples) {
      assert.ok(text.includes(`\n### ${escapeText(example.scenario)} (${example.expect})`), example.scenario);
      assert.ok(
        text.includes(`\`\`\`json title="Input the model sent"\n${example.parts[0]!.text}\n`),
        example.scenario,
      );
    }
    for (const row of bash.input.rows)
      if (row.role !== 'variant') assert.ok(text.includes(`| ${codeSpan(row.label, true)} |`), row.path);
    // A slug with a dot keeps it: the file name alone would be slugified without it.
    const dotted = model.tools.find((t) => t.slug.includes('.'));
    if (dotted) assert.ok(toolMarkdown(model, dotted).text.includes(`slug: "${dotted.agent}/${dotted.slug}"`));
  });
});

describe('byte accounting and the printed table', () => {
  const f = (url: string, contentType: string, bytes: number, transferred = bytes): Fetched => ({
    url,
    contentType,
    bytes,
    transferred,
  });

  test('kindOf: the content type decides, the URL only when the type is missing or generic', () => {
    assert.equal(kindOf('text/html; charset=utf-8', 'http://h/x.js'), 'html');
    assert.equal(kindOf('text/css', 'http://h/'), 'css');
    assert.equal(kindOf('text/javascript; charset=utf-8', 'http://h/a'), 'js');
    assert.equal(kindOf('application/javascript', 'http://h/a'), 'js');
    assert.equal(kindOf('application/x-javascript', 'http://h/a'), 'js');
    assert.equal(kindOf('application/wasm', 'http://h/a.js'), 'other');
    assert.equal(kindOf('image/svg+xml', 'http://h/favicon.svg'), 'other');
    assert.equal(kindOf('', 'http://h/docs/'), 'html');
    assert.equal(kindOf('application/octet-stream', 'http://h/a.mjs?v=1'), 'js');
    assert.equal(kindOf('', 'http://h/a.css'), 'css');
    assert.equal(kindOf('', 'http://h/pagefind/x.pf_fragment'), 'other');
  });

  test('sumBytes: per kind, decoded total, wire total and request count', () => {
    const fetched = [
      f('http://h/', 'text/html', 1000, 300),
      f('http://h/a.css', 'text/css', 200, 50),
      f('http://h/b.css', 'text/css', 100, 40),
      f('http://h/c.js', 'text/javascript', 70, 30),
      f('http://h/pagefind/wasm', 'application/wasm', 5, 5),
    ];
    assert.deepEqual(sumBytes(fetched), {
      html: 1000,
      css: 300,
      js: 70,
      other: 5,
      total: 1375,
      transferred: 425,
      requests: 5,
    });
    assert.deepEqual(sumBytes([]), { html: 0, css: 0, js: 0, other: 0, total: 0, transferred: 0, requests: 0 });
  });

  test('under and withoutFavicon select by path, ignoring host and query', () => {
    const fetched = [
      f('http://h/pagefind/a.pf_meta', '', 1),
      f('http://h/pagefindx/b', '', 2),
      f('http://h/favicon.svg?x', '', 3),
      f('http://h/img/favicon.svg.png', '', 4),
    ];
    assert.deepEqual(
      under(fetched, '/pagefind/').map((x) => x.bytes),
      [1],
    );
    assert.deepEqual(
      withoutFavicon(fetched).map((x) => x.bytes),
      [1, 2, 4],
    );
  });

  test('ratio and its formatting: site / baseline, none when a value is missing or the baseline is zero', () => {
    assert.equal(ratio(10, 4), 2.5);
    assert.equal(ratio(0, 4), 0);
    assert.equal(ratio(1, 0), null);
    assert.equal(ratio(null, 1), null);
    assert.equal(ratio(1, null), null);
    assert.equal(formatRatio(2.5), '2.50×');
    assert.equal(formatRatio(1 / 3), '0.33×');
    assert.equal(formatRatio(null), '—');
  });

  test('formatValue: KiB with one decimal, ms under a second and seconds above, whole scores and counts', () => {
    assert.equal(formatValue(1536, 'bytes'), '1.5 KiB');
    assert.equal(formatValue(0, 'bytes'), '0.0 KiB');
    assert.equal(formatValue(6300, 'ms'), '6.3 s');
    assert.equal(formatValue(999.4, 'ms'), '999 ms');
    assert.equal(formatValue(99.6, 'score'), '100');
    assert.equal(formatValue(12, 'count'), '12');
    assert.equal(formatValue(null, 'score'), 'n/a');
  });

  test('renderTable: a header, the metric left-aligned, numbers right-aligned, two spaces apart', () => {
    const rows = [
      { metric: 'pages', unit: 'count' as const, site: 112, baseline: 112 },
      { metric: 'home HTML', unit: 'bytes' as const, site: 2048, baseline: 1024 },
      { metric: 'seo', unit: 'score' as const, site: null, baseline: 90 },
    ];
    assert.equal(
      renderTable(rows),
      [
        'metric     this site  baseline  ratio',
        'pages            112       112  1.00×',
        'home HTML    2.0 KiB   1.0 KiB  2.00×',
        'seo              n/a        90      —',
      ].join('\n'),
    );
    assert.deepEqual(
      jsonRows(rows).map((r) => r.ratio),
      [1, 2, null],
    );
  });

  test('isRedirectPage: Astro redirect pages have a meta refresh; content pages do not', () => {
    assert.equal(
      isRedirectPage(
        '<!doctype html><title>Redirecting to: /a/</title><meta http-equiv="refresh" content="0;url=/a/">',
      ),
      true,
    );
    assert.equal(isRedirectPage('<!DOCTYPE html><html><head><meta charset="utf-8"><title>Bash</title></head>'), false);
  });
});

describe('clean-up, timeouts and the static server', () => {
  test('Cleanup runs every step once, newest first, and reports failures without stopping', async () => {
    const ran: string[] = [];
    const cleanup = new Cleanup();
    cleanup.add('a', () => ran.push('a'));
    cleanup.add('b', () => {
      throw new Error('boom');
    });
    cleanup.add('c', async () => ran.push('c'));
    assert.deepEqual(await cleanup.run(), ['b: boom']);
    assert.deepEqual(ran, ['c', 'a']);
    assert.deepEqual(await cleanup.run(), []);
    assert.deepEqual(ran, ['c', 'a']);
  });

  test('withTimeout passes a result through and fails a step that takes too long, naming it', async () => {
    assert.equal(await withTimeout('quick', 1000, Promise.resolve(7)), 7);
    await assert.rejects(withTimeout('slow step', 20, new Promise(() => {})), /slow step did not finish within 0.02 s/);
  });

  test('fileFor maps URL paths into the root and refuses paths that leave it', () => {
    const root = '/srv/site';
    assert.equal(fileFor(root, '/'), '/srv/site/index.html');
    assert.equal(fileFor(root, '/claude-code/bash/'), '/srv/site/claude-code/bash/index.html');
    assert.equal(fileFor(root, '/_astro/a.css?v=2'), '/srv/site/_astro/a.css');
    assert.equal(fileFor(root, '/a%20b.txt'), '/srv/site/a b.txt');
    assert.equal(fileFor(root, '/../etc/passwd'), undefined);
    assert.equal(fileFor(root, '/%2e%2e/etc/passwd'), undefined);
    assert.equal(fileFor(root, '/%E0%A4%A'), undefined);
  });

  test('serveStatic serves files, gzip on request, the 404 page with status 404, and stops', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-serve-'));
    try {
      writeFileSync(join(dir, 'index.html'), '<p>home</p>');
      writeFileSync(join(dir, '404.html'), '<p>missing</p>');
      const server = await serveStatic(dir);
      try {
        const home = await fetch(`${server.base}/`, { headers: { 'accept-encoding': 'gzip' } });
        assert.equal(home.status, 200);
        assert.equal(home.headers.get('content-type'), 'text/html; charset=utf-8');
        assert.equal(home.headers.get('content-encoding'), 'gzip');
        assert.equal(await home.text(), '<p>home</p>');
        const missing = await fetch(`${server.base}/nope/`);
        assert.equal(missing.status, 404);
        assert.equal(await missing.text(), '<p>missing</p>');
      } finally {
        await server.close();
      }
      await assert.rejects(fetch(`${server.base}/`));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the command line and repeated builds', () => {
  test('parseBenchArgs: --runs N (or =N, default 1), --json FILE (or =FILE), --keep; anything else is refused', () => {
    const defaults = {
      lighthouseRuns: DEFAULT_LIGHTHOUSE_RUNS,
      pages: [],
      before: { revision: DEFAULT_BEFORE, explicit: false },
    };
    assert.deepEqual(parseBenchArgs([]), { runs: 1, keep: false, ...defaults });
    assert.deepEqual(parseBenchArgs(['--runs', '3', '--json', 'b.json', '--keep']), {
      runs: 3,
      json: 'b.json',
      keep: true,
      ...defaults,
    });
    assert.deepEqual(parseBenchArgs(['--runs=5', '--json=out/b.json']), {
      runs: 5,
      json: 'out/b.json',
      keep: false,
      ...defaults,
    });
    assert.deepEqual(parseBenchArgs(['--keep', '--runs', '12']), { runs: 12, keep: true, ...defaults });
    for (const bad of ['0', '-1', '2.5', '1e1', '03', 'three', '10000']) {
      const parsed = parseBenchArgs(['--runs', bad]);
      assert.ok('error' in parsed && parsed.error.startsWith('--runs needs a whole number'), bad);
    }
    assert.ok('error' in parseBenchArgs(['--runs']));
    assert.ok('error' in parseBenchArgs(['--runs', '--keep']), 'an option is not a value');
    assert.ok('error' in parseBenchArgs(['--runs=']));
    assert.deepEqual(parseBenchArgs(['--json']), { error: '--json needs a file name' });
    assert.deepEqual(parseBenchArgs(['--json', '--keep']), { error: '--json needs a file name' });
    const unknown = parseBenchArgs(['--run', '3']);
    assert.ok('error' in unknown && unknown.error.startsWith('unknown argument --run\n'));
    assert.ok('help' in parseBenchArgs(['--help']));
  });

  test('parseBenchArgs: --lighthouse-runs N and repeatable --page /path/ (each path once); bad values are refused', () => {
    const parsed = parseBenchArgs([
      '--lighthouse-runs',
      '5',
      '--page',
      '/claude-code/bash/',
      '--page=/codex/',
      '--page',
      '/claude-code/bash/',
    ]);
    assert.ok(!('error' in parsed) && !('help' in parsed));
    assert.equal(parsed.lighthouseRuns, 5);
    assert.deepEqual(parsed.pages, ['/claude-code/bash/', '/codex/']);
    assert.ok(DEFAULT_LIGHTHOUSE_RUNS > 1, 'one Lighthouse run is too noisy to be the default');
    for (const bad of ['0', '1.5', 'x']) {
      const r = parseBenchArgs(['--lighthouse-runs', bad]);
      assert.ok('error' in r && r.error.startsWith('--lighthouse-runs needs a whole number'), bad);
    }
    for (const bad of [
      'claude-code/bash/',
      '/claude-code/bash',
      '/../etc/',
      '/a/../b/',
      'http://x/',
      '/a?b=1/',
      '/a#b/',
      '//x/',
    ]) {
      const r = parseBenchArgs(['--page', bad]);
      assert.ok('error' in r && r.error.startsWith('--page needs a site path'), bad);
    }
    assert.ok('error' in parseBenchArgs(['--page']));
    assert.ok('error' in parseBenchArgs(['--page', '--keep']));
  });

  test('parseBenchArgs: --before REV names a revision to build beside the checkout, none builds none; options and ranges are refused', () => {
    const before = (argv: string[]) => {
      const r = parseBenchArgs(argv);
      return 'error' in r || 'help' in r ? r : r.before;
    };
    assert.deepEqual(before(['--before', 'HEAD~3']), { revision: 'HEAD~3', explicit: true });
    assert.deepEqual(before(['--before=v1.2.0']), { revision: 'v1.2.0', explicit: true });
    assert.deepEqual(before(['--before', 'origin/main']), { revision: 'origin/main', explicit: true });
    assert.equal(before(['--before', 'none']), null);
    for (const bad of ['--keep', '-n', 'a..b', 'a b', '$(x)', '']) {
      const r = parseBenchArgs(['--before', bad]);
      assert.ok('error' in r && r.error.startsWith('--before needs a git revision'), bad);
    }
    assert.match(
      DEFAULT_BEFORE,
      /^[0-9a-f]{40}$/,
      'the default is a full commit, which no later branch or tag can shadow',
    );
  });

  test('medianScores: each figure is the median of the runs that gave it; a failed run (nulls) is left out', () => {
    const run = (performance: number | null, tbt: number | null): Scores => ({
      performance,
      accessibility: 100,
      'best-practices': 100,
      seo: performance === null ? null : 100,
      lcp: 1000,
      tbt,
    });
    const m = medianScores([run(80, 700), run(90, 300), run(null, null), run(85, 450.5)]);
    assert.equal(m.performance, 85);
    assert.equal(m.tbt, 450.5, 'timings keep their fraction');
    assert.equal(m.seo, 100);
    assert.equal(m.accessibility, 100, 'a failed run gives no value but the others still count');
    assert.equal(
      medianScores([run(81, 1), run(84, 2)]).performance,
      83,
      'a score is rounded to whole points (82.5 → 83)',
    );
    assert.deepEqual(medianScores([run(null, null)]).performance, null);
    assert.deepEqual(medianScores([]).tbt, null);
  });

  test('buildOrder with a revision before: this site, the baseline, then that revision, round after round', () => {
    assert.deepEqual(
      buildOrder(2, true).map((s) => `${s.run}${s.key}`),
      ['1site', '1baseline', '1before', '2site', '2baseline', '2before'],
    );
  });

  test('renderTable: the two sides can be headed otherwise (this checkout against a revision)', () => {
    const header = renderTable([{ metric: 'history events', unit: 'count', site: 20, baseline: 5 }], {
      site: 'this checkout',
      baseline: 'abc123',
    }).split('\n');
    assert.equal(header[0]!.replace(/ +/g, ' '), 'metric this checkout abc123 ratio');
    assert.equal(header[1]!.replace(/ +/g, ' '), 'history events 20 5 4.00×');
  });

  test("exportRevision: the project as committed at a revision, with the checkout's node_modules; historyEventCount counts its events", () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-rev-'));
    try {
      const repo = join(dir, 'repo');
      const git = (...args: string[]) =>
        execFileSync('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@127.0.0.1', ...args], {
          encoding: 'utf8',
        }).trim();
      mkdirSync(join(repo, 'content/history'), { recursive: true });
      mkdirSync(join(repo, 'node_modules/dep'), { recursive: true });
      writeFileSync(join(repo, 'node_modules/dep/index.js'), 'export {};\n');
      writeFileSync(join(repo, '.gitignore'), 'node_modules/\n');
      writeFileSync(join(repo, 'package.json'), '{"dependencies":{"astro":"7.0.0"}}\n');
      writeFileSync(join(repo, 'content/history/a.json'), JSON.stringify({ events: [{}, {}] }));
      git('init', '-q');
      git('add', '-A');
      git('commit', '-qm', 'first');
      const first = git('rev-parse', 'HEAD');
      writeFileSync(join(repo, 'package.json'), '{"dependencies":{"astro":"7.1.0"}}\n');
      writeFileSync(join(repo, 'content/history/a.json'), JSON.stringify({ events: [{}, {}, {}] }));
      writeFileSync(join(repo, 'content/history/b.json'), JSON.stringify({ events: [{}] }));
      git('add', '-A');
      git('commit', '-qm', 'second');
      writeFileSync(join(repo, 'content/history/c.json'), JSON.stringify({ events: [{}, {}] })); // not committed

      const out = join(dir, 'before');
      const exported = exportRevision(repo, 'HEAD~1', out);
      assert.equal(exported.commit, first);
      assert.equal(exported.otherDependencies, true, 'astro 7.0.0 there, 7.1.0 here');
      assert.equal(readFileSync(join(out, 'package.json'), 'utf8'), '{"dependencies":{"astro":"7.0.0"}}\n');
      assert.ok(existsSync(join(out, 'node_modules/dep/index.js')), "the checkout's node_modules");
      assert.ok(!existsSync(join(out, '.git')));
      assert.equal(historyEventCount(out), 2);
      assert.equal(historyEventCount(repo), 6, 'the working tree, uncommitted files included');
      assert.equal(historyEventCount(join(dir, 'nowhere')), 0);
      assert.equal(exportRevision(repo, 'HEAD', join(dir, 'head')).otherDependencies, false);
      assert.ok(!existsSync(join(dir, 'head/content/history/c.json')), 'only what was committed');
      assert.throws(
        () => exportRevision(repo, 'no-such-branch', join(dir, 'x')),
        /--before no-such-branch: this clone has no such commit/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('buildOrder: this site then the baseline, pair after pair', () => {
    assert.deepEqual(buildOrder(1), [
      { run: 1, key: 'site' },
      { run: 1, key: 'baseline' },
    ]);
    assert.deepEqual(
      buildOrder(3).map((s) => `${s.run}${s.key[0]}`),
      ['1s', '1b', '2s', '2b', '3s', '3b'],
    );
    assert.throws(() => buildOrder(0), RangeError);
    assert.throws(() => buildOrder(1.5), RangeError);
  });

  test('median: the middle value, the mean of the two middle ones for an even count, whatever the order', () => {
    assert.equal(median([7]), 7);
    assert.equal(median([3, 1, 2]), 2);
    assert.equal(median([40, 10, 30, 20]), 25);
    assert.equal(median([5, 5, 1, 9, 5]), 5);
    assert.equal(median([2, 1]), 1.5);
    // Numbers, not strings: 10 sorts after 9.
    assert.equal(median([9, 10, 100]), 10);
    assert.throws(() => median([]), RangeError);
    const input = [3, 1, 2];
    median(input);
    assert.deepEqual(input, [3, 1, 2], 'the input is left in its order');
  });

  test('summarizeBuildTimes: per-run ratios and their median, which need not equal the ratio of the medians', () => {
    // Run ratios 40/20 = 2, 30/30 = 1, 33/22 = 1.5 → median 1.5; medians 33 and 22 → 1.5 as well here.
    const a = summarizeBuildTimes([40, 30, 33], [20, 30, 22]);
    assert.deepEqual(a.ratios, [2, 1, 1.5]);
    assert.equal(a.medianSite, 33);
    assert.equal(a.medianBaseline, 22);
    assert.equal(a.medianRatio, 1.5);
    // Ratios 10/10 = 1, 40/10 = 4, 20/40 = 0.5 → median 1; medians 20 and 10 → 2.
    const b = summarizeBuildTimes([10, 40, 20], [10, 10, 40]);
    assert.deepEqual(b.ratios, [1, 4, 0.5]);
    assert.equal(b.medianRatio, 1);
    assert.equal(b.medianSite / b.medianBaseline, 2);
    assert.throws(() => summarizeBuildTimes([1, 2], [1]), RangeError);
    assert.throws(() => summarizeBuildTimes([1], [0]), RangeError);
  });

  test('buildTimeRows: one run keeps the single row; more runs give each run, the medians and the median ratio', () => {
    assert.deepEqual(buildTimeRows(summarizeBuildTimes([40_000], [23_100])), [
      { metric: 'build time (wall clock, one run)', unit: 'ms', site: 40_000, baseline: 23_100 },
    ]);
    const rows = buildTimeRows(summarizeBuildTimes([10_000, 40_000, 20_000], [10_000, 10_000, 40_000]));
    assert.deepEqual(
      rows.map((r) => [r.metric, r.site, r.baseline, rowRatio(r)]),
      [
        ['build time, run 1 of 3', 10_000, 10_000, 1],
        ['build time, run 2 of 3', 40_000, 10_000, 4],
        ['build time, run 3 of 3', 20_000, 40_000, 0.5],
        ['build time (wall clock, median of 3 runs)', 20_000, 10_000, 2],
        ['build time: median of the 3 per-run ratios', null, null, 1],
      ],
    );
    // In the table the median ratio's row has blank figures; in the JSON, nulls and its own ratio.
    const table = renderTable(rows).split('\n');
    assert.equal(table.at(-1)!.replace(/ +/g, ' '), 'build time: median of the 3 per-run ratios 1.00×');
    assert.equal(table.at(-2)!.replace(/ +/g, ' '), 'build time (wall clock, median of 3 runs) 20.0 s 10.0 s 2.00×');
    assert.deepEqual(jsonRows(rows).at(-1), {
      metric: 'build time: median of the 3 per-run ratios',
      unit: 'ms',
      site: null,
      baseline: null,
      ratio: 1,
    });
  });

  test('buildLeftovers: only paths inside the temp project, its output first', () => {
    const paths = buildLeftovers('/tmp/bench-x/site', '/tmp/bench-x/site/dist');
    assert.equal(paths[0], '/tmp/bench-x/site/dist');
    assert.deepEqual(paths.slice(1).sort(), [
      '/tmp/bench-x/site/.astro',
      '/tmp/bench-x/site/.bench-cache',
      '/tmp/bench-x/site/node_modules/.astro',
      '/tmp/bench-x/site/node_modules/.vite',
    ]);
  });
});

describe('baseline pages read from the built site (scripts/lib/bench/from-html.ts)', () => {
  const page = (content: string, title = 'A page') =>
    `<!doctype html><html><head><title>x</title></head><body><header><h1 id="_top">${title}</h1></header><main><div class="sl-markdown-content">${content}</div></main></body></html>`;

  test('headings, paragraphs, lists, tables and code survive, as text; the title and URL come from the page', async () => {
    const html = page(
      '<h2 id="events">Events</h2><p>Fires <code>before</code> a <a href="/x/">call</a> &lt;tool&gt;.</p>' +
        '<ul><li>one</li><li>two <em>words</em></li></ul><table><thead><tr><th>Event</th><th>When</th></tr></thead><tbody><tr><td>Pre|Tool</td><td>before</td></tr></tbody></table>' +
        '<pre><code>line 1\n```\nline 3</code></pre><details><summary>More</summary><p>Hidden text.</p></details><script>ignored()</script>',
      'Hooks of &lt;X&gt;',
    );
    const md = markdownFromHtml(html, '/agent/hooks/')!;
    assert.equal(md.file, 'agent/hooks.md');
    assert.match(md.text, /^---\ntitle: "Hooks of <X>"\nslug: "agent\/hooks"\n---\n/);
    assert.ok(!md.text.includes('ignored()'), 'scripts are not content');
    const processor = await createSatteriMarkdownProcessor({ syntaxHighlight: false, smartypants: false });
    const rendered = (await processor.render(md.text.replace(/^---[\s\S]*?---\n/, ''))).code;
    assert.match(rendered, /<h2[^>]*>Events<\/h2>/);
    assert.match(rendered, /<li>two words<\/li>/);
    assert.match(rendered, /<td>Pre\|Tool<\/td>/, 'a pipe in a cell stays in its cell');
    assert.match(
      rendered,
      /<pre><code[^>]*>line 1\n``\u200b`\nline 3\n<\/code><\/pre>/,
      'a fence inside code does not end the block',
    );
    assert.match(rendered, /Fires before a call &lt;tool&gt;\./, 'text that looks like HTML stays text');
    assert.match(rendered, /<p>Hidden text\.<\/p>/);
  });

  test('a page without a content column gives no Markdown page', () => {
    assert.equal(markdownFromHtml('<html><body><main><p>x</p></main></body></html>', '/a/'), undefined);
  });

  test('URLs: a page file or its slug, and the built pages of a site without redirects, assets or the index', () => {
    assert.equal(markdownUrl({ file: 'index.md', text: '---\ntitle: "x"\n---\n' }), '/');
    assert.equal(markdownUrl({ file: 'codex/index.md', text: '' }), '/codex/');
    assert.equal(
      markdownUrl({ file: 'codex/clock.curr_time.md', text: '---\ntitle: "t"\nslug: "codex/clock.curr_time"\n---\n' }),
      '/codex/clock.curr_time/',
    );
    const dist = mkdtempSync(join(tmpdir(), 'bench-urls-'));
    try {
      const write = (rel: string, text: string) => {
        mkdirSync(join(dist, rel, '..'), { recursive: true });
        writeFileSync(join(dist, rel), text);
      };
      write('index.html', '<p>home</p>');
      write('a/b/index.html', '<p>page</p>');
      write('old/index.html', '<!doctype html><meta http-equiv="refresh" content="0;url=/a/b/">');
      write('_astro/x/index.html', '<p>asset</p>');
      write('pagefind/index.html', '<p>index</p>');
      write('404.html', '<p>missing</p>');
      assert.deepEqual(builtPageUrls(dist), ['/', '/a/b/']);
    } finally {
      rmSync(dist, { recursive: true, force: true });
    }
  });
});

describe('what the baseline reads from the site build', () => {
  test("a tool page's recorded calls: each scenario's outcome, description as Markdown, configuration and blocks in order", () => {
    // Markup as src/components/Examples.astro writes it.
    const html = `<main><section class="example" id="example-deny-rm" data-pagefind-ignore>
      <h3 id="example-deny-rm_title">deny-rm <span class="example-outcome denied">denied</span></h3>
      <p>A hook denies <code>rm -rf</code> *now* <span class="example-source">(configuration <code>print</code>)</span></p>
      <details class="example-calls"><summary>1 call</summary><p class="example-source">The whole payload.</p>
        <div class="example-call"><p class="example-call-label">Call 1 of 1</p>
          <div class="example-block"><p class="example-block-title">Input the model sent</p><pre class="payload"><code>{
  "command": "rm -rf /tmp/x &lt;y&gt;"
}</code></pre></div>
          <div class="example-block"><p class="example-block-title">Result the model got</p><pre class="payload"><code>{"not": "pretty"}</code></pre></div>
          <details class="example-more"><summary>PreToolUse hook, standard input</summary><pre class="payload"><code>[
  1
]</code></pre></details>
        </div></details></section>
      <section class="other"><h3>not an example</h3></section></main>`;
    assert.deepEqual(examplesFromHtml(html), [
      {
        scenario: 'deny-rm',
        expect: 'denied',
        description: 'A hook denies `rm -rf` \\*now\\*',
        configuration: 'print',
        parts: [
          {
            title: 'Input the model sent',
            text: '{\n  "command": "rm -rf /tmp/x <y>"\n}',
            lang: 'json',
            highlighted: true,
          },
          { title: 'Result the model got', text: '{"not": "pretty"}', lang: 'text', highlighted: true },
          { title: 'PreToolUse hook, standard input', text: '[\n  1\n]', lang: 'json', highlighted: false },
        ],
      },
    ]);
    assert.deepEqual(examplesFromHtml('<main><p>none</p></main>'), []);
  });

  test('the sidebar: links and groups with their labels, a group collapsed unless open on the page; none is an error', () => {
    // Markup as Starlight's sidebar writes it.
    const html = `<nav><ul class="top-level astro-x"><li><a href="/" aria-current="page" class="large"><span>Home</span></a></li>
      <li><details><summary><span class="group-label"><span class="large">Claude Code</span></span><svg class="caret"></svg></summary>
        <ul><li><a href="/claude-code/"><span>Overview</span></a></li>
          <li><details open><summary><span class="group-label"><span>Built in</span></span></summary>
            <ul><li><a href="/claude-code/bash/"><span>Bash</span></a></li></ul></details></li></ul></details></li></ul></nav>`;
    assert.deepEqual(sidebarFromHtml(html), [
      { label: 'Home', link: '/' },
      {
        label: 'Claude Code',
        collapsed: true,
        items: [
          { label: 'Overview', link: '/claude-code/' },
          { label: 'Built in', collapsed: false, items: [{ label: 'Bash', link: '/claude-code/bash/' }] },
        ],
      },
    ]);
    assert.throws(() => sidebarFromHtml('<main></main>'), /no sidebar/);
  });
});
