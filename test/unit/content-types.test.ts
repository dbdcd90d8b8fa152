import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateContentTypes, TYPES_FILE } from '../../scripts/generate-content-types.ts';
import { AGENT_IDS } from '../../src/lib/agents/index.ts';
import { contentAjv, sharedSchemas } from '../../src/lib/content/read.ts';

const ROOT = join(import.meta.dirname, '../..');

test('the content types are the ones generated from schemas/ (npm run generate:types)', async () => {
  assert.equal(readFileSync(join(ROOT, TYPES_FILE), 'utf8'), await generateContentTypes(ROOT), `${TYPES_FILE} is stale: run npm run generate:types`);
});

test('no schema lists agent ids: agent fields refer to agent-id.schema.json, whose format is the registry', () => {
  const listed: string[] = [];
  let refs = 0;
  const walk = (node: unknown, at: string): void => {
    if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${at}/${i}`));
    if (node === null || typeof node !== 'object') return;
    const o = node as Record<string, unknown>;
    for (const v of [...(Array.isArray(o['enum']) ? o['enum'] : []), ...('const' in o ? [o['const']] : [])]) {
      if (typeof v === 'string' && (AGENT_IDS as readonly string[]).includes(v)) listed.push(`${at}: ${v}`);
    }
    if (o['$ref'] === 'agent-id.schema.json') refs++;
    for (const [k, v] of Object.entries(o)) walk(v, `${at}/${k}`);
  };
  for (const file of readdirSync(join(ROOT, 'schemas'))) walk(JSON.parse(readFileSync(join(ROOT, 'schemas', file), 'utf8')), file);
  assert.deepEqual(listed, []);
  assert.ok(refs > 0);
  const validate = contentAjv(sharedSchemas(ROOT).values()).getSchema('https://agent-tools.invalid/schemas/agent-id.schema.json')!;
  for (const id of AGENT_IDS) assert.equal(validate(id), true, id);
  for (const other of ['', 'not-registered', AGENT_IDS[0]!.toUpperCase(), `${AGENT_IDS[0]} `]) assert.equal(validate(other), false, JSON.stringify(other));
});
