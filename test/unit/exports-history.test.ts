/**
 * Each agent's history export (src/lib/exports/history-export.ts) built from the real content,
 * validated against schemas/history-export.schema.json, and compared with the history files read
 * straight from content/history: every change once, every text a change names present, and the
 * changes the breaking rule names by kind alone (a tool removed or renamed, a field removed)
 * flagged, additions never.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { historyExport } from '../../src/lib/exports/history-export.ts';
import { buildCatalog } from '../../src/lib/exports/catalog.ts';
import { realContent } from '../helpers/real-content.ts';
import type { AgentId } from '../../src/lib/core/content-types.ts';

const ROOT = join(import.meta.dirname, '../..');
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;
const schema = (name: string) =>
  JSON.parse(readFileSync(join(ROOT, 'schemas', name), 'utf8')) as Record<string, unknown>;
const site = realContent();
const files = readdirSync(join(ROOT, 'content/history')).map(
  (f) =>
    JSON.parse(readFileSync(join(ROOT, 'content/history', f), 'utf8')) as {
      agent: string;
      source: string;
      events: { kind: string; field?: string; fromText?: string; toText?: string }[];
      texts?: Record<string, string>;
    },
);

test('every agent with a history has an export that validates, holds each change of its files once, and every text they name', () => {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  ajv.addSchema(schema('agent-id.schema.json'));
  ajv.addFormat('agent-id', true);
  ajv.addSchema(schema('history.schema.json'));
  const validate = ajv.compile(schema('history-export.schema.json'));
  const agents = [...new Set(files.map((f) => f.agent))];
  assert.ok(agents.length > 0);
  for (const agent of agents) {
    const exported = historyExport(site, agent as AgentId);
    assert.ok(validate(JSON.parse(JSON.stringify(exported))), `${agent}: ${ajv.errorsText(validate.errors)}`);
    for (const file of files.filter((f) => f.agent === agent)) {
      const history = exported.histories.find((h) => h.source === file.source);
      assert.ok(history, `${agent} ${file.source}`);
      assert.deepEqual(
        history.changes.map((c) => c.event),
        file.events,
        `${agent} ${file.source}: the changes, in file order`,
      );
      for (const e of file.events) {
        for (const id of [e.fromText, e.toText])
          if (id !== undefined) assert.equal(history.texts[id], file.texts![id], `${agent} text ${id}`);
      }
      history.changes.forEach((c, i) => {
        const kind = file.events[i]!.kind;
        if (kind === 'tool-removed' || kind === 'field-removed' || kind === 'renamed')
          assert.ok(c.breaking, `${agent} ${kind} of ${c.event.tool} is breaking`);
        if (
          kind === 'tool-added' ||
          kind === 'field-added' ||
          kind === 'available' ||
          (kind.endsWith('-changed') && kind !== 'type-changed')
        )
          assert.equal(c.breaking, undefined, `${agent} ${kind} of ${c.event.tool} is not breaking`);
      });
    }
  }
});

test('the catalog names each history export', () => {
  const catalog = buildCatalog(site, {});
  for (const agent of new Set(files.map((f) => f.agent))) {
    assert.equal(catalog.agents.find((a) => a.id === agent)?.history?.export, `/${agent}/history.json`);
  }
});
