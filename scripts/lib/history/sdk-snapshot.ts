/**
 * One release's sdk-tools.d.ts → the field rows of every tool, in a compact
 * form that two releases are compared on (and that the history script keeps
 * in its cache so that a release is parsed once).
 *
 * Pure, and the site's own code end to end: the tools are cut out of the
 * declaration file by `extractSdkTools` (the ingest script's code), and each
 * definition becomes field rows through `definitionView` (what a tool page
 * renders), so a field's anchor, display path and type text here are the ones
 * its page shows.
 *
 * Type prefixes missing from scripts/claude-sdk-names.json (tools that older
 * releases declared and the pinned one no longer does, such as TaskOutput or
 * KillShell) still get a name: the prefix itself, the rule most entries of the
 * names file document ("Tool name: X" for the type XInput). Those names are
 * listed in `derived`.
 *
 * A file that declares no ToolOutputSchemas (Claude Code's own sdk-tools.d.ts
 * before 2.0 declared inputs only) gives every tool `output: null`.
 */
import ts from 'typescript';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { definitionAjv } from '../../../src/lib/check/definition-ajv.ts';
import { extractSdkTools, type NameTable } from '../claude-sdk.ts';
import { parseDeclarations, type ParsedDeclarations } from '../../../src/lib/shapes/ts-shape.ts';
import { definitionView } from '../../../src/lib/content/definition-view.ts';
import { rowSnapshot, type RowSnapshot, type Side } from './rows.ts';
import { Problems } from '../../../src/lib/content/problems.ts';
import type { Definition } from '../../../src/lib/core/content-types.ts';

/** The declaration file could not be read into tools; the message says why in one line. */
export class SnapshotError extends Error {
  override name = 'SnapshotError';
}

export interface SdkToolSnapshot {
  /** The type prefix in sdk-tools.d.ts (`FileRead` for FileReadInput / FileReadOutput). */
  typePrefix: string;
  input: RowSnapshot[];
  /** null when the release declares no …Output type for the tool. */
  output: RowSnapshot[] | null;
}

export interface ReleaseSnapshot {
  /** By callable name. */
  tools: Record<string, SdkToolSnapshot>;
  /** Type prefixes the names table does not list; each was named after itself. */
  derived: string[];
}

const INPUT_UNION = 'ToolInputSchemas';

/** Type prefixes of the members of ToolInputSchemas that end in `Input`, in order. */
function inputPrefixes(parsed: ParsedDeclarations): string[] {
  const decl = parsed.declarations.get(INPUT_UNION);
  if (!decl || !ts.isTypeAliasDeclaration(decl))
    throw new SnapshotError(`${INPUT_UNION} is not declared as a type alias`);
  const members = ts.isUnionTypeNode(decl.type) ? decl.type.types : [decl.type];
  const prefixes: string[] = [];
  for (const m of members) {
    if (ts.isTypeReferenceNode(m) && ts.isIdentifier(m.typeName) && m.typeName.text.endsWith('Input')) {
      prefixes.push(m.typeName.text.slice(0, -'Input'.length));
    }
  }
  return prefixes;
}

/**
 * The names table extended with an entry for every type prefix it lacks (named
 * after the prefix), and without aliases (they play no part in field rows, and
 * an older release need not declare every tool the aliases name).
 */
export function namesForRelease(
  names: NameTable,
  prefixes: readonly string[],
): { table: NameTable; derived: string[] } {
  const types: NameTable['types'] = { ...names.types };
  const derived: string[] = [];
  const taken = new Map<string, string>();
  for (const p of prefixes) if (names.types[p]) taken.set(names.types[p].name, p);
  for (const prefix of prefixes) {
    if (names.types[prefix]) continue;
    const other = taken.get(prefix);
    if (other !== undefined) {
      throw new SnapshotError(
        `the type prefix ${prefix} has no entry in the names table, and its own name is already the callable name ` +
          `of ${other}Input`,
      );
    }
    types[prefix] = { name: prefix, group: 'built-in', evidence: `named after its type prefix (${prefix}Input)` };
    taken.set(prefix, prefix);
    derived.push(prefix);
  }
  return { table: { types, aliases: {} }, derived };
}

let sharedAjv: Ajv2020 | undefined;

function rowsOf(definition: Definition, root: Side, file: string, tool: string): RowSnapshot[] {
  const problems = new Problems();
  sharedAjv ??= definitionAjv();
  const pointer = definition.kind === 'typescript' ? `/${definition.typeName}` : `/${root}`;
  const view = definitionView(definition, root, { file, pointer, tool }, problems, sharedAjv);
  if (problems.count > 0) throw new SnapshotError(problems.errors.map((e) => e.message).join('; '));
  return view.rows.map(rowSnapshot);
}

/** The field rows of every tool that `dtsText` declares. */
export function releaseSnapshot(
  dtsText: string,
  names: NameTable,
  origin: { package: string; version: string; file: string },
): ReleaseSnapshot {
  let parsed: ParsedDeclarations;
  try {
    parsed = parseDeclarations(dtsText, origin.file);
  } catch (error) {
    throw new SnapshotError(`${origin.file} does not parse: ${(error as Error).message}`);
  }
  const { table, derived } = namesForRelease(names, inputPrefixes(parsed));
  let generated: ReturnType<typeof extractSdkTools>;
  try {
    generated = extractSdkTools(dtsText, table, { ...origin, checked: '' }, { resultTypesOptional: true });
  } catch (error) {
    throw new SnapshotError((error as Error).message);
  }
  const tools: Record<string, SdkToolSnapshot> = {};
  for (const tool of [...generated].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const typePrefix = tool.input.kind === 'typescript' ? tool.input.typeName.slice(0, -'Input'.length) : tool.name;
    tools[tool.name] = {
      typePrefix,
      input: rowsOf(tool.input, 'input', origin.file, tool.name),
      output: tool.output.kind === 'unavailable' ? null : rowsOf(tool.output, 'output', origin.file, tool.name),
    };
  }
  return { tools, derived: [...derived].sort() };
}
