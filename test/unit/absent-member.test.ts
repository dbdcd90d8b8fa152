/**
 * A tool sent without its schema member keeps that fact: each wire format's
 * extraction marks the stand-in schema with the member that was absent, and
 * only then (a tool sent with an empty object schema is not marked).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WIRE_FORMATS } from '../../src/lib/wire/index.ts';

const context = { origin: { package: 'p', version: 'v', file: 'f' }, pointer: '/body', quirks: {} };
const cases = [
  {
    wire: 'openai-chat-completions',
    member: 'parameters',
    tool: (schema?: object) => ({
      type: 'function',
      function: { name: 'noop', description: 'd', ...(schema ? { parameters: schema } : {}) },
    }),
  },
  {
    wire: 'openai-responses',
    member: 'parameters',
    tool: (schema?: object) => ({
      type: 'function',
      name: 'noop',
      description: 'd',
      ...(schema ? { parameters: schema } : {}),
    }),
  },
  {
    wire: 'anthropic-messages',
    member: 'input_schema',
    tool: (schema?: object) => ({ name: 'noop', description: 'd', ...(schema ? { input_schema: schema } : {}) }),
  },
] as const;

for (const c of cases) {
  test(`${c.wire}: a tool with no ${c.member} member is marked as sent without it`, () => {
    const wire = WIRE_FORMATS[c.wire];
    const [absent] = wire.extractTools({ model: 'm', tools: [c.tool()] }, context);
    assert.equal(absent!.input.kind, 'json-schema');
    assert.equal((absent!.input as { absentMember?: string }).absentMember, c.member);
    const [present] = wire.extractTools({ model: 'm', tools: [c.tool({ type: 'object' })] }, context);
    assert.equal((present!.input as { absentMember?: string }).absentMember, undefined);
    assert.deepEqual((present!.input as { schema: object }).schema, { type: 'object' });
  });
}
