/**
 * References between our own schemas are relative (relativeReference): resolved
 * against the referring file's URL, as JSON Schema resolves a `$ref` against `$id`,
 * each must name the target's URL exactly, on any site address. The WHATWG URL
 * parser is the reference for what a relative reference resolves to.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { relativeReference } from '../../src/lib/site/export-files.ts';

const ORIGINS = ['https://tools.example.org', 'http://localhost:4321'];
const resolves = (from: string, to: string) => {
  const reference = relativeReference(from, to);
  for (const origin of ORIGINS)
    assert.equal(
      new URL(reference, new URL(from, origin)).href,
      new URL(to, origin).href,
      `${from} → ${to} via ${reference}`,
    );
  return reference;
};

test('a reference to a file below, beside, or in another folder resolves to that file', () => {
  assert.equal(
    resolves('/claude-code/bash/hooks.schema.json', '/claude-code/bash/2.1.332/input.schema.json'),
    '2.1.332/input.schema.json',
  );
  assert.equal(
    resolves('/claude-code/bash/hooks.schema.json', '/claude-code/hooks/PreToolUse.schema.json'),
    '../hooks/PreToolUse.schema.json',
  );
  assert.equal(resolves('/a/b/c.json', '/a/b/d.json'), 'd.json');
  assert.equal(resolves('/a/b/c.json', '/x/y/z.json'), '../../x/y/z.json');
  assert.equal(resolves('/catalog.json', '/catalog.schema.json'), 'catalog.schema.json');
});

test('names that need escaping are percent-encoded, and a first segment with a colon is not read as a scheme', () => {
  resolves('/codex/mcp__x/hooks.schema.json', '/codex/hooks/Pre Tool é.schema.json');
  resolves('/codex/a%20b/hooks.schema.json', '/codex/a%20b/1.0/input.schema.json');
  const reference = resolves('/copilot-cli/t/hooks.schema.json', '/copilot-cli/t/v:1/input.schema.json');
  assert.ok(reference.startsWith('./'), reference);
  // Not vacuous: a reference written without the ./ reads as a URL with a scheme of its own.
  assert.equal(
    new URL('v:1/input.schema.json', 'https://tools.example.org/copilot-cli/t/hooks.schema.json').protocol,
    'v:',
  );
});

test('a reference is never absolute: it names no origin, so it follows the site wherever it is served', () => {
  const reference = relativeReference(
    '/claude-code/bash/hooks.schema.json',
    '/claude-code/hooks/PostToolUse.schema.json',
  );
  assert.doesNotMatch(reference, /^[a-z][a-z0-9+.-]*:|^\//i);
});
