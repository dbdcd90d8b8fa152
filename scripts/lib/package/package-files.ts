/**
 * The files of the `agent-tools` package (src/cli/), from a built site and the content it was
 * built from:
 * - `data/site/…`: the site's own exports, byte for byte, at the paths it serves them (catalog,
 *   changes, each tool's schemas at its latest and release paths, timelines, hook schemas,
 *   history exports);
 * - `data/fields.json`: each tool page's field rows (the model's, so the command lists the fields
 *   the page lists); `data/snapshot.json`: what the build was;
 * - `bin/agent-tools.js`: src/cli bundled by esbuild with what it imports (Ajv, the MCP SDK, jsdiff),
 *   so that the package installs with no network and no dependency; their licences in
 *   `THIRD-PARTY-LICENSES.txt`;
 * - `package.json` and `README.md`.
 * Everything is text and nothing depends on the time, so the same build gives the same package.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { build, type Metafile } from 'esbuild';
import type { Catalog } from '../../../src/lib/exports/catalog.ts';
import type { SiteModel } from '../../../src/lib/model/model.ts';
import { fieldLine } from '../../../src/cli/show.ts';
import type { FieldTables, SnapshotInfo } from '../../../src/cli/snapshot.ts';

export const PACKAGE_NAME = 'agent-tool-reference';
export const COMMAND = 'agent-tools';

/** Which built files the package carries, by their path under the site's folder. */
export function isCarried(path: string, agents: ReadonlySet<string>): boolean {
  const parts = path.split('/');
  if (parts.length === 1) return /^(catalog|changes)(\.schema)?\.json$/.test(path);
  if (!agents.has(parts[0]!)) return false;
  const file = parts[parts.length - 1]!;
  if (parts.length === 2) return file === 'history.json';
  if (parts[1] === 'hooks') return parts.length === 3 && file.endsWith('.schema.json');
  // <agent>/<tool>/<file> or <agent>/<tool>/<release>/<file>
  if (parts.length > 4) return false;
  return file.endsWith('.schema.json') || (parts.length === 3 && file === 'timeline.json');
}

function walk(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, out);
    else out.push(path);
  }
  return out;
}

/** The carried exports of a built site: path under `data/site/` → text. */
export function siteDataFiles(siteDir: string, catalog: Catalog): Map<string, string> {
  const agents = new Set(catalog.agents.map((a) => a.id));
  const files = new Map<string, string>();
  for (const file of walk(siteDir).sort()) {
    const rel = relative(siteDir, file).split(sep).join('/');
    if (isCarried(rel, agents)) files.set(`data/site/${rel}`, readFileSync(file, 'utf8'));
  }
  return files;
}

/** Each tool page's tables, keyed `<agent>/<slug>`: the tables the page shows, with the page's anchors. */
export function fieldTables(model: Pick<SiteModel, 'tools'>): Record<string, FieldTables> {
  const out: Record<string, FieldTables> = {};
  const sorted = [...model.tools].sort((a, b) => (`${a.agent}/${a.slug}` < `${b.agent}/${b.slug}` ? -1 : 1));
  for (const tool of sorted) {
    const tables: FieldTables = {};
    if (tool.input.definition.kind !== 'unavailable') tables.input = tool.input.rows.map(fieldLine);
    if (tool.output.definition.kind !== 'unavailable') tables.result = tool.output.rows.map(fieldLine);
    if (tool.modelInput) tables['model-input'] = tool.modelInput.view.rows.map(fieldLine);
    out[`${tool.agent}/${tool.slug}`] = tables;
  }
  return out;
}

export function snapshotInfo(catalog: Catalog, version: string, site: string, base: string): SnapshotInfo {
  return {
    version,
    site,
    base,
    agents: catalog.agents.map((a) => ({ id: a.id, product: a.product, version: a.version, checked: a.checked })),
  };
}

/**
 * src/cli/bin.ts and what it imports as one ES module for Node 20 and later. CommonJS parts
 * (Ajv) call `require` for Node's own modules: the banner gives the module one.
 */
