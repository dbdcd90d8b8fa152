/**
 * The refresh workflow's pull request body (scripts/lib/refresh/summary.ts): the
 * releases and changes that are new in the working tree's histories, per agent,
 * and the diff statistics. Histories are written here by hand; the Markdown is
 * rendered by the processor Astro uses (satteri) and read with parse5, so what
 * is checked is what a reader sees.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createSatteriMarkdownProcessor } from '@astrojs/markdown-satteri';
import { parseFragment, type DefaultTreeAdapterMap } from 'parse5';
import { AGENT_IDS, type AgentId } from '../../src/lib/agents/index.ts';
import type { HistoryFile } from '../../src/lib/core/content-types.ts';
import { codeSpan, fencedBlock, historyMoves, refreshSummary } from '../../scripts/lib/refresh/summary.ts';

const [A, B] = AGENT_IDS as [AgentId, AgentId];
const products = { [A]: 'Product A', [B]: 'Product B' };

type Node = DefaultTreeAdapterMap['childNode'] | DefaultTreeAdapterMap['documentFragment'];
const textOf = (node: Node): string =>
  node.nodeName === '#text' && 'value' in node
    ? node.value
    : 'childNodes' in node
      ? node.childNodes.map(textOf).join('')
      : '';
function elements(node: Node, name?: string): DefaultTreeAdapterMap['element'][] {
  const own = 'tagName' in node && (name === undefined || node.tagName === name) ? [node] : [];
  return [...own, ...('childNodes' in node ? node.childNodes.flatMap((c) => elements(c, name)) : [])];
}
async function render(markdown: string): Promise<DefaultTreeAdapterMap['documentFragment']> {
  const md = await createSatteriMarkdownProcessor({ syntaxHighlight: false, smartypants: false });
  return parseFragment((await md.render(markdown)).code);
}

function capture(releases: string[], events: HistoryFile['events']): HistoryFile {
  return {
    agent: A,
    source: 'capture',
    package: 'cli',
    method: 'm',
    configurations: ['c'],
    releases: releases.map((version) => ({ version })),
    events,
  } as HistoryFile;
}
type HistoryEvent = HistoryFile['events'][number];
const event = (
  release: string,
  previous: string,
  tool: string,
  extra: { [K in keyof HistoryEvent]?: HistoryEvent[K] | undefined } = {},
): HistoryEvent => {
  const e = { release, previous, tool, kind: 'tool-added', configuration: 'c', ...extra };
  return Object.fromEntries(Object.entries(e).filter(([, v]) => v !== undefined)) as unknown as HistoryEvent;
};

test('moves: only releases and events not in the last commit, by release newest first; an agent that did not move is left out', () => {
  const old = event('1.1.0', '1.0.0', 'Old');
  const before = [capture(['1.0.0', '1.1.0'], [old]), { ...capture(['2.0.0'], []), agent: B }];
  const after = [
    capture(
      ['1.0.0', '1.1.0', '1.2.0', '1.10.0'],
      [
        old,
        event('1.2.0', '1.1.0', 'New'),
        event('1.10.0', '1.2.0', 'Newer'),
        event('1.1.0', '1.0.0', 'Late', { kind: 'available' }),
      ],
    ),
    { ...capture(['2.0.0'], []), agent: B },
    // A history file new since the last commit: an SDK release named by the CLI release it bundles.
    {
      agent: A,
      source: 'sdk',
      package: 'sdk',
      method: 'm',
      file: 'f.d.ts',
      releases: [
        { version: '0.1.0', cliVersion: '1.10.0' },
        { version: '0.2.0', cliVersion: '1.11.0' },
      ],
      events: [
        event('0.2.0', '0.1.0', 'Typed', {
          kind: 'field-added',
          side: 'input',
          field: '.x',
          path: 'x',
          to: 'string',
          configuration: undefined,
        }),
      ],
    } as HistoryFile,
  ];
  const moves = historyMoves(before, after);
  assert.deepEqual(
    moves.map((m) => m.agent),
    [A],
  );
  assert.deepEqual(moves[0]!.newReleases, ['1.2.0', '1.10.0', '1.11.0']);
  assert.deepEqual(
    moves[0]!.releases.map((r) => [r.release, r.changes.map((c) => c.tool)]),
    [
      ['1.11.0', ['Typed']],
      ['1.10.0', ['Newer']],
      ['1.2.0', ['New']],
      // A change found later in a release compared before is new too.
      ['1.1.0', ['Late']],
    ],
  );
});

test('summary: per agent the releases newly compared and each change under its release and comparison; then the diff statistics as written', async () => {
  const before = [capture(['1.0.0'], [])];
  const after = [
    capture(
      ['1.0.0', '1.1.0'],
      [
        event('1.1.0', '1.0.0', 'Read', {
          kind: 'type-changed',
          side: 'input',
          field: '.limit',
          path: 'limit',
          from: 'string',
          to: 'number',
        }),
        event('1.1.0', '1.0.0', 'Write'),
      ],
    ),
  ];
  const diffStat = ' content/history/x.json | 12 ++++\n 1 file changed, 12 insertions(+)';
  const markdown = refreshSummary({ before, after, products, diffStat });
  assert.equal(
    markdown,
    [
      '# Refresh',
      '',
      '## Product A',
      '',
      'Newly compared: 1 release (1.1.0); 2 changes found.',
      '',
      '### Product A 1.1.0: 2 changes',
      '',
      'Compared `cli: 1.0.0 → 1.1.0`:',
      '',
      '- `Read`: type changed `limit`: `string` → `number`',
      '- `Write`: tool added in `c`',
      '',
      '## Files changed',
      '',
      '```text',
      ' content/history/x.json | 12 ++++',
      ' 1 file changed, 12 insertions(+)',
      '```',
      '',
    ].join('\n'),
  );
  assert.equal(
    refreshSummary({ before: after, after, products, diffStat: '' }),
    '# Refresh\n\nNo release history moved.\n\n## Files changed\n\n```text\n(no change)\n```\n',
  );
});

test('summary: hostile tool names, paths and values read as text in the rendered Markdown', async () => {
  const name = 'x`</code><script>alert(1)</script>``[link](javascript:alert(2))';
  const path = 'a|b\n# heading <img src=x onerror=alert(3)>';
  const value = '`';
  const after = [
    capture(
      ['1.0.0', '1.1.0'],
      [event('1.1.0', '1.0.0', name, { kind: 'field-added', side: 'input', field: '.p', path, to: value })],
    ),
  ];
  const diffStat = ' content/tools/x/```evil.json | 1 +\n```\n<script>alert(4)</script>';
  const html = await render(refreshSummary({ before: [capture(['1.0.0'], [])], after, products, diffStat }));
  assert.deepEqual(
    elements(html)
      .filter((e) => ['script', 'img', 'a', 'h1'].includes(e.tagName) && !textOf(e).startsWith('Refresh'))
      .map((e) => e.tagName),
    [],
  );
  const items = elements(html, 'li');
  assert.equal(items.length, 1);
  assert.deepEqual(elements(items[0]!, 'code').map(textOf), [
    name,
    'a|b # heading <img src=x onerror=alert(3)>',
    value,
  ]);
  assert.equal(textOf(elements(html, 'pre')[0]!), `${diffStat}\n`);
});

test('code spans and fenced blocks hold any backticks', async () => {
  for (const text of ['plain', '`', 'a`b', '``x``', '`x` y'])
    assert.equal(textOf(elements(await render(codeSpan(text)), 'code')[0]!), text, text);
  assert.equal(codeSpan('a\u0000b\tc\r\nd'), '`a b c d`');
  assert.equal(textOf(elements(await render(fencedBlock('a\n````\nb')), 'pre')[0]!), 'a\n````\nb\n');
});

test('a long summary lists the newest changes and counts the rest, within the length given', () => {
  const events = Array.from({ length: 300 }, (_, i) => event('1.1.0', '1.0.0', `Tool${String(i).padStart(3, '0')}`));
  const markdown = refreshSummary({
    before: [capture(['1.0.0'], [])],
    after: [capture(['1.0.0', '1.1.0'], events)],
    products,
    diffStat: 'stat',
    maxLength: 2000,
  });
  assert.ok(markdown.length <= 2000, `${markdown.length} characters`);
  const listed = markdown.split('\n').filter((l) => l.startsWith('- ')).length;
  assert.ok(listed > 0 && listed < 300);
  assert.match(markdown, new RegExp(`… and ${300 - listed} more changes, left out`));
  assert.ok(markdown.endsWith('## Files changed\n\n```text\nstat\n```\n'));
});

test('a new change the history cannot place exactly says between which releases it came', () => {
  // 1.1.0 was not read: a change first seen in 1.2.0 came after 1.0.0, in 1.1.0 or 1.2.0.
  const after = {
    ...capture(['1.0.0', '1.1.0', '1.2.0'], [event('1.2.0', '1.0.0', 'Gap', { kind: 'description-changed' })]),
    releases: [{ version: '1.0.0' }, { version: '1.1.0', read: false }, { version: '1.2.0' }],
  } as HistoryFile;
  const markdown = refreshSummary({ before: [capture(['1.0.0'], [])], after: [after], products, diffStat: '' });
  assert.match(markdown, /- `Gap`: description changed in `c` \(changed between 1\.0\.0 and 1\.2\.0\)/);
  const exact = capture(['1.0.0', '1.1.0'], [event('1.1.0', '1.0.0', 'Next', { kind: 'description-changed' })]);
  assert.doesNotMatch(
    refreshSummary({ before: [capture(['1.0.0'], [])], after: [exact], products, diffStat: '' }),
    /between/,
  );
});
