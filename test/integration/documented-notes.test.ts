/**
 * Version notes written from documentation (content/editorial/) against the
 * history computed from the published releases (content/history/): every
 * structured claim whose release the history covers must be credited to that
 * same release. Claims about releases before the history are listed, not judged.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkDocumentedNotes } from '../../src/lib/history/history.ts';
import type { ToolModel } from '../../src/lib/model/model.ts';
import { realContent } from '../helpers/real-content.ts';

const ROOT = join(import.meta.dirname, '../..');
const site = realContent();
const checks = site.tools.flatMap((tool) => checkDocumentedNotes(tool, site.histories));

test('no documented version note contradicts the computed history', () => {
  const contradictions = checks
    .filter((c) => c.verdict === 'contradicts')
    .map((c) => `${c.tool} ${c.note}: ${c.claim} — ${c.detail}`);
  assert.deepEqual(contradictions, []);
});

test('every claim of the raw editorial files is judged, under its note', () => {
  // Read from the JSON files, not through the loader: a claim the loader drops is never judged.
  const unjudged: string[] = [];
  for (const agent of readdirSync(join(ROOT, 'content/editorial'))) {
    for (const file of readdirSync(join(ROOT, 'content/editorial', agent))) {
      const raw = JSON.parse(readFileSync(join(ROOT, 'content/editorial', agent, file), 'utf8'));
      const tool = site.tools.find((t) => t.agent === agent && t.slug === file.replace(/\.json$/, ''))!;
      for (const note of raw.versionNotes ?? []) {
        for (const claim of note.claims ?? []) {
          const judged = checks.some(
            (c) =>
              c.tool === tool.fullName &&
              c.note === note.version &&
              c.claim.startsWith(claim.kind) &&
              (!claim.field || c.claim.includes(claim.field)) &&
              (!claim.value || c.claim.includes(claim.value)),
          );
          if (!judged) unjudged.push(`${agent}/${file} ${note.version}: ${JSON.stringify(claim)}`);
        }
      }
    }
  }
  assert.deepEqual(unjudged, []);
});

const bySemver = (a: string, b: string): number => {
  const [x, y] = [a, b].map((v) => v.split(/[.-]/).map(Number));
  for (let i = 0; i < Math.max(x!.length, y!.length); i++)
    if ((x![i] ?? 0) !== (y![i] ?? 0)) return (x![i] ?? 0) - (y![i] ?? 0);
  return 0;
};

/** A copy of `tool` with only its `n`-th version note, said of `version`. */
function movedNote(tool: ToolModel, n: number, version: string): ToolModel {
  return {
    ...tool,
    editorial: { ...tool.editorial!, versionNotes: [{ ...tool.editorial!.versionNotes![n]!, version }] },
  };
}

test('a claim said of another release of the history contradicts it; one said of its first release is outside it', () => {
  // Every note whose claims all agree, moved: to the other releases the history compares, and to the first.
  let moved = 0;
  for (const tool of site.tools) {
    (tool.editorial?.versionNotes ?? []).forEach((note, n) => {
      const own = checkDocumentedNotes(movedNote(tool, n, note.version), site.histories);
      if (own.length === 0 || !own.every((c) => c.verdict === 'agrees')) return;
      const release = /computed in (\S+)/.exec(own[0]!.detail)![1]!;
      const files = site.histories.filter((h) => h.agent === tool.agent);
      const releases = files.flatMap((h) => h.releases.map((r) => r.cliVersion ?? r.version));
      // A release the history compares in which it records no change of this tool at all.
      // (Events name a release as its file lists it; an SDK release is read as the CLI release it bundles.)
      const label = (h: (typeof files)[number], v: string) => h.releases.find((r) => r.version === v)?.cliVersion ?? v;
      const changed = new Set(
        files.flatMap((h) => h.events.filter((e) => e.tool === tool.fullName).map((e) => label(h, e.release))),
      );
      const other = releases.find((r, i) => i > 0 && !changed.has(r));
      if (other) {
        const verdicts = checkDocumentedNotes(movedNote(tool, n, other), site.histories);
        assert.ok(
          verdicts.length > 0 && verdicts.every((c) => c.verdict === 'contradicts' && c.detail.includes(release)),
          `${tool.fullName} ${note.version} → ${other}: ${JSON.stringify(verdicts)}`,
        );
      }
      // The earliest release any history of the agent compares: nothing is computed for it, only from it.
      const first = files.map((h) => h.releases[0]!.cliVersion ?? h.releases[0]!.version).sort(bySemver)[0]!;
      const outside = checkDocumentedNotes(movedNote(tool, n, first), site.histories);
      assert.ok(
        outside.length > 0 && outside.every((c) => c.verdict === 'outside'),
        `${tool.fullName} ${note.version} → ${first}: ${JSON.stringify(outside)}`,
      );
      moved++;
    });
  }
  if (site.histories.length > 0) assert.ok(moved > 0, 'no documented claim lies inside the computed history');
});
