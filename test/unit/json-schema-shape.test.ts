import { test } from 'node:test';
import assert from 'node:assert/strict';
import { shapeFromJsonSchema } from '../../src/lib/json-schema-shape.ts';
import { fieldRows } from '../../src/lib/field-rows.ts';

test('JSON Schema objects, enums, bounds, defaults, nullable types and $refs become rows', () => {
  const schema = {
    type: 'object',
    properties: {
      cmd: { type: 'string', description: 'Shell command' },
      sandbox_permissions: { type: 'string', enum: ['use_default', 'require_escalated'] },
      yield_time_ms: { type: 'number', minimum: 250, maximum: 30000, default: 10000 },
      workdir: { type: ['string', 'null'] },
      additional_permissions: { $ref: '#/$defs/perm' },
      prefix_rule: { type: 'array', items: { type: 'string' } },
      old: { type: 'string', deprecated: true },
    },
    required: ['cmd'],
    additionalProperties: false,
    $defs: { perm: { type: 'object', properties: { file_system: { type: 'object', properties: { read: { type: 'array', items: { type: 'string' } } } } } } },
  };
  const rows = new Map(fieldRows(shapeFromJsonSchema(schema), { root: 'input' }).map((r) => [r.id, r]));
  assert.deepEqual([...rows.keys()], [
    'input.cmd',
    'input.sandbox_permissions',
    'input.yield_time_ms',
    'input.workdir',
    'input.additional_permissions',
    'input.additional_permissions.file_system',
    'input.additional_permissions.file_system.read',
    'input.prefix_rule',
    'input.old',
  ]);
  assert.equal(rows.get('input.cmd')!.required, true);
  assert.equal(rows.get('input.cmd')!.description, 'Shell command');
  assert.deepEqual(rows.get('input.sandbox_permissions')!.literals, ['use_default', 'require_escalated']);
  assert.deepEqual(rows.get('input.yield_time_ms')!.constraints, ['default: 10000', 'minimum: 250', 'maximum: 30000']);
  assert.equal(rows.get('input.workdir')!.type, 'string | null');
  assert.equal(rows.get('input.additional_permissions.file_system.read')!.type, 'string[]');
  assert.equal(rows.get('input.prefix_rule')!.type, 'string[]');
  assert.equal(rows.get('input.old')!.deprecated, true);
});

test('recursive $refs stop instead of looping; non-local $refs are refused', () => {
  const schema = { $defs: { n: { type: 'object', properties: { next: { $ref: '#/$defs/n' } } } }, $ref: '#/$defs/n' };
  const rows = fieldRows(shapeFromJsonSchema(schema), { root: 'input' });
  assert.deepEqual(rows.map((r) => [r.id, r.type]), [['input.next', 'n']]);
  assert.throws(() => shapeFromJsonSchema({ $ref: 'https://example.invalid/x.json' }), /not local/);
});
