/**
 * sdk-tools.d.ts (from @anthropic-ai/claude-agent-sdk) → one generated record per tool.
 *
 * Pure: takes the file's text and the name table, returns records or throws an
 * IngestError that says which type could not be mapped. The script in
 * scripts/ingest-claude-sdk.ts downloads the package and writes the records.
 */
import ts from 'typescript';
import { agentOfPublishedTypesScript } from '../../src/lib/agents/index.ts';
import {
  declarationClosure,
  declarationText,
  parseDeclarations,
  shapeFromTypeScript,
  type ParsedDeclarations,
} from '../../src/lib/shapes/ts-shape.ts';
import { duplicateIds, fieldRows } from '../../src/lib/shapes/field-rows.ts';
import type { AliasRecord, GeneratedTool, ToolGroup, TypeScriptDefinition } from '../../src/lib/core/content-types.ts';

/** The agent whose module names ingest-claude-sdk.ts as its published-types script (the registry says which). */
const sdkAgent = agentOfPublishedTypesScript('scripts/ingest-claude-sdk.ts');

export class IngestError extends Error {}

export interface NameTable {
  types: Record<string, { name: string; group: ToolGroup; evidence: string }>;
  aliases: Record<string, AliasRecord[]>;
}

export interface SdkOrigin {
  package: string;
  version: string;
  file: string;
  checked: string;
}

const INPUT_UNION = 'ToolInputSchemas';
const OUTPUT_UNION = 'ToolOutputSchemas';

/** Names of the type references that make up a union type alias, in order. */
function unionMembers(parsed: ParsedDeclarations, aliasName: string): string[] {
  const decl = parsed.declarations.get(aliasName);
  if (!decl || !ts.isTypeAliasDeclaration(decl)) throw new IngestError(`${aliasName} is not declared as a type alias`);
  const members = ts.isUnionTypeNode(decl.type) ? decl.type.types : [decl.type];
  return members.map((m) => {
    if (!ts.isTypeReferenceNode(m) || !ts.isIdentifier(m.typeName)) {
      throw new IngestError(`${aliasName}: member ${m.getText()} is not a plain type name`);
    }
    return m.typeName.text;
  });
}

function definition(
  parsed: ParsedDeclarations,
  typeName: string,
  root: 'input' | 'output',
  origin: SdkOrigin,
): TypeScriptDefinition {
  let source: string;
  try {
    source = declarationText(parsed, declarationClosure(parsed, typeName));
  } catch (error) {
    throw new IngestError((error as Error).message);
  }
  // Prove now, at ingest, that the build will be able to read it.
  try {
    const rows = fieldRows(shapeFromTypeScript(source, typeName, `${typeName}.d.ts`), { root });
    const dups = duplicateIds(rows);
    if (dups.length > 0) throw new IngestError(`${typeName}: field anchors collide: ${dups.join(', ')}`);
  } catch (error) {
    if (error instanceof IngestError) throw error;
    throw new IngestError(`${typeName} cannot be turned into a field table: ${(error as Error).message}`);
  }
  return {
    kind: 'typescript',
    typeName,
    source,
    origin: { package: origin.package, version: origin.version, file: origin.file },
  };
}

/** The type prefix of each input type (`FileRead` for FileReadInput); every output type must have its input. */
function typePrefixes(inputs: readonly string[], outputs: ReadonlySet<string>): string[] {
  const prefixes: string[] = [];
  for (const input of inputs) {
    if (!input.endsWith('Input')) throw new IngestError(`${INPUT_UNION} member ${input} does not end in "Input"`);
    prefixes.push(input.slice(0, -'Input'.length));
  }
  for (const output of outputs) {
    if (!output.endsWith('Output') || !prefixes.includes(output.slice(0, -'Output'.length))) {
      throw new IngestError(`${OUTPUT_UNION} member ${output} has no matching …Input type in ${INPUT_UNION}`);
    }
  }
  return prefixes;
}

/** The generated tool of one type prefix: its callable name, aliases, input and result definitions. */
function sdkTool(
  parsed: ParsedDeclarations,
  prefix: string,
  names: NameTable,
  outputs: ReadonlySet<string>,
  origin: SdkOrigin,
): GeneratedTool {
  const entry = names.types[prefix]!;
  const outputName = `${prefix}Output`;
  const aliases: AliasRecord[] = [
    ...(names.aliases[entry.name] ?? []),
    { name: `${prefix}Input`, kind: 'sdk-type', evidence: `input type in ${origin.file}` },
  ];
  if (outputs.has(outputName))
    aliases.push({ name: outputName, kind: 'sdk-type', evidence: `result type in ${origin.file}` });
  const tool: GeneratedTool = {
    agent: sdkAgent.id,
    name: entry.name,
    group: entry.group,
    nameEvidence: entry.evidence,
    aliases,
    input: definition(parsed, `${prefix}Input`, 'input', origin),
    output: outputs.has(outputName)
      ? definition(parsed, outputName, 'output', origin)
      : { kind: 'unavailable', reason: `${origin.file} declares no ${outputName} type.` },
    provenance: [
      {
        package: origin.package,
        version: origin.version,
        file: origin.file,
        method: 'TypeScript compiler API over the published declaration file',
        date: origin.checked,
      },
    ],
  };
  return tool;
}

/**
 * `resultTypesOptional`: a file without ToolOutputSchemas declares no result
 * types (as Claude Code's own sdk-tools.d.ts did before 2.0; the release
 * history reads those), instead of being refused.
 */
export function extractSdkTools(
  dtsText: string,
  names: NameTable,
  origin: SdkOrigin,
  options: { resultTypesOptional?: boolean } = {},
): GeneratedTool[] {
  let parsed: ParsedDeclarations;
  try {
    parsed = parseDeclarations(dtsText, origin.file);
  } catch (error) {
    throw new IngestError(`${origin.file} does not parse: ${(error as Error).message}`);
  }
  const inputs = unionMembers(parsed, INPUT_UNION).filter((n) => n !== OUTPUT_UNION);
  const outputs = new Set(
    options.resultTypesOptional && !parsed.declarations.has(OUTPUT_UNION) ? [] : unionMembers(parsed, OUTPUT_UNION),
  );
  const prefixes = typePrefixes(inputs, outputs);
  const unmapped = prefixes.filter((p) => !names.types[p]);
  if (unmapped.length > 0) {
    throw new IngestError(
      `sdk-tools.d.ts declares tool types with no callable name in scripts/claude-sdk-names.json: ${unmapped
        .map((p) => p + 'Input')
        .join(', ')}. Add each to "types" with the tool's name and the evidence for it.`,
    );
  }
  const tools = prefixes.map((prefix) => sdkTool(parsed, prefix, names, outputs, origin));
  const seen = new Set<string>();
  for (const t of tools) {
    if (seen.has(t.name)) throw new IngestError(`two SDK types map to the tool name ${t.name}`);
    seen.add(t.name);
  }
  const unusedAliases = Object.keys(names.aliases).filter((n) => !seen.has(n));
  if (unusedAliases.length > 0)
    throw new IngestError(`aliases listed for tools the SDK does not declare: ${unusedAliases.join(', ')}`);
  return tools;
}
