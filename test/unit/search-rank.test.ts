/**
 * Search results in the order of the typed spelling (src/lib/views/search-rank.ts)
 * and what the pages give search (src/lib/views/search.ts), on results made up
 * here: each expected order is written out by hand or computed by a plain
 * sort, not by the module's own partition.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AGENT_IDS, AGENT_PRODUCTS } from '../../src/lib/agents/index.ts';
import {
  agentOfFilters,
  answerTo,
  exactSpellingFirst,
  fieldRowsFirst,
  inAgentOrder,
  pastNames,
  rankedSearch,
  spelledNames,
  subResultFieldNames,
} from '../../src/lib/views/search-rank.ts';
import {
  agentFilter,
  agentOrder,
  hooksSearchFields,
  rankedPagefindSource,
  searchFields,
  searchImportMap,
} from '../../src/lib/views/search.ts';

/** A sub-result: a field row's (an anchor such as `#input.x`) or a heading's. */
interface Sub {
  title: string;
  url: string;
}

/**
 * A result of a page answering to `names`, with sub-results, its agent filter value when given, a label to read orders
 * by and a count of data loads.
 */
function result(label: string, names: string[] | string | undefined, subs: Sub[] = [], agent?: string) {
  const r = {
    label,
    loads: 0,
    async data() {
      r.loads++;
      const meta = names === undefined ? {} : { spelled: typeof names === 'string' ? names : JSON.stringify(names) };
      return { meta, sub_results: subs, ...(agent === undefined ? {} : { filters: { agent: [agent] } }) };
    },
  };
  return r;
}
const row = (page: string, anchor: string, title: string): Sub => ({
  title,
  url: `${page}#${encodeURIComponent(anchor)}`,
});
const labels = (rs: { label: string }[]) => rs.map((r) => r.label);

test('the typed spelling first, then the same name in other spellings, then the rest, each in the order search gave', async () => {
  const results = [
    result('a', ['bash']),
    result('b', ['bash']),
    result('C', ['Bash', 'BashInput']),
    result('x', ['read_bash']),
    result('y', ['Bash']),
    result('v', ['bash']),
    result('w', ['Bash']),
  ];
  const order = ['a', 'b', 'C', 'x', 'y', 'v', 'w'];
  assert.deepEqual(labels(await exactSpellingFirst('Bash', results)), ['C', 'y', 'w', 'a', 'b', 'v', 'x']);
  assert.deepEqual(
    labels(await exactSpellingFirst('bash', results)),
    ['a', 'b', 'v', 'C', 'y', 'w', 'x'],
    'a page of the name after one of another name still comes up',
  );
  assert.deepEqual(
    labels(await exactSpellingFirst('  Bash  ', results)),
    ['C', 'y', 'w', 'a', 'b', 'v', 'x'],
    'the typed term is trimmed',
  );
  assert.deepEqual(
    labels(await exactSpellingFirst('BASH', results)),
    ['a', 'b', 'C', 'y', 'v', 'w', 'x'],
    'no page spelled so: the pages of the name in any case first',
  );
  assert.deepEqual(labels(await exactSpellingFirst('BashInput', results)), ['C', 'a', 'b', 'x', 'y', 'v', 'w']);
  assert.deepEqual(labels(await exactSpellingFirst('zsh', results)), order, 'no page answers to it: the order stays');
  assert.deepEqual(labels(await exactSpellingFirst('', results)), order);
});

test('pages with a field of the typed name come right after the pages of that name; only field rows count', async () => {
  const results = [
    result('edit', ['Edit'], [row('/a/edit/', 'input.new_string', 'new_string')]),
    result(
      'multi',
      ['MultiEdit'],
      [row('/a/multi/', 'input.edits', 'edits[]'), row('/a/multi/', 'input.edits[].new_string', 'edits[].new_string')],
    ),
    result('heading', ['notes'], [{ title: 'new_str', url: '/a/notes/#new_str' }]),
    result('replace', ['replace'], [row('/b/replace/', 'config-pro-yolo.input.new_str', 'new_str')]),
    result('str', ['new_str_tool']),
    result('copilot', ['edit'], [row('/c/edit/', 'input.new_str', 'new_str')]),
    result('variant', ['Artifact'], [row('/a/artifact/', 'output:+url.new_str', '(variant 1 (object)).new_str')]),
  ];
  assert.deepEqual(labels(await exactSpellingFirst('new_str', results)), [
    'replace',
    'copilot',
    'variant',
    'edit',
    'multi',
    'heading',
    'str',
  ]);
  assert.deepEqual(
    labels(await exactSpellingFirst('NEW_STR', results)),
    ['replace', 'copilot', 'variant', 'edit', 'multi', 'heading', 'str'],
    'a field name in any case',
  );
  assert.deepEqual(
    labels(await exactSpellingFirst('edits', results)),
    ['multi', 'edit', 'heading', 'replace', 'str', 'copilot', 'variant'],
    'a field that holds a list: its path ends in []',
  );
  assert.deepEqual(
    labels(await exactSpellingFirst('edit', results)),
    ['copilot', 'edit', 'multi', 'heading', 'replace', 'str', 'variant'],
    'a name comes before a field',
  );
});

