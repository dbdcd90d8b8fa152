/**
 * Code mode: an `exec` tool whose description declares every nested tool in
 * TypeScript. How the declarations are laid out is the agent's (a CodeModeLayout
 * in its module: Codex fences them under Markdown headings, Qwen Code writes plain
 * `tools.name(…)` lines); this module reads what a layout returns with the
 * TypeScript compiler API and gives, per nested tool, a self-contained declaration
 * text for its input and its result. The helpers layouts share are exported.
 */
import ts from 'typescript';
import {
  declarationClosure,
  declarationText,
  parseDeclarations,
  TypeScriptDefinitionError,
} from '../shapes/ts-shape.ts';
import { CaptureFormatError, type CapturedTool, type CodeModeLayout, type NestedTool } from './types.ts';
import { makeTool } from './shared.ts';
import type { Definition, DefinitionOrigin } from '../core/content-types.ts';

export class CodeModeError extends Error {}

export interface Fence {
  code: string;
  /** Markdown text between the previous fence (or the start) and this one. */
  before: string;
}

/** Fenced ```ts blocks of a Markdown text, with the prose before each. */
export function tsFences(markdown: string): Fence[] {
  const fences: Fence[] = [];
  const re = /```ts\n([\s\S]*?)\n```/g;
  let last = 0;
  for (let m = re.exec(markdown); m; m = re.exec(markdown)) {
    fences.push({ code: m[1]!, before: markdown.slice(last, m.index) });
    last = m.index + m[0].length;
  }
  return fences;
}

/** The description of a nested tool: the text under its `### \`name\`` heading. */
export function sectionDescription(before: string, identifier: string): string | undefined {
  const heading = before.lastIndexOf(`### \`${identifier}\``);
  if (heading < 0) return undefined;
  const body = before.slice(heading).split('\n').slice(1).join('\n');
  const text = body.replace(/\n*exec tool declaration:\s*$/, '').trim();
  return text === '' ? undefined : text;
}

function typeNameFor(identifier: string, part: 'Input' | 'Result'): string {
  const pascal = identifier
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');
  return `${pascal}${part}`;
}

/** The method signatures of a `declare const tools: { … }` in `file`, or undefined when it declares no `tools`. */
export function toolsMembers(
  file: ts.SourceFile,
  where: string,
): { identifier: string; input: string; result: string }[] | undefined {
  let found: { identifier: string; input: string; result: string }[] | undefined;
  for (const statement of file.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const decl of statement.declarationList.declarations) {
      if (!ts.isIdentifier(decl.name) || decl.name.text !== 'tools' || !decl.type || !ts.isTypeLiteralNode(decl.type))
        continue;
      found ??= [];
      for (const member of decl.type.members) {
        if (!ts.isMethodSignature(member) || !member.name || !ts.isIdentifier(member.name)) {
          throw new CodeModeError(`${where}: a member of \`tools\` is not a method`);
        }
        const param = member.parameters[0];
        const ret = member.type;
        const resultNode =
          ret &&
          ts.isTypeReferenceNode(ret) &&
          ts.isIdentifier(ret.typeName) &&
          ret.typeName.text === 'Promise' &&
          ret.typeArguments?.length === 1
            ? ret.typeArguments[0]!
            : ret;
        found.push({
          identifier: member.name.text,
          input: param?.type ? param.type.getText(file) : '{}',
          result: resultNode ? resultNode.getText(file) : 'unknown',
        });
      }
    }
  }
  return found;
}

/** A TypeScript source file, or CodeModeError naming `where` when it does not parse. */
export function parseSource(code: string, fileName: string, where: string): ts.SourceFile {
  const file = ts.createSourceFile(fileName, code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const diagnostics = (file as unknown as { parseDiagnostics?: ts.Diagnostic[] }).parseDiagnostics ?? [];
  if (diagnostics.length > 0) {
    throw new CodeModeError(
      `${where} does not parse: ${ts.flattenDiagnosticMessageText(diagnostics[0]!.messageText, ' ')}`,
    );
  }
  return file;
}

/** The nested tools an `exec` description declares in `layout`; throws CodeModeError or TypeScriptDefinitionError. */
export function parseCodeModeDescription(description: string, layout: CodeModeLayout): NestedTool[] {
  const { shared, tools } = layout.declarations(description);
  const sharedText = shared.join('\n');
  return tools.map((t) => {
    const inputName = typeNameFor(t.identifier, 'Input');
    const resultName = typeNameFor(t.identifier, 'Result');
    const envelope = layout.envelope !== undefined && t.result === layout.envelope.type;
    const own =
      `${sharedText}\ntype ${inputName} = ` + `${t.input};\n${envelope ? '' : `type ${resultName} = ${t.result};\n`}`;
    const parsed = parseDeclarations(own, `${t.identifier}.d.ts`);
    const only = (root: string) => declarationText(parsed, declarationClosure(parsed, root));
    const tool: NestedTool = { identifier: t.identifier, input: { typeName: inputName, source: only(inputName) } };
    if (t.name !== undefined && t.name !== t.identifier) tool.name = t.name;
    if (!envelope) tool.result = { typeName: resultName, source: only(resultName) };
    if (t.description) tool.description = t.description;
    return tool;
  });
}

/**
 * The nested tools of the `exec` tool whose description is at `at` (a JSON pointer
 * in the capture file); a description that does not parse is a CaptureFormatError there.
 */
export function nestedToolsAt(description: string, at: string, exec: string, layout: CodeModeLayout): NestedTool[] {
  try {
    return parseCodeModeDescription(description, layout);
  } catch (error) {
    if (error instanceof CodeModeError || error instanceof TypeScriptDefinitionError) {
      throw new CaptureFormatError(`the code-mode declarations in the description: ${error.message}`, at, exec, {
        cause: error,
      });
    }
    throw error;
  }
}

/**
 * The nested tools of an `exec` description at `at` as captured tools, named by the
 * layout (given the exec tool's namespace); one that returns only the layout's envelope
 * has no result definition, for the layout's reason.
 */
export function codeModeTools(
  description: string,
  at: string,
  exec: { name: string; namespace: string | undefined },
  origin: DefinitionOrigin,
  layout: CodeModeLayout,
): CapturedTool[] {
  const noResult: Definition = {
    kind: 'unavailable',
    reason: layout.envelope?.reason ?? 'Code mode declares no result type for this tool.',
  };
  return nestedToolsAt(description, at, exec.name, layout).map((tool) =>
    makeTool({
      ...layout.nameOf(tool, exec.namespace),
      delivery: 'code-mode',
      description: tool.description,
      input: { kind: 'typescript', typeName: tool.input.typeName, source: tool.input.source, origin },
      output: tool.result
        ? { kind: 'typescript', typeName: tool.result.typeName, source: tool.result.source, origin }
        : noResult,
      pointer: at,
      namePointer: at,
    }),
  );
}
