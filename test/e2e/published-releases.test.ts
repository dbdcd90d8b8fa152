/**
 * "Not published as a CLI" only with evidence: every built page that says a release is not
 * published names one that no package of its agent lists in the registry listing the agent
 * record keeps (content/agents/<agent>.json, /bundledCli/listings: the CLI's own package and
 * its standalone platform packages, as the ingest script read them), and a release some
 * package lists is never called unpublished. The expectation comes from those raw listings,
 * not from the site's reading of them (src/lib/model/releases.ts).
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSite, DIST, ROOT } from '../helpers/browser.ts';
import { builtPages, fileOfPage } from '../helpers/pages.ts';

before(() => buildSite());

interface RawRecord {
  id: string;
  product: string;
  version: string;
  bundledCli?: { listings: { package: string; lists: boolean }[] };
}

const records: RawRecord[] = readdirSync(join(ROOT, 'content/agents'))
  .filter((f) => f.endsWith('.json'))
  .map((f) => JSON.parse(readFileSync(join(ROOT, 'content/agents', f), 'utf8')) as RawRecord)
  .filter((r) => r.bundledCli !== undefined);

/** The page's text: tags dropped, entities that matter here decoded, white space folded. */
const text = (html: string): string =>
  html
    .replace(/<[^>]+>/g, '')
    .replace(/&nbsp;|&#160;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

test('a page calls a release "not published as a CLI" only when no package of its agent lists it', () => {
  assert.ok(records.length > 0, 'some agent record names the CLI release its types bundle');
  const pages = builtPages().map((url) => ({ url, text: text(readFileSync(fileOfPage(DIST, url), 'utf8')) }));
  for (const record of records) {
    const listings = record.bundledCli!.listings;
    assert.ok(listings.length > 0, `${record.id}: the record keeps the registry's listings`);
    const unpublished = !listings.some((l) => l.lists);
    // Every "<Product> <release> (…not published as a CLI)" on any page.
    const claim = new RegExp(
      `${escapeRegExp(record.product)} (\\d+\\.\\d+\\.\\d+) \\([^()]*not published as a CLI`,
      'g',
    );
    const claims = pages.flatMap((p) => [...p.text.matchAll(claim)].map((m) => ({ url: p.url, version: m[1]! })));
    for (const c of claims) {
      assert.equal(
        c.version,
        record.version,
        `${c.url} calls ${record.product} ${c.version} unpublished; the record's listings are about ${record.version} only`,
      );
      assert.ok(
        unpublished,
        `${c.url} calls ${record.product} ${c.version} "not published as a CLI", but ${listings
          .filter((l) => l.lists)
          .map((l) => l.package)
          .join(', ')} lists it`,
      );
    }
    if (unpublished)
      assert.ok(claims.length > 0, `${record.product} ${record.version} is listed by no package, and no page says so`);
    else {
      // Not vacuous: the release the listings are about is named on the agent's pages.
      const named = pages.filter(
        (p) => p.url.startsWith(`/${record.id}/`) && p.text.includes(`${record.product} ${record.version}`),
      );
      assert.ok(named.length > 0, `no page of ${record.id} names ${record.product} ${record.version}`);
    }
  }
});
