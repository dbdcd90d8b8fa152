/**
 * A capture is recorded as the CLI sent it: a tool definition that Ajv cannot compile as
 * JSON Schema is data with a finding (scripts/lib/history/capture-snapshot.ts), not a failed
 * run, and the history names the finding instead of inventing field removals.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { releaseSnapshots } from '../../scripts/lib/history/capture-snapshot.ts';
import { historyEvents, type ReleaseSnapshots } from '../../scripts/lib/history/capture-diff.ts';
import type { CaptureFile } from '../../src/lib/wire/index.ts';

const DESCRIPTION = 'Performs a web search using Google Search (via the Gemini API) and returns the results.';

/** A Gemini CLI print capture that declares google_web_search with `schema` as its parametersJsonSchema. */
function capture(version: string, schema: object): CaptureFile {
  return {
    agent: 'gemini-cli',
    cli: { package: '@google/gemini-cli', version },
    configuration: 'print',
    request: { method: 'POST', path: '/v1beta/models/gemini-2.5-pro:streamGenerateContent' },
    body: {
      tools: [
        {
          functionDeclarations: [{ name: 'google_web_search', description: DESCRIPTION, parametersJsonSchema: schema }],
        },
      ],
    },
  } as CaptureFile;
}

// @google/gemini-cli-core 0.1.19, dist/src/tools/web-search.js: `type: Type.OBJECT`, `type: Type.STRING`
// (the @google/genai enum, whose values are the upper-case names), and dist/src/tools/tools.js sends
// it as `parametersJsonSchema: this.parameterSchema`.
const AS_SENT_0_1_19 = {
  type: 'OBJECT',
  properties: { query: { type: 'STRING', description: 'The search query to find information on the web.' } },
  required: ['query'],
};
const JSON_SCHEMA = {
  type: 'object',
  properties: { query: { type: 'string', description: 'The search query to find information on the web.' } },
  required: ['query'],
};

const read = (version: string, schema: object): ReleaseSnapshots => ({
  version,
  configs: new Map([['print', releaseSnapshots(new Map([['print', capture(version, schema)]])).get('print')!]]),
});

test('a definition Ajv cannot compile is kept with its finding and no rows; the capture is not refused', () => {
  const snapshot = read('0.1.19', AS_SENT_0_1_19).configs.get('print')!.tools['google_web_search']!;
  assert.deepEqual(snapshot.rows, []);
  assert.match(
    snapshot.finding ?? '',
    /^not a JSON Schema that Ajv can compile: .*properties\/query\/type must be equal to one of the allowed values/,
  );
  assert.equal(JSON.parse(snapshot.definition).schema.type, 'OBJECT', 'the definition as sent');
  const valid = read('0.1.16', JSON_SCHEMA).configs.get('print')!.tools['google_web_search']!;
  assert.equal(valid.finding, undefined);
  assert.deepEqual(
    valid.rows.map((r) => [r.id, r.type, r.required]),
    [['input.query', 'string', true]],
  );
});

test('the history says the definition changed into one with the finding and back, not that its fields went and came', () => {
  const events = historyEvents(
    [read('0.1.16', JSON_SCHEMA), read('0.1.19', AS_SENT_0_1_19), read('0.1.22', JSON_SCHEMA)],
    ['print'],
  );
  assert.deepEqual(
    events.map((e) => [
      e.release,
      e.kind,
      e.from === undefined ? null : 'finding',
      e.to === undefined ? null : 'finding',
    ]),
    [
      ['0.1.19', 'definition-changed', null, 'finding'],
      ['0.1.22', 'definition-changed', 'finding', null],
    ],
  );
  assert.match(events[0]!.to!, /Ajv/);
  assert.equal(events[1]!.from, events[0]!.to);
  // Between two releases that send the same uncompilable definition nothing changed.
  assert.deepEqual(historyEvents([read('0.1.19', AS_SENT_0_1_19), read('0.1.21', AS_SENT_0_1_19)], ['print']), []);
});