test('only the first ten results are read for fields and names; a run of pages of the typed name is read to its end', async () => {
  const filler = Array.from({ length: 12 }, (_, i) => result(`f${i}`, ['other']));
  const late = result('late', ['x'], [row('/x/', 'input.late_field', 'late_field')]);
  const results = [...filler.slice(0, 10), late, ...filler.slice(10)];
  assert.deepEqual(
    labels(await exactSpellingFirst('late_field', results)),
    labels(results),
    'the eleventh result is not read',
  );
  assert.deepEqual(
    results.map((r) => r.loads > 0),
    results.map((_, i) => i < 10),
    'nothing past the first ten is loaded',
  );
  const early = [...filler.slice(0, 9), late, ...filler.slice(9)];
  assert.deepEqual(
    labels(await exactSpellingFirst('late_field', early)),
    ['late', ...labels(filler)],
    'the tenth result is read',
  );
});

test('a leading run longer than one batch of loads is read to its end, and each page is compared by every name it answers to', async () => {
  // Twelve pages of one name in mixed spellings, then another name: the reference is a stable sort on "spelled as
  // typed".
  const spellings = ['edit', 'Edit', 'EDIT', 'edit', 'Edit', 'edit', 'eDit', 'edit', 'Edit', 'edit', 'edit', 'Edit'];
  const results = [...spellings.map((s, i) => result(`${s}#${i}`, ['Other', s])), result('z', ['zed'])];
  for (const typed of ['Edit', 'edit', 'eDit']) {
    const expected = [...labels(results.slice(0, -1))].sort(
      (p, q) => Number(!p.startsWith(`${typed}#`)) - Number(!q.startsWith(`${typed}#`)),
    );
    assert.deepEqual(labels(await exactSpellingFirst(typed, results)), [...expected, 'z'], typed);
  }
  assert.deepEqual(
    labels(await exactSpellingFirst('Other', results)),
    labels(results),
    'every page answers to it exactly: the order stays',
  );
});

test("the tie rule: pages of the typed spelling, then of the name in another case, each in the agents' given order, an agent's own pages and pages of no agent in search's order", async () => {
  // Agents p, q, r in that order; results as search might give them, the later agent first.
  const order = ['p', 'q', 'r'];
  const results = [
    result('r:Stop', ['Stop'], [], 'r'),
    result('x:Stop', ['Stop'], [], 'x'),
    result('q:stop', ['stop'], [], 'q'),
    result('none:Stop', ['Stop']),
    result('p:Stop', ['Stop'], [], 'p'),
    result('p:stop', ['stop'], [], 'p'),
    result('r:other', ['other'], [], 'r'),
    result('p:Stop#2', ['Other', 'Stop'], [], 'p'),
  ];
  assert.deepEqual(labels(await exactSpellingFirst('Stop', results, order)), [
    'p:Stop',
    'p:Stop#2',
    'r:Stop',
    'x:Stop',
    'none:Stop',
    'p:stop',
    'q:stop',
    'r:other',
  ]);
  assert.deepEqual(labels(await exactSpellingFirst('stop', results, order)), [
    'p:stop',
    'q:stop',
    'p:Stop',
    'p:Stop#2',
    'r:Stop',
    'x:Stop',
    'none:Stop',
    'r:other',
  ]);
  assert.deepEqual(
    labels(await exactSpellingFirst('Stop', results, [...order].reverse())),
    ['r:Stop', 'p:Stop', 'p:Stop#2', 'x:Stop', 'none:Stop', 'q:stop', 'p:stop', 'r:other'],
    'the order given decides, not the labels',
  );
  assert.deepEqual(
    labels(await exactSpellingFirst('Stop', results)),
    ['r:Stop', 'x:Stop', 'none:Stop', 'p:Stop', 'p:Stop#2', 'q:stop', 'p:stop', 'r:other'],
    "no order given: search's order within each group",
  );
  const fields = [
    result('r:f', ['a'], [row('/r/a/', 'input.stop', 'stop')], 'r'),
    result('p:f', ['b'], [row('/p/b/', 'input.stop', 'stop')], 'p'),
  ];
  assert.deepEqual(
    labels(await exactSpellingFirst('stop', fields, order)),
    ['r:f', 'p:f'],
    "pages that only have a field of the name keep search's order",
  );
});

