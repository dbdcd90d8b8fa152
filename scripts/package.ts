/**
 * Writes the `agent-tools` package (src/cli/) from a built site and the content it was built
 * from, into dist-package/ (or --out), replacing it whole only once every file is written.
 *
 *   npm run package                      → builds the site into dist/, then writes dist-package/
 *   node scripts/package.ts --site DIR   → from a site already built into DIR (tests)
 *   cd dist-package && npm pack          → the tarball to publish
 *
 * It stops when the built catalog is not the catalog of the content here (the site was built
 * from other content): the package's lookups and the site's exports must agree.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadContent } from '../src/lib/content/load.ts';
import { buildCatalog, type Catalog } from '../src/lib/exports/catalog.ts';
import { SITE_URL } from '../src/lib/site/site-settings.ts';
import { sitePath } from '../src/lib/site/site.ts';
import { replaceDirectory } from './lib/system/atomic-write.ts';
import {
  builtSite,
  bundleCommand,
  fieldTables,
  packageJson,
  packageReadme,
  siteDataFiles,
  snapshotInfo,
  thirdPartyLicences,
} from './lib/package/package-files.ts';

const ROOT = resolve(import.meta.dirname, '..');

export async function writePackage(siteDir: string, outDir: string): Promise<{ files: number; bytes: number }> {
  const built = JSON.parse(readFileSync(join(builtSite(siteDir), 'catalog.json'), 'utf8')) as Catalog;
  const model = loadContent({ root: ROOT, sharedDiffs: true });
  const expected = `${JSON.stringify(buildCatalog(model, { site: new URL(SITE_URL) }))}\n`;
  if (expected !== readFileSync(join(siteDir, 'catalog.json'), 'utf8'))
    throw new Error(
      `${siteDir}/catalog.json is not the catalog of the content in ${ROOT}/content: ` +
        'rebuild the site (npm run build) before writing the package',
    );
  const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  const info = snapshotInfo(built, version, SITE_URL, sitePath('/'));
  const { code, metafile } = await bundleCommand(ROOT);
  const files = new Map<string, string>([
    [
      'package.json',
      packageJson(
        version,
        built.agents.map((a) => a.id),
      ),
    ],
    ['README.md', packageReadme(ROOT, info)],
    ['THIRD-PARTY-LICENSES.txt', thirdPartyLicences(ROOT, metafile)],
    ['bin/agent-tools.js', code],
    ['data/snapshot.json', `${JSON.stringify(info, null, 2)}\n`],
    ['data/fields.json', `${JSON.stringify(fieldTables(model))}\n`],
    ...siteDataFiles(siteDir, built),
  ]);
  replaceDirectory(outDir, files);
  return { files: files.size, bytes: [...files.values()].reduce((n, t) => n + Buffer.byteLength(t), 0) };
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { site: { type: 'string' }, out: { type: 'string' } } });
  const out = resolve(values.out ?? join(ROOT, 'dist-package'));
  let site = values.site === undefined ? undefined : resolve(values.site);
  if (site === undefined) {
    execFileSync(process.execPath, [join(ROOT, 'scripts/build.ts')], { stdio: 'inherit' });
    site = join(ROOT, 'dist');
  }
  const { files, bytes } = await writePackage(site, out);
  console.log(`package: ${files} files, ${(bytes / 1e6).toFixed(1)} MB in ${out}; \`cd ${out} && npm pack\` packs it`);
}
