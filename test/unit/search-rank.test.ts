/**
 * Search results in the order of the typed spelling (src/lib/search-rank.ts)
 * and what the pages give search (src/lib/search.ts), on results made up
 * here: each expected order is written out by hand or computed by a plain
 * sort, not by the module's own partition.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AGENT_IDS, AGENT_PRODUCTS } from '../../src/lib/agents/index.ts';
import { exactSpellingFirst, rankedSearch, spelledNames } from '../../src/lib/search-rank.ts';
import { agentFilter, rankedPagefindSource, searchFields, searchImportMap } from '../../src/lib/search.ts';

/** A result of a page answering to `names`, with a label to read orders by and a count of data loads. */
function result(label: string, names: string[] | string | undefined) {
  const r = {
    label,
    loads: 0,
    async data() {
      r.loads++;
      return { meta: names === undefined ? {} : { spelled: typeof names === 'string' ? names : JSON.stringify(names) } };
    },
  };
  return r;
}
const labels = (rs: { label: string }[]) => rs.map((r) => r.label);

test('the typed spelling first, then the same name in other spellings, in the order search gave', async () => {
  const results = [result('a', ['bash']), result('b', ['bash']), result('C', ['Bash', 'BashInput']), result('x', ['read_bash']), result('y', ['Bash']), result('v', ['bash']), result('w', ['Bash'])];
  const order = ['a', 'b', 'C', 'x', 'y', 'v', 'w'];
  assert.deepEqual(labels(await exactSpellingFirst('Bash', results)), ['C', 'a', 'b', 'x', 'y', 'v', 'w'], 'only the leading run is reordered: y comes after a result of another name');
  assert.deepEqual(labels(await exactSpellingFirst('bash', results)), order);
  assert.deepEqual(labels(await exactSpellingFirst('  Bash  ', results)), ['C', 'a', 'b', 'x', 'y', 'v', 'w'], 'the typed term is trimmed');
  assert.deepEqual(labels(await exactSpellingFirst('BASH', results)), order, 'no page spelled so: the order stays');
  assert.deepEqual(labels(await exactSpellingFirst('BashInput', results)), order, 'the first result does not answer to it: the order stays');
  assert.deepEqual(labels(await exactSpellingFirst('', results)), order);
  assert.deepEqual(results.map((r) => r.loads > 0), [true, true, true, true, true, false, false], 'past the batch where the run ends, nothing is loaded');
});

test('a leading run longer than one batch of loads is read to its end, and each page is compared by every name it answers to', async () => {
  // Twelve pages of one name in mixed spellings, then another name: the reference is a stable sort on "spelled as typed".
  const spellings = ['edit', 'Edit', 'EDIT', 'edit', 'Edit', 'edit', 'eDit', 'edit', 'Edit', 'edit', 'edit', 'Edit'];
  const results = [...spellings.map((s, i) => result(`${s}#${i}`, ['Other', s])), result('z', ['zed'])];
  for (const typed of ['Edit', 'edit', 'eDit']) {
    const expected = [...labels(results.slice(0, -1))].sort((p, q) => Number(!p.startsWith(`${typed}#`)) - Number(!q.startsWith(`${typed}#`)));
    assert.deepEqual(labels(await exactSpellingFirst(typed, results)), [...expected, 'z'], typed);
  }
  assert.deepEqual(labels(await exactSpellingFirst('Other', results)), labels(results), 'every page answers to it exactly: the order stays');
});

test('names are read as data: missing, malformed or non-string metadata answers to nothing', async () => {
  assert.deepEqual(spelledNames(undefined), []);
  assert.deepEqual(spelledNames({}), []);
  assert.deepEqual(spelledNames({ spelled: 'Bash' }), []);
  assert.deepEqual(spelledNames({ spelled: '{"0":"Bash"}' }), []);
  assert.deepEqual(spelledNames({ spelled: '["Bash",1,null,"</script>"]' }), ['Bash', '</script>']);
  const results = [result('a', undefined), result('b', 'not json'), result('c', ['Bash'])];
  assert.deepEqual(labels(await exactSpellingFirst('Bash', results)), ['a', 'b', 'c']);
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
  assert.deepEqual(found.filters, { agent: { x: 1 } });
  assert.equal(found.unfilteredResultCount, 2);
  assert.equal(await rankedSearch(async () => null, 'Bash'), null);
});

test('what pages give search: the title names the release, the filter value is HTML, the names are JSON', () => {
  const [agent] = AGENT_IDS as [typeof AGENT_IDS[number]];
  const fields = searchFields(agent, ['Read', 'ReadInput'], 'Some CLI 1.2.3');
  assert.equal(fields.title, 'Read — Some CLI 1.2.3');
  assert.deepEqual(JSON.parse(fields.spelled), ['Read', 'ReadInput']);
  assert.equal(fields.agent, agentFilter(agent));
  for (const id of AGENT_IDS) {
    // Pagefind's UI writes a filter value as HTML: the value, read as HTML, is the product name, its spaces no-break ones.
    const product = AGENT_PRODUCTS[id];
    const decoded = agentFilter(id).replace(/&(lt|gt|quot|#39|amp);/g, (_m, e: string) => ({ lt: '<', gt: '>', quot: '"', '#39': "'", amp: '&' })[e]!);
    assert.equal(decoded.replaceAll('\u00a0', ' '), product);
    assert.doesNotMatch(agentFilter(id), /[<>"']/);
    // The UI's checkbox id is `agent-<value>`: an id holds no ASCII white space.
    assert.doesNotMatch(agentFilter(id), /[\t\n\f\r ]/);
  }
});

test('the import map sends Pagefind\'s module to the ranked one, which imports the real one, and no text closes its <script>', () => {
  const map = JSON.parse(searchImportMap()) as { imports: Record<string, string>; scopes: Record<string, Record<string, string>> };
  const [[real, ranked]] = Object.entries(map.imports) as [[string, string]];
  assert.match(real, /\/pagefind\/pagefind\.js$/);
  assert.notEqual(ranked, real);
  const scopes = Object.entries(map.scopes).filter(([prefix]) => ranked.startsWith(prefix));
  assert.deepEqual(scopes.map(([, imports]) => imports[real]), [real], 'inside the ranked module, Pagefind is Pagefind');
  assert.ok(!real.startsWith(scopes[0]![0]), 'the scope does not hold Pagefind itself');
  assert.doesNotMatch(searchImportMap(), /</);
  const source = rankedPagefindSource('export async function rankedSearch() {}');
  assert.match(source, new RegExp(`export \\* from ${JSON.stringify(real).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')};`));
  assert.match(source, /export function search\(term, options\) \{ return rankedSearch\(pagefind\.search, term, options\); \}/);
});