test('the tie rule: a page whose tool has the name now comes before pages that answer to it as a past name, whatever their agents', async () => {
  const order = ['p', 'q', 'r'];
  const was = (name: string) => ({ was: name });
  const spelled = (...names: (string | { was: string })[]) => JSON.stringify(names);
  const results = [
    result('p:removed', spelled(was('TaskOutput')), [], 'p'),
    result('q:renamed', spelled('task_output', was('TaskOutput')), [], 'q'),
    result('r:now', spelled('TaskOutput'), [], 'r'),
    result('q:now-lower', spelled('taskoutput'), [], 'q'),
    result('p:was-lower', spelled('Other', was('taskoutput')), [], 'p'),
  ];
  assert.deepEqual(labels(await exactSpellingFirst('TaskOutput', results, order)), [
    'r:now',
    'p:removed',
    'q:renamed',
    'q:now-lower',
    'p:was-lower',
  ]);
  assert.deepEqual(labels(await exactSpellingFirst('taskoutput', results, order)), [
    'q:now-lower',
    'p:was-lower',
    'r:now',
    'p:removed',
    'q:renamed',
  ]);
  assert.deepEqual(answerTo({ spelled: spelled('Read', was('View')) }, 'View'), { spelledSo: true, past: true });
  assert.deepEqual(answerTo({ spelled: spelled('Read', was('View')) }, 'read'), { spelledSo: false, past: false });
  assert.deepEqual(
    answerTo({ spelled: spelled('read', was('Read')) }, 'Read'),
    { spelledSo: true, past: true },
    'spelled so only in the past',
  );
  assert.equal(answerTo({ spelled: spelled('Read') }, 'Write'), undefined);
  assert.deepEqual(pastNames({ spelled: spelled('Read', was('View'), was('Cat')) }), ['View', 'Cat']);
  assert.deepEqual(pastNames({ spelled: '[{"was":1},{"is":"x"},null,"Read"]' }), []);
  assert.deepEqual(
    spelledNames({ spelled: spelled('Read', was('View')) }),
    ['Read'],
    'a past name is not one of the names now',
  );
});

test('inAgentOrder is a stable sort by place in the order, unknown agents last; agentOfFilters reads the first agent value', () => {
  const items = [
    { n: 1, a: 'c' },
    { n: 2, a: undefined },
    { n: 3, a: 'a' },
    { n: 4, a: 'z' },
    { n: 5, a: 'c' },
    { n: 6, a: 'a' },
  ];
  // Reference: the positions by hand (a = 0, c = 2, others 3), then a plain stable sort.
  const place: Record<string, number> = { a: 0, b: 1, c: 2 };
  const expected = [...items].sort((x, y) => (place[x.a ?? ''] ?? 3) - (place[y.a ?? ''] ?? 3)).map((i) => i.n);
  assert.deepEqual(expected, [3, 6, 1, 5, 2, 4]);
  assert.deepEqual(
    inAgentOrder(items, (i) => i.a, ['a', 'b', 'c']).map((i) => i.n),
    expected,
  );
  assert.deepEqual(
    inAgentOrder(items, (i) => i.a, []).map((i) => i.n),
    [1, 2, 3, 4, 5, 6],
  );
  assert.equal(agentOfFilters({ agent: ['Claude\u00a0Code', 'x'] }), 'Claude\u00a0Code');
  assert.equal(agentOfFilters({ agent: [] }), undefined);
  assert.equal(agentOfFilters({ agent: 'Claude Code' }), undefined);
  assert.equal(agentOfFilters({ agent: [3] }), undefined);
  assert.equal(agentOfFilters(undefined), undefined);
});

test("the order the wrapper module hands over is every agent's filter value, in registry order, each once", () => {
  const values = agentOrder();
  assert.equal(new Set(values).size, AGENT_IDS.length);
  assert.deepEqual(
    values.map((v) => AGENT_IDS.filter((id) => agentFilter(id) === v)),
    AGENT_IDS.map((id) => [id]),
  );
  const source = rankedPagefindSource('export async function rankedSearch() {}', ['a&b', '</script>']);
  assert.ok(source.includes(`const AGENT_ORDER = ${JSON.stringify(['a&b', '</script>'])};`), source);
  assert.ok(
    rankedPagefindSource('').includes(`const AGENT_ORDER = ${JSON.stringify(values)};`),
    "by default, the registry's",
  );
});

