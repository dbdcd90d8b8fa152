/**
 * The pure guards for untrusted text: names checked where they enter
 * (src/lib/content/names.ts), size bounds of content JSON
 * (src/lib/content/bounds.ts) and HTML escaping for the page title
 * (src/lib/core/html-text.ts), each checked against an independent reference.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseFragment } from 'parse5';
import { nameProblem, NAME_LENGTH } from '../../src/lib/content/names.ts';
import { boundProblems, CONTENT_BOUNDS } from '../../src/lib/content/bounds.ts';
import { escapeHtmlText } from '../../src/lib/core/html-text.ts';

test('names: markup, dots, spaces and non-Latin letters are printable; controls, format and line-separator characters are not', () => {
  for (const ok of [
    'Bash',
    'mcp__<server>__<tool>',
    'multi_agent_v1.spawn_agent',
    'x</title><script>',
    'Run a shell command',
    '読む',
    '-B',
  ]) {
    assert.equal(nameProblem(ok), undefined, ok);
  }
  for (const [bad, why] of [
    ['', /is empty/],
    ['a\nb', /U\+000A at position 1/],
    ['a\u0000', /U\+0000/],
    ['\u202Eevil', /U\+202E at position 0/],
    ['zero\u200Bwidth', /U\+200B/],
    ['line\u2028sep', /U\+2028/],
    ['para\u2029sep', /U\+2029/],
    ['lone\uD800', /U\+D800/],
    [' padded', /white space/],
    ['padded\u00A0', /white space/],
  ] as const) {
    assert.match(nameProblem(bad) ?? 'accepted', why, JSON.stringify(bad));
  }
  // Length counts characters, not UTF-16 units: 128 emoji are fine, 129 are not.
  assert.equal(nameProblem('😀'.repeat(NAME_LENGTH.name)), undefined);
  assert.match(nameProblem('😀'.repeat(NAME_LENGTH.name + 1)) ?? '', /has 129 characters; at most 128/);
});

test('bounds: the first place each bound is broken, found without recursion', () => {
  // 200,000 levels would overflow any recursive walk (and JSON.stringify): built as text, parsed by V8's iterative
  // parser.
  const deep = JSON.parse('['.repeat(200_000) + ']'.repeat(200_000));
  assert.deepEqual(
    boundProblems(deep).map((p) => [p.rule, p.pointer.split('/').length - 1]),
    [['json-depth', CONTENT_BOUNDS.depth]],
  );
  const atLimit = JSON.parse('['.repeat(CONTENT_BOUNDS.depth) + ']'.repeat(CONTENT_BOUNDS.depth));
  assert.deepEqual(boundProblems(atLimit), [], 'exactly the bound is allowed');
  const data = {
    a: ['ok', 'x'.repeat(CONTENT_BOUNDS.stringLength + 1)],
    b: { ['k'.repeat(CONTENT_BOUNDS.keyLength + 1)]: 1 },
    c: 'y'.repeat(CONTENT_BOUNDS.stringLength + 5),
  };
  assert.deepEqual(
    boundProblems(data).map((p) => [p.rule, p.pointer.slice(0, 6)]),
    [
      ['json-string-length', '/a/1'],
      ['json-key-length', '/b/kkk'],
    ],
    'one problem per rule, the first in document order',
  );
  assert.deepEqual(
    boundProblems({ fine: ['x'.repeat(CONTENT_BOUNDS.stringLength)], ['k'.repeat(CONTENT_BOUNDS.keyLength)]: null }),
    [],
  );
});

test('escapeHtmlText: an HTML parser reads back exactly the text, as one text node, in a title and in an attribute', () => {
  const texts = [
    'x</title><script>window.__pwned=1</script>',
    `"'&amp;<img src=x onerror=alert(1)>`,
    'plain',
    '&lt;already escaped&gt;',
  ];
  for (const text of texts) {
    const title = parseFragment(`<title>${escapeHtmlText(text)}</title>`).childNodes[0] as any;
    assert.equal(title.childNodes.length, 1);
    assert.equal(title.childNodes[0].value, text);
    const div = parseFragment(`<div title="${escapeHtmlText(text)}"></div>`).childNodes[0] as any;
    assert.deepEqual(div.attrs, [{ name: 'title', value: text }]);
  }
});
