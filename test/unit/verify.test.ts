/**
 * `npm run verify` (scripts/verify.ts): its seeded sampler, its own reading of JSON Schema
 * fields, its checks of history events against two hand-built captures, and its
 * comparison of a re-recorded payload with the committed one. Every expected value is
 * written out by hand here.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { drawSample, seededRandom, shares, shuffled } from '../../scripts/lib/verify/sample.ts';
import {
  locateField,
  schemaLiterals,
  schemaTypeText,
  UnsupportedAnchor,
} from '../../scripts/lib/verify/schema-read.ts';
import { checkEvent, eventLabel, readTools } from '../../scripts/lib/verify/claims.ts';
import { compareJsonTexts } from '../../scripts/lib/verify/compare-json.ts';
import { blameCounts, blameOf, countLine, markdownReport, type Fact } from '../../scripts/lib/verify/report.ts';
import { limitFactor, scaledLimit } from '../../scripts/lib/capture/limits.ts';
import { parseRunArgs } from '../../scripts/lib/capture/run-args.ts';
import type { HistoryEvent } from '../../src/lib/core/content-types.ts';
import type { CaptureFile } from '../../src/lib/wire/index.ts';

// ---------------------------------------------------------------------------
// The sampler

const AGENTS = ['a', 'b', 'c', 'd', 'e', 'f'];
const items = (agent: string, n: number): string[] => Array.from({ length: n }, (_, i) => `${agent}${i}`);
const pool = (sizes: Record<string, number>): Map<string, string[]> =>
  new Map(Object.entries(sizes).map(([a, n]) => [a, items(a, n)]));

test('the generator is seeded: one seed, one sequence; another seed, another', () => {
  const take = (seed: number) => {
    const r = seededRandom(seed);
    return Array.from({ length: 5 }, () => r());
  };
  assert.deepEqual(take(1), take(1));
  assert.notDeepEqual(take(1), take(2));
  for (const x of take(3)) assert.ok(x >= 0 && x < 1);
  assert.deepEqual(
    shuffled([1, 2, 3, 4, 5], seededRandom(9)).sort(),
    [1, 2, 3, 4, 5],
    'a shuffle keeps every item once',
  );
});

test('a sample is the same for the same seed, and spread evenly across agents', () => {
  const byAgent = pool(Object.fromEntries(AGENTS.map((a) => [a, 50])));
  const one = drawSample(byAgent, 20, 42);
  assert.deepEqual(drawSample(byAgent, 20, 42), one, 'repeatable');
  assert.notDeepEqual(drawSample(byAgent, 20, 43), one, 'another seed draws another sample');
  assert.equal(one.length, 20);
  const perAgent = new Map<string, number>();
  for (const d of one) {
    assert.ok(d.item.startsWith(d.agent), `${d.item} belongs to ${d.agent}`);
    perAgent.set(d.agent, (perAgent.get(d.agent) ?? 0) + 1);
  }
  assert.deepEqual([...perAgent.keys()].sort(), AGENTS, 'every agent is in it');
  assert.deepEqual([...perAgent.values()].sort(), [3, 3, 3, 3, 4, 4], '20 over 6 agents: 3 each and 2 agents one more');
  assert.equal(new Set(one.map((d) => d.item)).size, 20, 'no item twice');
  const six = drawSample(byAgent, 6, 5);
  assert.deepEqual(six.map((d) => d.agent).sort(), AGENTS, 'six items: one per agent');
});

test('an agent with fewer items than its share gives the rest to the others; a sample never exceeds what there is', () => {
  assert.deepEqual(
    Object.fromEntries(
      shares(
        [
          ['a', 1],
          ['b', 10],
          ['c', 10],
        ],
        9,
      ),
    ),
    { a: 1, b: 4, c: 4 },
  );
  assert.deepEqual(
    Object.fromEntries(
      shares(
        [
          ['a', 0],
          ['b', 2],
        ],
        5,
      ),
    ),
    { a: 0, b: 2 },
  );
  const drawn = drawSample(pool({ a: 1, b: 10, c: 10 }), 9, 3);
  assert.equal(drawn.filter((d) => d.agent === 'a').length, 1);
  assert.equal(drawn.length, 9);
  assert.equal(drawSample(pool({ a: 2, b: 1 }), 10, 1).length, 3);
  assert.deepEqual(drawSample(pool({ a: 2 }), 0, 1), []);
  assert.throws(() => drawSample(pool({ a: 2 }), -1, 1), /whole number/);
});

// ---------------------------------------------------------------------------
// Reading fields of a JSON Schema

test('type texts: primitives, literals, unions with null last, arrays, maps, refs, the Gemini API upper-case names', () => {
  assert.equal(schemaTypeText({ type: 'string' }), 'string');
  assert.equal(schemaTypeText({ type: 'INTEGER' }), 'integer');
  assert.equal(schemaTypeText({ enum: ['a', 'b'] }), '"a" | "b"');
  assert.equal(schemaTypeText({ const: 'Bash' }), '"Bash"');
  assert.equal(schemaTypeText({ type: ['null', 'string'] }), 'string | null');
  assert.equal(schemaTypeText({ anyOf: [{ type: 'integer' }, { type: 'null' }] }), 'integer | null');
  assert.equal(schemaTypeText({ anyOf: [{ const: 'all' }, { type: 'string' }] }), '"all" | string');
  assert.equal(schemaTypeText({ type: 'string', enum: ['text', 'html', null] }), '"text" | "html" | null');
  assert.equal(schemaTypeText({ type: 'array', items: { type: 'string' } }), 'string[]');
  assert.equal(schemaTypeText({ type: 'array', items: { type: 'object', properties: {} } }), 'object[]');
  assert.equal(
    schemaTypeText({ type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'number' }] } }),
    '(string | number)[]',
  );
  assert.equal(
    schemaTypeText({ anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] }),
    'string | string[]',
  );
  assert.equal(schemaTypeText({ type: 'object', additionalProperties: { type: 'object' } }), 'map of object');
  assert.equal(schemaTypeText({ type: 'object', properties: { a: {} } }), 'object');
  assert.equal(schemaTypeText({}), 'unknown');
  assert.equal(schemaTypeText({ type: 'string', nullable: true }), 'string | null');
  const root = { $defs: { Mode: { enum: ['x', 'y'] } }, properties: { m: { $ref: '#/$defs/Mode' } } };
  assert.equal(schemaTypeText({ $ref: '#/$defs/Mode' }, root), '"x" | "y"');
  assert.deepEqual(schemaLiterals({ type: 'array', items: { enum: ['p', 'q'] } }), ['"p"', '"q"']);
  assert.equal(schemaLiterals({ type: 'string' }), undefined);
});

const ASK = {
  type: 'object',
  required: ['questions'],
  properties: {
    questions: {
      type: 'array',
      items: {
        type: 'object',
        required: ['question'],
        properties: {
          question: { type: 'string', description: 'The question' },
          options: {
            type: 'array',
            items: { type: 'object', properties: { label: { type: 'string' }, 'a.b': { type: 'number' } } },
          },
        },
      },
    },
    env: { type: 'object', additionalProperties: { type: 'string', description: 'a value' } },
    target: {
      anyOf: [
        { type: 'object', properties: { kind: { const: 'file' }, path: { type: 'string' } } },
        { type: 'object', properties: { kind: { const: 'url' }, href: { type: 'string' } } },
      ],
    },
  },
};

test('fields by anchor: array items are transparent, required read from the holder, maps, variants by value or by property, escapes', () => {
  const q = locateField(ASK, '.questions.question');
  assert.equal(q.schema?.['description'], 'The question');
  assert.equal(q.required, true);
  assert.equal(locateField(ASK, '.questions').required, true);
  assert.equal(locateField(ASK, '.questions.options.label').required, false);
  assert.equal(schemaTypeText(locateField(ASK, '.questions.options.label').schema!), 'string');
  assert.equal(
    schemaTypeText(locateField(ASK, '.questions.options.a~2Eb').schema!),
    'number',
    '~2E is a dot in the name',
  );
  assert.match(locateField(ASK, '.questions.nope').missing!, /no property "nope"/);
  assert.equal(locateField(ASK, '.env.*').schema?.['description'], 'a value');
  assert.equal(locateField(ASK, '.target:url.href').schema?.['type'], 'string');
  assert.equal(
    locateField(ASK, '.target:+path').schema?.['properties'] !== undefined,
    true,
    'the variant that alone has path',
  );
  assert.equal(locateField(ASK, '.target:2.href').schema?.['type'], 'string', 'by position from 1');
  assert.match(locateField(ASK, '.target:ftp').missing!, /no variant ftp/);
  assert.throws(() => locateField(ASK, ':!then.questions'), UnsupportedAnchor);
});

// ---------------------------------------------------------------------------
// Checking events against two captures

function capture(version: string, tools: Record<string, unknown>[]): CaptureFile {
  return {
    agent: 'claude-code',
    cli: { package: 'fixture-cli', version },
    configuration: 'print',
    request: { method: 'POST', path: '/v1/messages' },
    body: { tools },
  };
}
const tool = (name: string, description: string, schema: Record<string, unknown>) => ({
  name,
  description,
  input_schema: schema,
});
const obj = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: 'object',
  properties,
  required,
});

const BEFORE = readTools(
  capture('1.0.0', [
    tool(
      'Read',
      'Reads a file.',
      obj({ path: { type: 'string', description: 'Where' }, limit: { type: 'number' } }, ['path']),
    ),
    tool(
      'Task',
      'Runs an agent.',
      obj({ prompt: { type: 'string' }, model: { enum: ['sonnet', 'opus'] } }, ['prompt']),
    ),
    tool('Old', 'Gone soon.', obj({})),
  ]),
);
const AFTER = readTools(
  capture('1.0.1', [
    tool(
      'Read',
      'Reads a file from disk.',
      obj(
        {
          path: { type: 'string', description: 'Where to read' },
          limit: { type: 'integer' },
          offset: { type: 'integer' },
        },
        ['path', 'limit'],
      ),
    ),
    tool(
      'Agent',
      'Runs an agent.',
      obj({ prompt: { type: 'string' }, model: { enum: ['sonnet', 'opus', 'haiku'] } }, ['prompt']),
    ),
    tool('New', 'Just came.', obj({})),
  ]),
);

const ev = (e: Partial<HistoryEvent> & Pick<HistoryEvent, 'kind' | 'tool'>): HistoryEvent => ({
  release: '1.0.1',
  previous: '1.0.0',
  configuration: 'print',
  ...e,
});
const status = (e: HistoryEvent) => checkEvent(e, BEFORE, AFTER).status;

test('tool claims: added, removed, available, renamed, description and definition changed', () => {
  assert.equal(status(ev({ kind: 'tool-added', tool: 'New' })), 'confirmed');
  assert.equal(status(ev({ kind: 'available', tool: 'New' })), 'confirmed');
  assert.equal(status(ev({ kind: 'tool-added', tool: 'Read' })), 'contradicted', 'Read was there before');
  assert.equal(status(ev({ kind: 'tool-removed', tool: 'Old' })), 'confirmed');
  assert.equal(status(ev({ kind: 'unavailable', tool: 'Read' })), 'contradicted', 'Read is still there');
  assert.equal(status(ev({ kind: 'renamed', tool: 'Agent', from: 'Task', to: 'Agent' })), 'confirmed');
  assert.equal(
    status(ev({ kind: 'renamed', tool: 'New', from: 'Read', to: 'New' })),
    'contradicted',
    'Read did not leave',
  );
  assert.equal(status(ev({ kind: 'description-changed', tool: 'Read' })), 'confirmed');
  assert.equal(
    status(ev({ kind: 'description-changed', tool: 'Agent' })),
    'contradicted',
    'Agent was not there before',
  );
  assert.equal(status(ev({ kind: 'definition-changed', tool: 'Read', side: 'input' })), 'confirmed');
  const same = readTools(
    capture('1.0.1', [
      tool('Read', 'Reads a file.', {
        properties: { limit: { type: 'number' }, path: { description: 'Where', type: 'string' } },
        required: ['path'],
        type: 'object',
      }),
    ]),
  );
  assert.equal(
    checkEvent(ev({ kind: 'definition-changed', tool: 'Read' }), BEFORE, same).status,
    'contradicted',
    'the same schema in another key order is no change',
  );
  assert.equal(checkEvent(ev({ kind: 'description-changed', tool: 'Read' }), BEFORE, same).status, 'contradicted');
});

test('the texts a history stores for a description or definition change must be the ones sent', () => {
  const read = ev({ kind: 'description-changed', tool: 'Read', fromText: '0'.repeat(16), toText: '1'.repeat(16) });
  assert.equal(
    checkEvent(read, BEFORE, AFTER, { before: 'Reads a file.', after: 'Reads a file from disk.' }).status,
    'confirmed',
  );
  const wrong = checkEvent(read, BEFORE, AFTER, { before: 'Reads a file.', after: 'Reads a file from a disk.' });
  assert.equal(wrong.status, 'contradicted');
  assert.match(wrong.detail, /the stored texts are not these/);
  const definition = ev({
    kind: 'definition-changed',
    tool: 'Read',
    side: 'input',
    fromText: '0'.repeat(16),
    toText: '1'.repeat(16),
  });
  // Stored as indented JSON with sorted keys: equal to the schema sent, key order aside.
  const text = (t: import('../../src/lib/wire/index.ts').CapturedTool) =>
    JSON.stringify((t.input as { schema: unknown }).schema, null, 2);
  const stored = { before: text(BEFORE.tools.get('Read')!), after: text(AFTER.tools.get('Read')!) };
  assert.equal(checkEvent(definition, BEFORE, AFTER, stored).status, 'confirmed');
  assert.equal(
    checkEvent(definition, BEFORE, AFTER, { before: stored.after, after: stored.before }).status,
    'contradicted',
    'the texts swapped',
  );
});

test('field claims: added with its type, removed, type changed, now required, value added, description text, a renamed field', () => {
  const f = (e: Partial<HistoryEvent> & Pick<HistoryEvent, 'kind'>) =>
    status(ev({ tool: 'Read', side: 'input', ...e }));
  assert.equal(f({ kind: 'field-added', field: '.offset', path: 'offset', to: 'integer' }), 'confirmed');
  assert.equal(
    f({ kind: 'field-added', field: '.offset', path: 'offset', to: 'string' }),
    'contradicted',
    'the type differs',
  );
  assert.equal(
    f({ kind: 'field-added', field: '.limit', path: 'limit', to: 'integer' }),
    'contradicted',
    'limit was there before',
  );
  assert.equal(f({ kind: 'field-removed', field: '.offset', path: 'offset', from: 'integer' }), 'contradicted');
  assert.equal(f({ kind: 'type-changed', field: '.limit', path: 'limit', from: 'number', to: 'integer' }), 'confirmed');
  assert.equal(
    f({ kind: 'type-changed', field: '.limit', path: 'limit', from: 'integer', to: 'number' }),
    'contradicted',
  );
  assert.equal(
    f({ kind: 'now-required', field: '.limit', path: 'limit', from: 'optional', to: 'required' }),
    'confirmed',
  );
  assert.equal(
    f({ kind: 'now-optional', field: '.limit', path: 'limit', from: 'required', to: 'optional' }),
    'contradicted',
  );
  assert.equal(
    f({ kind: 'description-changed', field: '.path', path: 'path', from: 'Where', to: 'Where to read' }),
    'confirmed',
  );
  assert.equal(
    f({ kind: 'description-changed', field: '.path', path: 'path', from: 'Where', to: 'Somewhere' }),
    'contradicted',
    'the text must be the one sent',
  );
  const task = (e: HistoryEvent) =>
    checkEvent(
      e,
      BEFORE,
      readTools(
        capture('1.0.1', [
          tool(
            'Task',
            'Runs an agent.',
            obj({ prompt: { type: 'string' }, model: { enum: ['sonnet', 'opus', 'haiku'] } }),
          ),
        ]),
      ),
    );
  assert.equal(
    task(ev({ kind: 'value-added', tool: 'Task', side: 'input', field: '.model', path: 'model', to: '"haiku"' }))
      .status,
    'confirmed',
  );
  assert.equal(
    task(ev({ kind: 'value-removed', tool: 'Task', side: 'input', field: '.model', path: 'model', from: '"opus"' }))
      .status,
    'contradicted',
  );
  assert.equal(
    task(
      ev({
        kind: 'now-optional',
        tool: 'Task',
        side: 'input',
        field: '.prompt',
        path: 'prompt',
        from: 'required',
        to: 'optional',
      }),
    ).status,
    'confirmed',
  );
  const renamed = readTools(
    capture('1.0.1', [tool('Read', 'Reads a file.', obj({ file: { type: 'string' }, limit: { type: 'number' } }))]),
  );
  assert.equal(
    checkEvent(
      ev({
        kind: 'renamed',
        tool: 'Read',
        side: 'input',
        field: '.file',
        formerField: '.path',
        path: 'file',
        from: 'path',
        to: 'file',
      }),
      BEFORE,
      renamed,
    ).status,
    'confirmed',
  );
  assert.equal(f({ kind: 'field-added', field: '.nope', path: 'nope', to: 'string' }), 'contradicted');
  assert.equal(
    status(ev({ kind: 'field-added', tool: 'Nowhere', side: 'input', field: '.x', path: 'x', to: 'string' })),
    'contradicted',
    'a field event about a tool that is not there',
  );
});

test('a field claim in a definition the verifier does not read is not checkable, and says why', () => {
  const grammar = (v: string) =>
    readTools({
      agent: 'codex',
      cli: { package: 'p', version: v },
      configuration: 'c',
      request: { method: 'POST', path: '/v1/responses' },
      body: {
        tools: [
          {
            type: 'custom',
            name: 'apply_patch',
            description: 'Patch',
            format: { type: 'grammar', syntax: 'lark', definition: 'start: x' },
          },
        ],
      },
    });
  const v = checkEvent(
    ev({ kind: 'field-added', tool: 'apply_patch', side: 'input', field: '.x', path: 'x', to: 'string' }),
    grammar('1'),
    grammar('2'),
  );
  assert.equal(v.status, 'unchecked');
  assert.match(v.detail, /grammar definition; the verifier reads JSON Schema only/);
  assert.equal(
    checkEvent(
      ev({ kind: 'field-added', tool: 'Read', side: 'input', field: ':!then.path', path: 'path', to: 'string' }),
      BEFORE,
      AFTER,
    ).status,
    'unchecked',
  );
});

test('a tool its capture names only by a deferred namespace counts as present; its fields cannot be checked there', () => {
  const none = { version: '1.0.0', tools: new Map(), deferredNamespaces: new Set<string>() };
  const named = { version: '1.0.1', tools: new Map(), deferredNamespaces: new Set(['multi_agent_v1']) };
  assert.equal(
    checkEvent(ev({ kind: 'tool-added', tool: 'multi_agent_v1.spawn_agent' }), none, named).status,
    'confirmed',
  );
  assert.equal(
    checkEvent(ev({ kind: 'tool-removed', tool: 'multi_agent_v1.spawn_agent' }), named, none).status,
    'confirmed',
  );
  assert.equal(checkEvent(ev({ kind: 'tool-added', tool: 'other.spawn_agent' }), none, named).status, 'contradicted');
  const v = checkEvent(
    ev({
      kind: 'field-added',
      tool: 'multi_agent_v1.spawn_agent',
      side: 'input',
      field: '.x',
      path: 'x',
      to: 'string',
    }),
    named,
    named,
  );
  assert.equal(v.status, 'unchecked');
  assert.match(v.detail, /named only by its namespace/);
});

test('an event reads as one line naming agent, releases, configuration, tool and claim', () => {
  assert.equal(
    eventLabel(
      'codex',
      ev({ kind: 'field-removed', tool: 'shell', field: '.timeout', path: 'timeout', from: 'number' }),
    ),
    'codex 1.0.1 (previous 1.0.0) print: shell field-removed timeout (number)',
  );
  assert.equal(
    eventLabel('x', ev({ kind: 'renamed', tool: 'Agent', from: 'Task', to: 'Agent' })),
    'x 1.0.1 (previous 1.0.0) print: Agent renamed Task → Agent',
  );
});

// ---------------------------------------------------------------------------
// Payloads: the re-recorded text against the committed one

test('a payload is the same only when the text is: a value or the order of keys differs at a JSON pointer', () => {
  assert.deepEqual(compareJsonTexts('{"a":1,"b":[1,2]}\n', '{"a":1,"b":[1,2]}\n'), { equal: true });
  assert.deepEqual(compareJsonTexts('{"a":1,"b":[1,2]}', '{"a":1,"b":[1,3]}'), {
    equal: false,
    pointer: '/b/1',
    detail: 'committed 2, re-recorded 3',
  });
  assert.deepEqual(compareJsonTexts('{"a":1,"b":2}', '{"b":2,"a":1}'), {
    equal: false,
    pointer: '/',
    detail: 'key order differs: committed a, b; re-recorded b, a',
  });
  assert.deepEqual(compareJsonTexts('{"x":{"a/b":1}}', '{"x":{"c":1}}'), {
    equal: false,
    pointer: '/x',
    detail: 'only committed has a/b; only re-recorded has c',
  });
  assert.deepEqual(compareJsonTexts('{"a":[1]}', '{"a":[1,2]}'), {
    equal: false,
    pointer: '/a/1',
    detail: 'committed has 1 items, re-recorded 2',
  });
  assert.equal(compareJsonTexts('{"a":1}', '{ "a": 1 }').equal, false, 'layout counts too');
});

test('payloads accepts --out (a folder) where allowed; the report counts and names every fact', () => {
  assert.equal(
    (parseRunArgs(['--out', '/tmp/x'], { usage: 'u', onlyTakes: 'o', out: true }) as { out?: string }).out,
    '/tmp/x',
  );
  assert.deepEqual(parseRunArgs(['--out', '/tmp/x'], { usage: 'u', onlyTakes: 'o' }), {
    error: 'unknown argument --out',
  });
  const facts: Fact[] = [
    { kind: 'history event', label: 'a | b', status: 'contradicted', detail: 'x', evidence: ['/e/1.json'] },
    { kind: 'payload', label: 'p', status: 'confirmed', detail: 'same', evidence: [] },
    { kind: 'payload', label: 'q', status: 'could not run', detail: 'npm said no', evidence: [] },
    { kind: 'hook case', label: 'claude-code/bash-pre-deny', status: 'confirmed', detail: 'same', evidence: [] },
  ];
  assert.equal(
    countLine(facts),
    "4 fact(s): 2 confirmed, 1 contradicted, 1 could not run (0 for our reasons: a limit, the budget, a crash; 1 for the release's own); 4 settled (100 %)",
  );
  const md = markdownReport(
    {
      seed: 7,
      events: 1,
      payloads: 2,
      cases: 1,
      permissions: 1,
      captures: 2,
      folder: '/e',
      repeat: 'npm run verify -- --seed 7',
      seconds: 3,
    },
    facts,
  );
  assert.match(
    md,
    /\*\*1 contradicted\*\*, 2 confirmed, 1 could not run: 0 for our reasons .*, 1 for the release's own/,
  );
  assert.match(md, /\| could not run \(the release\) \| payload: q \|/);
  assert.match(md, /1 hook behaviour case\(s\)/);
  assert.match(md, /\| hook case: claude-code\/bash-pre-deny \|/);
  assert.match(md, /a \\\| b/, 'a pipe in a cell is escaped');
  assert.match(md, /`npm run verify -- --seed 7`/);
  assert.match(md, /\| `1\.json` \|/, 'evidence inside the folder is shown relative to it');
  assert.equal(
    md.split('\n').filter((l) => l.startsWith('| ')).length,
    2 + facts.length,
    'a header, its rule and one row per fact',
  );
});

test("a fact that could not run is put on us (a limit, the budget, a crash, the network) or on the release (its own words), and only the release's settles it", () => {
  const fact = (detail: string, blame?: 'ours' | 'release'): Fact => ({
    kind: 'history event',
    label: detail,
    status: 'could not run',
    detail,
    evidence: [],
    ...(blame ? { blame } : {}),
  });
  const ours = [
    '0.28.1: the CLI did not finish within 60 s and was killed (requests seen: 1)',
    'the time budget (--minutes) was spent before this release was installed',
    'the capture inside the namespace ended (1) without a result: TypeError: x / at run (file:///a.ts:1:2)',
    'cannot install: npm install x@1 failed: code EAI_AGAIN',
    'Node.js v24.21.0',
  ];
  const release = [
    'cannot install: npm install @kilocode/cli@7.8.1 failed: No matching version found for @kilocode/cli-linux-x64@7.8.1',
    '7.8.1: the CLI exited with code 1 (no request reached the stub); the CLI said: “It seems that your package manager failed to install the right version of the Kilo CLI for your platform.”',
  ];
  for (const d of ours) assert.equal(blameOf(fact(d)), 'ours', d);
  for (const d of release) assert.equal(blameOf(fact(d)), 'release', d);
  assert.equal(
    blameOf(fact('the CLI exited with code 1', 'ours')),
    'ours',
    'a blame set where the failure was made wins',
  );
  const facts = [
    ...ours.map((d) => fact(d)),
    ...release.map((d) => fact(d)),
    { ...fact('same'), status: 'confirmed' as const },
  ];
  assert.deepEqual(blameCounts(facts), { ours: 5, release: 2 });
  assert.match(
    countLine(facts),
    /8 fact\(s\): 1 confirmed, 0 contradicted, 7 could not run \(5 for our reasons.*; 2 for the release's own\); 3 settled \(38 %\)$/,
  );
});

test('the limit of a run scales with the load of the machine, from the configured limit up to five times it', () => {
  assert.equal(limitFactor(0.5, 2), 1);
  assert.equal(limitFactor(2, 2), 1.5);
  assert.equal(limitFactor(4, 2), 3);
  assert.equal(limitFactor(40, 2), 5);
  assert.equal(scaledLimit(60, 3, 1), 180);
  assert.equal(scaledLimit(60, 3, 2), 360, 'the retry doubles it');
  assert.equal(scaledLimit(undefined, 1, 1), 60, 'the default limit');
});
