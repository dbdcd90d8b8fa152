/**
 * The text of every export file of one tool (schemas, generated declarations),
 * the same at its latest and its versioned path. Pure: model in, text out.
 */
import type { ToolModel } from '../model/model.ts';
import { releaseLabel } from '../model/releases.ts';
import type { ArchivedExport } from '../model/model.ts';
import { commentSafeLiteral } from '../core/comment-text.ts';
import { declarationFromSchema, declarationTypeName } from '../shapes/declarations.ts';
import {
  EXPORT_FILE_NAMES,
  exportFileNames,
  sectionDefinition,
  sectionRelease,
  siteUrl,
  versionedExportPath,
  type ExportFileName,
  type Section,
  type SiteOrigin,
} from './export-files.ts';
import { definitionSchema, publishedSchema, SchemaConversionError, type JsonSchema } from '../shapes/json-schema.ts';

const SECTION_WORDS: Record<Section, string> = {
  input: 'input',
  result: 'result',
  'model-input': 'model-facing input',
};

/** `Bash input (Claude Code 2.1.332)`: the release of that section's own source. */
export function schemaTitle(tool: ToolModel, section: Section): string {
  return `${tool.fullName} ${SECTION_WORDS[section]} (${releaseLabel(sectionRelease(tool, section))})`;
}

/** The canonical URL of a tool's export file: its versioned path. */
export function canonicalUrl(tool: ToolModel, file: ExportFileName, origin: SiteOrigin): string {
  return siteUrl(versionedExportPath(tool, file), origin);
}

/**
 * The published JSON Schema of one section of a tool (`$schema`, `$id`, `title`, body), or undefined when it has none.
 */
export function toolSchema(tool: ToolModel, section: Section, origin: SiteOrigin): JsonSchema | undefined {
  const definition = sectionDefinition(tool, section);
  if (!definition) return undefined;
  let body: JsonSchema | undefined;
  try {
    body = definitionSchema(definition);
  } catch (error) {
    throw new SchemaConversionError(`${tool.agent}/${tool.slug} ${section}: ${(error as Error).message}`);
  }
  if (!body) return undefined;
  return publishedSchema(body, {
    id: canonicalUrl(tool, `${section}.schema.json` as ExportFileName, origin),
    title: schemaTitle(tool, section),
  });
}

export const schemaText = (schema: JsonSchema): string => `${JSON.stringify(schema, null, 2)}\n`;

/** Every export file of a tool, by file name, in exportFileNames order. */
export async function toolExportFiles(tool: ToolModel, origin: SiteOrigin): Promise<Map<ExportFileName, string>> {
  const files = new Map<ExportFileName, string>();
  for (const file of exportFileNames(tool)) {
    const { kind, section } = EXPORT_FILE_NAMES[file];
    const schema = toolSchema(tool, section, origin);
    if (!schema) throw new SchemaConversionError(`${tool.agent}/${tool.slug}: ${file} has no schema to come from`);
    if (kind === 'schema') {
      files.set(file, schemaText(schema));
    } else {
      // Title, $id and URL hold captured text: JSON strings, never raw into the comment.
      const banner = [
        `${commentSafeLiteral(schemaTitle(tool, section))}: the arguments the model sends.`,
        `Generated from the JSON Schema the CLI sends its model, ${commentSafeLiteral(String(schema.$id))}.`,
        `Page: ${commentSafeLiteral(siteUrl(`/${tool.agent}/${tool.slug}/`, origin))}`,
      ];
      files.set(file, await declarationFromSchema(schema, declarationTypeName(tool.fullName), banner));
    }
  }
  return files;
}

/**
 * An archived export file's text for this build: the site address it was
 * written with becomes this site's (a build without an address keeps it).
 */
export function archivedText(
  archived: Pick<ArchivedExport, 'text' | 'origin'>,
  site: URL | string | undefined,
): string {
  if (site === undefined) return archived.text;
  const origin = new URL(String(site)).origin;
  return origin === archived.origin ? archived.text : archived.text.split(archived.origin).join(origin);
}
