import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateContentTypes, TYPES_FILE } from '../../scripts/generate-content-types.ts';

const ROOT = join(import.meta.dirname, '../..');

test('the content types are the ones generated from schemas/ (npm run generate:types)', async () => {
  assert.equal(readFileSync(join(ROOT, TYPES_FILE), 'utf8'), await generateContentTypes(ROOT), `${TYPES_FILE} is stale: run npm run generate:types`);
});
