/**
 * Code mode: the `exec` tool's description declares every nested tool in
 * TypeScript, in one of two forms.
 *
 * - Codex: fenced ```ts blocks, shared type declarations and
 *   `declare const tools: { name(args: {...}): Promise<Result>; }`, each tool
 *   under a `### \`name\`` heading that describes it.
 * - Qwen Code: plain lines, shared `type X = …;` declarations, then one
 *   `tools.name(args: {...}): Promise<CodeModeToolResult>;` line a tool, and
 *   `const ALL_TOOLS = [{"name", "jsName", "description", …}] as const;` with
 *   each tool's name and description. Every tool returns the same
 *   `CodeModeToolResult` envelope, so no tool has a result type of its own.
 *
 * This reads those declarations with the TypeScript compiler API and returns, per
 * nested tool, a self-contained declaration text for its input and its result.
 */
import ts from 'typescript';
import { declarationClosure, declarationText, parseDeclarations, TypeScriptDefinitionError } from '../shapes/ts-shape.ts';
import { CaptureFormatError, type CapturedTool } from './types.ts';
import { makeTool } from './shared.ts';
import type { Definition, DefinitionOrigin } from '../core/content-types.ts';

export class CodeModeError extends Error {}

export interface NestedTool {
  /** Name as a JavaScript identifier on `tools` (`exec_command`, `clock__curr_time`). */
  identifier: string;
  /** The tool's name where the declaration gives one beside the identifier (Qwen Code's `ALL_TOOLS`). */
  name?: string;
  description?: string;
  input: { typeName: string; source: string };
  /** Absent when the tool is declared to return only the envelope every nested tool returns (Qwen Code's `CodeModeToolResult`). */
  result?: { typeName: string; source: string };
}

/** The result type every nested tool of Qwen Code's code mode returns: an envelope, not a per-tool result. */
export const QWEN_RESULT_ENVELOPE = 'CodeModeToolResult';