export async function bundleCommand(root: string): Promise<{ code: string; metafile: Metafile }> {
  const result = await build({
    entryPoints: [join(root, 'src/cli/bin.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    write: false,
    metafile: true,
    legalComments: 'none',
    logLevel: 'silent',
    absWorkingDir: root,
    banner: {
      js: [
        '#!/usr/bin/env node',
        `// ${COMMAND}: bundled from src/cli/ by scripts/package.ts; licences of the bundled packages in ` +
          'THIRD-PARTY-LICENSES.txt.',
        "import { createRequire as __agentToolsRequire } from 'node:module';",
        'const require = __agentToolsRequire(import.meta.url);',
      ].join('\n'),
    },
  });
  const [output] = result.outputFiles;
  if (!output) throw new Error('esbuild wrote no bundle of src/cli/bin.ts');
  return { code: output.text, metafile: result.metafile };
}

/** The folder of the npm package an input file of the bundle comes from, if it comes from one. */
function packageFolder(root: string, input: string): string | undefined {
  const at = input.lastIndexOf('node_modules/');
  if (at < 0) return undefined;
  const rest = input.slice(at + 'node_modules/'.length).split('/');
  const name = rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  return join(root, input.slice(0, at), 'node_modules', name);
}

const LICENCE_FILE = /^(licen[cs]e|copying)(\.(md|txt))?$/i;

/** Each bundled package with its version, licence and licence text, by name. */
export function thirdPartyLicences(root: string, metafile: Metafile): string {
  const folders = new Set<string>();
  for (const input of Object.keys(metafile.inputs)) {
    const folder = packageFolder(root, input);
    if (folder) folders.add(folder);
  }
  const parts: string[] = [];
  for (const folder of [...folders].sort()) {
    const meta = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as {
      name: string;
      version: string;
      license?: string;
    };
    const licenceFile = readdirSync(folder).find((f) => LICENCE_FILE.test(f) && statSync(join(folder, f)).isFile());
    const text = licenceFile
      ? readFileSync(join(folder, licenceFile), 'utf8').trim()
      : '(no licence file in the package)';
    parts.push(`${meta.name} ${meta.version} (${meta.license ?? 'licence not stated'})\n\n${text}\n`);
  }
  return `The command bundles these packages:\n\n${parts.join(`\n${'-'.repeat(72)}\n\n`)}`;
}

/** The package's package.json; its keywords name the agents it documents. */
export function packageJson(version: string, agents: readonly string[]): string {
  return `${JSON.stringify(
    {
      name: PACKAGE_NAME,
      version,
      description:
        'The built-in tools of coding-agent CLIs — definitions, hook payloads and answers, release changes — ' +
        'as a command and an MCP server, from a snapshot of the reference site',
      type: 'module',
      bin: { [COMMAND]: 'bin/agent-tools.js' },
      files: ['bin/', 'data/', 'README.md', 'THIRD-PARTY-LICENSES.txt'],
      engines: { node: '>=20' },
      license: 'UNLICENSED',
      keywords: ['coding-agent', 'mcp', 'hooks', 'json-schema', ...agents],
    },
    null,
    2,
  )}\n`;
}

/** The package's README: src/cli/README.md, then what this snapshot holds. */
export function packageReadme(root: string, info: SnapshotInfo): string {
  const text = readFileSync(join(root, 'src/cli/README.md'), 'utf8').trimEnd();
  const agents = info.agents.map((a) => `- ${a.product} ${a.version} (checked ${a.checked})`).join('\n');
  return `${text}\n\n## This snapshot\n\nData of ${info.site}, built from:\n\n${agents}\n`;
}

/** The site folder a path names, checked to be a build (it has a catalog). */
export function builtSite(dir: string): string {
  if (!existsSync(join(dir, 'catalog.json')))
    throw new Error(`${dir} is not a built site (no catalog.json): run npm run build, or pass --site <folder>`);
  return dir;
}