test('a hooks page answers to its events: lowercased for ranking, as spelled for the typed spelling, each once', () => {
  const [agent] = AGENT_IDS as [(typeof AGENT_IDS)[number]];
  const fields = hooksSearchFields(agent, ['PreToolUse', 'preToolUse', 'tool.execute.before', 'PreToolUse']);
  assert.equal(fields.names, 'pretooluse tool.execute.before');
  assert.deepEqual(JSON.parse(fields.spelled), ['PreToolUse', 'preToolUse', 'tool.execute.before']);
  assert.equal(fields.agent, agentFilter(agent));
  assert.deepEqual(hooksSearchFields(agent, []), { agent: agentFilter(agent), names: '', spelled: '[]' });
});

test('names are read as data: missing, malformed or non-string metadata answers to nothing', async () => {
  assert.deepEqual(spelledNames(undefined), []);
  assert.deepEqual(spelledNames({}), []);
  assert.deepEqual(spelledNames({ spelled: 'Bash' }), []);
  assert.deepEqual(spelledNames({ spelled: '{"0":"Bash"}' }), []);
  assert.deepEqual(spelledNames({ spelled: '["Bash",1,null,"</script>"]' }), ['Bash', '</script>']);
  const results = [result('a', undefined), result('b', 'not json'), result('c', ['Bash'])];
  assert.deepEqual(labels(await exactSpellingFirst('Bash', results)), ['c', 'a', 'b']);
});

test('field names are read from field rows only, and malformed sub-results answer to nothing', () => {
  assert.deepEqual(subResultFieldNames(undefined), []);
  assert.deepEqual(
    subResultFieldNames([
      { title: 'file_path', url: '/a/read/#input.file_path' },
      { title: 'structuredPatch[].lines[]', url: '/a/edit/#output.structuredPatch.lines' },
      { title: '(variant 2 (object)).owned', url: '/a/artifact/#output%3A%2Burl.owned' },
      { title: 'model', url: '/a/task/#config-signed-in-gpt-5-4.model-input.model' },
      { title: 'Input', url: '/a/read/#input' },
      { title: 'Examples', url: '/a/read/#examples' },
      { title: 42, url: '/a/read/#input.x' },
      { title: 'x', url: '/a/read/#input.%E0%A4%A' },
      { title: '', url: '/a/read/#input.y' },
    ]),
    ['file_path', 'lines', 'owned', 'model'],
  );
});

test("fieldRowsFirst: the row of the typed field outranks every other sub-result in the dialog's order (most matched words), on a copy", () => {
  const subs = [
    { title: 'Edit', url: '/c/edit/#_top', locations: [1, 5, 9, 12] },
    { title: 'Tool description as sent', url: '/c/edit/#model-description', locations: [20, 22, 25, 31, 40] },
    { title: 'Failures', url: '/c/edit/#lifecycle', locations: [50, 51] },
    { title: 'old_str', url: '/c/edit/#input.old_str', locations: [60] },
    { title: 'new_str', url: '/c/edit/#input.new_str', locations: [70] },
  ];
  const data = { url: '/c/edit/', sub_results: subs };
  const promoted = fieldRowsFirst('OLD_STR', data);
  // The dialog's own order: a stable sort on the count of matched words, three shown.
  const shown = [...promoted.sub_results]
    .sort((a, b) => b.locations.length - a.locations.length)
    .slice(0, 3)
    .map((x) => x.title);
  assert.equal(shown[0], 'old_str');
  assert.ok(!shown.includes('new_str'), 'another field row is not promoted');
  assert.deepEqual(data.sub_results[3]!.locations, [60], "Pagefind's data is left as it was");
  assert.equal(fieldRowsFirst('lifecycle', data), data, 'a heading is not a field row: nothing changes');
  assert.equal(fieldRowsFirst('', data), data);
  const bare = {
    sub_results: [
      { title: 'old_str', url: '/c/edit/#input.old_str' },
      { title: 'x', url: '/c/edit/#x', locations: [1, 2] },
    ],
  };
  assert.equal(
    fieldRowsFirst('old_str', bare).sub_results[0]!.locations?.length,
    3,
    'a row without locations still outranks the others',
  );
});

