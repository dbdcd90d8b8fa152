/**
 * Which export files a tool has, and at which URLs. Every file exists twice:
 * at the tool's latest path (`/claude-code/bash/input.schema.json`) and at the
 * path of the release it describes (`/claude-code/bash/2.1.332/input.schema.json`),
 * with the same bytes. That release is its own source's (src/lib/model/releases.ts): a
 * tool's input from published types and its model-facing input from captures can
 * sit under different releases. The versioned URL is canonical: each schema's `$id`.
 *
 * Pure: the model comes in as arguments.
 */
import { AGENTS } from '../agents/index.ts';
import type { Definition } from '../core/content-types.ts';
import type { ToolModel } from '../model/model.ts';
import { sitePath, toolPath } from './site.ts';
import { releaseSegment, type Release } from '../model/releases.ts';

export {
  EXPORT_FILE_NAMES,
  SECTIONS,
  type ExportFileName,
  type ExportKind,
  type Section,
} from '../core/export-file-names.ts';
import { EXPORT_FILE_NAMES, SECTIONS, type ExportFileName, type Section } from '../core/export-file-names.ts';

/** The definition a section of the tool page shows, if the tool has that section. */
export function sectionDefinition(tool: ToolModel, section: Section): Definition | undefined {
  switch (section) {
    case 'input':
      return tool.input.definition;
    case 'result':
      return tool.output.definition;
    case 'model-input':
      return tool.modelInput?.view.definition;
  }
}

/** Definitions that have a JSON Schema: a JSON Schema itself, or a TypeScript type converted to one. */
export function hasSchema(
  definition: Definition | undefined,
): definition is Definition & { kind: 'json-schema' | 'typescript' } {
  return definition?.kind === 'json-schema' || definition?.kind === 'typescript';
}

/** The export files of a tool, in a fixed order. */
export function exportFileNames(tool: ToolModel): ExportFileName[] {
  const names: ExportFileName[] = [];
  for (const section of SECTIONS) if (hasSchema(sectionDefinition(tool, section))) names.push(`${section}.schema.json`);
  if (AGENTS[tool.agent].generatedDeclarations && tool.input.definition.kind === 'json-schema')
    names.push('input.d.ts');
  return names;
}

/** Site-relative path (without base) of a tool's export file, latest or at a release. */
export function exportPath(tool: Pick<ToolModel, 'agent' | 'slug'>, file: ExportFileName, version?: string): string {
  return `${toolPath(tool)}${version === undefined ? '' : `${version}/`}${file}`;
}

/** Where the site is served: its origin (astro.config `site`), when known. Paths get the base either way. */
export interface SiteOrigin {
  site?: URL | string | undefined;
}

/** A site path as a URL: absolute when the site's origin is known, else a path with the base. */
export function siteUrl(path: string, origin: SiteOrigin): string {
  const withBase = sitePath(path);
  return origin.site === undefined ? withBase : new URL(withBase, origin.site).href;
}

/**
 * A relative reference from the file at site path `from` to the file at site path `to` (both
 * without base): what a `$ref` between two of our schemas holds. JSON Schema resolves it
 * against the referring schema's `$id`, so it names the same file as the absolute URL would,
 * and it still does when the files are served from another address. Percent-encoded as URLs
 * are; a first segment holding `:` (which would read as a scheme) is written after `./`.
 */
export function relativeReference(from: string, to: string): string {
  const segments = (path: string) => new URL(path, 'http://site.invalid').pathname.split('/').slice(1);
  const source = segments(from).slice(0, -1);
  const target = segments(to);
  let common = 0;
  while (common < source.length && common < target.length - 1 && source[common] === target[common]) common++;
  const reference = [...source.slice(common).map(() => '..'), ...target.slice(common)].join('/');
  return reference.split('/')[0]!.includes(':') ? `./${reference}` : reference;
}

const SECTION_RELEASES: Record<Section, keyof ToolModel['releases']> = {
  input: 'input',
  result: 'result',
  'model-input': 'modelInput',
};

/** The release a section of the tool comes from: its types or its captures. A section with a schema has one. */
export function sectionRelease(tool: ToolModel, section: Section): Release {
  const release = tool.releases[SECTION_RELEASES[section]];
  if (!release) throw new Error(`${tool.agent}/${tool.slug} ${section}: no source release is known for it`);
  return release;
}

/** The release folder of an export file: that of the section it comes from (`2.1.332`). */
export function versionSegment(tool: ToolModel, file: ExportFileName): string {
  return releaseSegment(sectionRelease(tool, EXPORT_FILE_NAMES[file].section));
}

/** The versioned path of an export file: under the release of the section it comes from. */
export function versionedExportPath(tool: ToolModel, file: ExportFileName): string {
  return exportPath(tool, file, versionSegment(tool, file));
}

/**
 * A tool's timeline over the releases read (src/lib/exports/tool-timeline.ts), beside its page: what its release
 * comparison loads.
 */
export const TIMELINE_FILE = 'timeline.json';