/** A line of Qwen Code's form declaring one nested tool: `tools.name(args: …): Promise<…>;`. */
const QWEN_TOOL_LINE = /^tools\.([A-Za-z_$][\w$]*)\(/;
const QWEN_ALL_TOOLS = /^const ALL_TOOLS = (\[.*\]) as const;?$/m;

/** Does an `exec` description declare nested tools, in either form? */
export function declaresNestedTools(description: string): boolean {
  return description.includes('declare const tools') || description.split('\n').some((line) => QWEN_TOOL_LINE.test(line));
}

/** Identifiers of the nested tools an `exec` description declares in Qwen Code's form (`tools.name(` lines). */
export function qwenNestedToolNames(description: string): string[] {
  return description.split('\n').flatMap((line) => {
    const m = QWEN_TOOL_LINE.exec(line);
    return m ? [m[1]!] : [];
  });
}

interface Fence {
  code: string;
  /** Markdown text between the previous fence (or the start) and this one. */
  before: string;
}

/** Fenced ```ts blocks of a Markdown text, with the prose before each. */
function tsFences(markdown: string): Fence[] {
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
function sectionDescription(before: string, identifier: string): string | undefined {
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

interface DeclaredTool {
  identifier: string;
  name?: string;
  input: string;
  result: string;
  description?: string;
}

/** The method signatures of a `declare const tools: { … }` in `file`, or undefined when it declares no `tools`. */
function toolsMembers(file: ts.SourceFile, where: string): { identifier: string; input: string; result: string }[] | undefined {
  let found: { identifier: string; input: string; result: string }[] | undefined;
  for (const statement of file.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const decl of statement.declarationList.declarations) {
      if (!ts.isIdentifier(decl.name) || decl.name.text !== 'tools' || !decl.type || !ts.isTypeLiteralNode(decl.type)) continue;
      found ??= [];
      for (const member of decl.type.members) {
        if (!ts.isMethodSignature(member) || !member.name || !ts.isIdentifier(member.name)) {
          throw new CodeModeError(`${where}: a member of \`tools\` is not a method`);
        }
        const param = member.parameters[0];
        const ret = member.type;
        const resultNode =
          ret && ts.isTypeReferenceNode(ret) && ts.isIdentifier(ret.typeName) && ret.typeName.text === 'Promise' && ret.typeArguments?.length === 1
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

function parseSource(code: string, fileName: string, where: string): ts.SourceFile {
  const file = ts.createSourceFile(fileName, code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const diagnostics = (file as unknown as { parseDiagnostics?: ts.Diagnostic[] }).parseDiagnostics ?? [];
  if (diagnostics.length > 0) {
    throw new CodeModeError(`${where} does not parse: ${ts.flattenDiagnosticMessageText(diagnostics[0]!.messageText, ' ')}`);
  }
  return file;
}

/** Codex's form: fenced ```ts blocks, shared declarations and `declare const tools`. */
function codexDeclarations(description: string): { shared: string[]; tools: DeclaredTool[] } {
  const shared: string[] = [];
  const tools: DeclaredTool[] = [];
  tsFences(description).forEach((fence, i) => {
    const file = parseSource(fence.code, `exec-${i}.ts`, `code block ${i + 1} of the exec description`);
    const members = toolsMembers(file, `code block ${i + 1}`);
    if (!members) {
      shared.push(fence.code);
      return;
    }
    for (const m of members) {
      const description = sectionDescription(fence.before, m.identifier);
      tools.push({ ...m, ...(description ? { description } : {}) });
    }
  });
  return { shared, tools };
}

/** Name and description per identifier, from Qwen Code's `const ALL_TOOLS = [...] as const;`. */
function qwenMetadata(description: string): Map<string, { name?: string; description?: string }> {
  const out = new Map<string, { name?: string; description?: string }>();
  const m = QWEN_ALL_TOOLS.exec(description);
  if (!m) return out;
  let list: unknown;
  try {
    list = JSON.parse(m[1]!);
  } catch (error) {
    throw new CodeModeError(`ALL_TOOLS of the exec description is not a JSON array: ${(error as Error).message}`);
  }
  if (!Array.isArray(list)) throw new CodeModeError('ALL_TOOLS of the exec description is not an array');
  for (const entry of list) {
    if (entry === null || typeof entry !== 'object') continue;
    const { name, jsName, description: text } = entry as Record<string, unknown>;
    const identifier = typeof jsName === 'string' ? jsName : typeof name === 'string' ? name : undefined;
    if (identifier === undefined) continue;
    out.set(identifier, {
      ...(typeof name === 'string' ? { name } : {}),
      ...(typeof text === 'string' && text.trim() !== '' ? { description: text } : {}),
    });
  }
  return out;
}

/**
 * Qwen Code's form: the run of declaration lines (`type X = …;`) right before the
 * first `tools.name(` line, the `tools.name(` lines, and ALL_TOOLS. The tool lines
 * are read as the method signatures of a `declare const tools: { … }`.
 */
function qwenDeclarations(description: string): { shared: string[]; tools: DeclaredTool[] } {
  const lines = description.split('\n');
  const first = lines.findIndex((line) => QWEN_TOOL_LINE.test(line));
  let last = first;
  while (last + 1 < lines.length && QWEN_TOOL_LINE.test(lines[last + 1]!)) last++;
  const stray = lines.slice(last + 1).find((line) => QWEN_TOOL_LINE.test(line));
  if (stray !== undefined) throw new CodeModeError(`a tool declaration apart from the others: ${stray.slice(0, 60)}`);
  let start = first;
  while (start > 0 && lines[start - 1]!.trim() !== '') start--;
  const shared = lines.slice(start, first);
  const code = `${shared.join('\n')}\ndeclare const tools: {\n${lines.slice(first, last + 1).map((l) => '  ' + l.slice('tools.'.length)).join('\n')}\n};\n`;
  const file = parseSource(code, 'exec.ts', 'the declarations of the exec description');
  const metadata = qwenMetadata(description);
  const tools = (toolsMembers(file, 'the exec description') ?? []).map((m): DeclaredTool => ({ ...m, ...metadata.get(m.identifier) }));
  return { shared: shared.length > 0 ? [shared.join('\n')] : [], tools };
}

export function parseCodeModeDescription(description: string): NestedTool[] {
  const qwen = !description.includes('declare const tools') && qwenNestedToolNames(description).length > 0;
  const { shared, tools } = qwen ? qwenDeclarations(description) : codexDeclarations(description);
  const sharedText = shared.join('\n');
  return tools.map((t) => {
    const inputName = typeNameFor(t.identifier, 'Input');
    const resultName = typeNameFor(t.identifier, 'Result');
    const envelope = qwen && t.result === QWEN_RESULT_ENVELOPE;
    const own = `${sharedText}\ntype ${inputName} = ${t.input};\n${envelope ? '' : `type ${resultName} = ${t.result};\n`}`;
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
export function nestedToolsAt(description: string, at: string, exec: string): NestedTool[] {
  try {
    return parseCodeModeDescription(description);
  } catch (error) {
    if (error instanceof CodeModeError || error instanceof TypeScriptDefinitionError) {
      throw new CaptureFormatError(`the code-mode declarations in the description: ${error.message}`, at, exec, { cause: error });
    }
    throw error;
  }
}

/**
 * The nested tools of an `exec` description at `at` as captured tools, each named by
 * `nameOf` (the wire formats split identifiers differently) and, when it returns only
 * the envelope every nested tool returns, given `noResult` as its result.
 */
export function codeModeTools(
  description: string,
  at: string,
  exec: string,
  origin: DefinitionOrigin,
  nameOf: (tool: NestedTool) => { name: string; namespace?: string | undefined },
  noResult: Definition,
): CapturedTool[] {
  return nestedToolsAt(description, at, exec).map((tool) =>
    makeTool({
      ...nameOf(tool),
      delivery: 'code-mode',
      description: tool.description,
      input: { kind: 'typescript', typeName: tool.input.typeName, source: tool.input.source, origin },
      output: tool.result ? { kind: 'typescript', typeName: tool.result.typeName, source: tool.result.source, origin } : noResult,
      pointer: at,
      namePointer: at,
    }),
  );
}
