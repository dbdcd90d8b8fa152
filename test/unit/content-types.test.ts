import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateContentTypes, TYPES_FILE } from '../../scripts/generate-content-types.ts';
import { AGENT_IDS } from '../../src/lib/agents/index.ts';

const ROOT = join(import.meta.dirname, '../..');

test('the content types are the ones generated from schemas/ (npm run generate:types)', async () => {
  assert.equal(readFileSync(join(ROOT, TYPES_FILE), 'utf8'), await generateContentTypes(ROOT), `${TYPES_FILE} is stale: run npm run generate:types`);
});

test('the agent ids the schemas allow are the agents of the registry', () => {
  for (const file of ['agent.schema.json', 'tool.schema.json', 'editorial-tool.schema.json', 'capture.schema.json', 'history.schema.json', 'inventory.schema.json']) {
    const schema = JSON.parse(readFileSync(join(ROOT, 'schemas', file), 'utf8'));
    const ids = (schema.properties.id ?? schema.properties.agent).enum as string[];
    assert.deepEqual([...ids].sort(), [...AGENT_IDS].sort(), file);
  }
  const matrix = JSON.parse(readFileSync(join(ROOT, 'schemas/capture-matrix.schema.json'), 'utf8'));
  assert.deepEqual([...matrix.properties.agents.propertyNames.enum].sort(), [...AGENT_IDS].sort());
});
