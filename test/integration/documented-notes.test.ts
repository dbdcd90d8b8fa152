/**
 * Version notes written from documentation (content/editorial/) against the
 * history computed from the published releases (content/history/): every
 * structured claim whose release the history covers must be credited to that
 * same release. Claims about releases before the history are listed, not judged.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadContent } from '../../src/lib/content/load.ts';
import { checkDocumentedNotes } from '../../src/lib/history.ts';

const ROOT = join(import.meta.dirname, '../..');
const site = loadContent({ root: ROOT });
const checks = site.tools.flatMap((tool) => checkDocumentedNotes(tool, site.histories));

test('no documented version note contradicts the computed history', () => {
  const contradictions = checks.filter((c) => c.verdict === 'contradicts').map((c) => `${c.tool} ${c.note}: ${c.claim} — ${c.detail}`);
  assert.deepEqual(contradictions, []);
});

test('the claims are really checked: every note with claims inside the history agrees', () => {
  const claimed = site.tools.flatMap((t) => (t.editorial?.versionNotes ?? []).flatMap((n) => n.claims ?? []));
  assert.equal(checks.length, claimed.length, 'every claim got a verdict');
  if (site.histories.length > 0) assert.ok(checks.some((c) => c.verdict === 'agrees'), 'at least one claim lies inside the computed history');
});