test('rankedSearch passes options through, reorders the results and keeps the rest of the answer', async () => {
  const results = [result('a', ['bash']), result('C', ['Bash'])];
  const seen: unknown[] = [];
  const search = async (term: string, options?: { filters: Record<string, string[]> }) => {
    seen.push([term, options]);
    return { results, filters: { agent: { x: 1 } }, unfilteredResultCount: 2 };
  };
  const options = { filters: { agent: ['x'] } };
  const found = await rankedSearch(search, 'Bash', options);
  assert.deepEqual(seen, [['Bash', options]]);
  assert.deepEqual(labels(found.results), ['C', 'a']);
  const tied = [result('r', ['Bash'], [], 'R'), result('p', ['Bash'], [], 'P')];
  const byAgent = await rankedSearch(async () => ({ results: tied }), 'Bash', undefined, ['P', 'R']);
  assert.deepEqual(labels(byAgent.results), ['p', 'r'], 'the agent order reaches the tie rule');
  assert.ok(Array.isArray((await found.results[0]!.data()).sub_results), 'each result still gives its data');
  assert.deepEqual(found.filters, { agent: { x: 1 } });
  assert.equal(found.unfilteredResultCount, 2);
  assert.equal(await rankedSearch(async () => null, 'Bash'), null);
});

test('what pages give search: the title names the release, the filter value is HTML, the names are JSON', () => {
  const [agent] = AGENT_IDS as [(typeof AGENT_IDS)[number]];
  const fields = searchFields(agent, ['Read', 'ReadInput'], 'Some CLI 1.2.3');
  assert.equal(fields.title, 'Read — Some CLI 1.2.3');
  assert.deepEqual(JSON.parse(fields.spelled), ['Read', 'ReadInput']);
  const renamed = searchFields(agent, ['Read'], 'Some CLI 1.2.3', ['View', 'Read']);
  assert.deepEqual(
    JSON.parse(renamed.spelled),
    ['Read', { was: 'View' }],
    'a past name that is also a name now is a name now',
  );
  assert.deepEqual(spelledNames({ spelled: renamed.spelled }), ['Read']);
  assert.deepEqual(pastNames({ spelled: renamed.spelled }), ['View']);
  const removed = searchFields(agent, [], 'Some CLI, removed in 1.2.0', ['Gone']);
  assert.equal(removed.title, 'Gone — Some CLI, removed in 1.2.0');
  assert.deepEqual(JSON.parse(removed.spelled), [{ was: 'Gone' }]);
  assert.equal(fields.agent, agentFilter(agent));
  for (const id of AGENT_IDS) {
    // Pagefind's UI writes a filter value as HTML: the value, read as HTML, is the product name, its spaces no-break
    // ones.
    const product = AGENT_PRODUCTS[id];
    const decoded = agentFilter(id).replace(
      /&(lt|gt|quot|#39|amp);/g,
      (_m, e: string) => ({ lt: '<', gt: '>', quot: '"', '#39': "'", amp: '&' })[e]!,
    );
    assert.equal(decoded.replaceAll('\u00a0', ' '), product);
    assert.doesNotMatch(agentFilter(id), /[<>"']/);
    // The UI's checkbox id is `agent-<value>`: an id holds no ASCII white space.
    assert.doesNotMatch(agentFilter(id), /[\t\n\f\r ]/);
  }
});

test("the import map sends Pagefind's module to the ranked one, which imports the real one, and no text closes its <script>", () => {
  const map = JSON.parse(searchImportMap()) as {
    imports: Record<string, string>;
    scopes: Record<string, Record<string, string>>;
  };
  const [[real, ranked]] = Object.entries(map.imports) as [[string, string]];
  assert.match(real, /\/pagefind\/pagefind\.js$/);
  assert.notEqual(ranked, real);
  const scopes = Object.entries(map.scopes).filter(([prefix]) => ranked.startsWith(prefix));
  assert.deepEqual(
    scopes.map(([, imports]) => imports[real]),
    [real],
    'inside the ranked module, Pagefind is Pagefind',
  );
  assert.ok(!real.startsWith(scopes[0]![0]), 'the scope does not hold Pagefind itself');
  assert.doesNotMatch(searchImportMap(), /</);
  const source = rankedPagefindSource('export async function rankedSearch() {}');
  assert.match(source, new RegExp(`export \\* from ${JSON.stringify(real).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')};`));
  assert.match(
    source,
    /export function search\(term, options\) \{ return rankedSearch\(pagefind\.search, term, options, AGENT_ORDER\); \}/,
  );
});
