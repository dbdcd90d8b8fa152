import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { schemaRefusal } from '../../scripts/lib/capture/ajv.ts';

const ajv = new Ajv2020({ allErrors: true });
const validate = ajv.compile({
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string' }, n: { type: 'integer' } },
});

test('schemaRefusal: what was refused, by which schema, then each error at its pointer with the schema path', () => {
  assert.equal(validate({ n: 1.5 }), false);
  assert.equal(
    schemaRefusal('content/x.json', 'schemas/x.schema.json', validate.errors),
    [
      'content/x.json does not match schemas/x.schema.json:',
      "  /: must have required property 'id' (#/required)",
      '  /n: must be integer (#/properties/n/type)',
    ].join('\n'),
  );
});

test('schemaRefusal: past the limit, how many errors more', () => {
  assert.equal(validate({ id: 3, n: 'x' }), false);
  assert.equal(
    schemaRefusal('the record', 'schemas/r.json', validate.errors, 1),
    'the record does not match schemas/r.json:\n  /id: must be string (#/properties/id/type)\n  … and 1 more',
  );
});
