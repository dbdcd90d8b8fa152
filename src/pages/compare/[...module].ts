/**
 * The release comparison of tool pages as plain ES modules, loaded only when a reader opens it
 * (CompareReleases.astro): src/scripts/compare-releases.ts and what it imports, compiled by
 * src/lib/routes/browser-modules.ts, at `/compare/scripts/compare-releases.js`…; and jsdiff's
 * browser build (the `diff` package's dist/diff.min.js, which sets `globalThis.Diff` when run
 * as a module) at `/compare/vendor/diff.js`, with its licence named.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { APIRoute, GetStaticPaths } from 'astro';
import { browserModules, underSrc } from '../../lib/routes/browser-modules.ts';

const SOURCES = underSrc(
  import.meta.glob<string>(
    [
      '../../scripts/compare-releases.ts',
      '../../lib/history/text-diff-parts.ts',
      '../../lib/history/release-compare.ts',
    ],
    {
      query: '?raw',
      import: 'default',
      eager: true,
    },
  ),
);
const ENTRIES = ['scripts/compare-releases.ts'];

/**
 * jsdiff's browser build, read from the installed package (its exports do not name dist/, so it is found beside its
 * package.json).
 */
function jsdiff(): string {
  const require = createRequire(join(process.cwd(), 'package.json'));
  const folder = dirname(require.resolve('diff/package.json'));
  const { version, license } = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as {
    version: string;
    license: string;
  };
  return (
    `/* jsdiff ${version} (npm package "diff"), ${license} licence: https://github.com/kpdecker/jsdiff ` +
    `*/\n${readFileSync(join(folder, 'dist/diff.min.js'), 'utf8')}`
  );
}

export const getStaticPaths = (() => [
  ...[...browserModules(ENTRIES, SOURCES, 'the release comparison')].map(([module, text]) => ({
    params: { module },
    props: { text },
  })),
  { params: { module: 'vendor/diff.js' }, props: { text: jsdiff() } },
]) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props }) =>
  new Response((props as { text: string }).text, { headers: { 'Content-Type': 'text/javascript; charset=utf-8' } });
