/**
 * Codex code mode: the `exec` tool's description declares every nested tool in
 * TypeScript (`declare const tools: { name(args: {...}): Promise<Result>; }`),
 * after shared type declarations. This reads those declarations with the
 * TypeScript compiler API and returns, per nested tool, a self-contained
 * declaration text for its input and its result.
 */
import ts from 'typescript';
import { declarationClosure, declarationText, parseDeclarations } from '../ts-shape.ts';

export class CodeModeError extends Error {}

export interface NestedTool {
  /** Name as a JavaScript identifier on `tools` (`exec_command`, `clock__curr_time`). */
  identifier: string;
  description?: string;
  input: { typeName: string; source: string };
  result: { typeName: string; source: string };
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

export function parseCodeModeDescription(description: string): NestedTool[] {
  const fences = tsFences(description);
  const shared: string[] = [];
  const declaredTools: { identifier: string; input: string; result: string; before: string }[] = [];
  fences.forEach((fence, i) => {
    const file = ts.createSourceFile(`exec-${i}.ts`, fence.code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
    const diagnostics = (file as unknown as { parseDiagnostics?: ts.Diagnostic[] }).parseDiagnostics ?? [];
    if (diagnostics.length > 0) {
      throw new CodeModeError(`code block ${i + 1} of the exec description does not parse: ${ts.flattenDiagnosticMessageText(diagnostics[0]!.messageText, ' ')}`);
    }
    let declaresTools = false;
    for (const statement of file.statements) {
      if (ts.isVariableStatement(statement)) {
        for (const decl of statement.declarationList.declarations) {
          if (!ts.isIdentifier(decl.name) || decl.name.text !== 'tools' || !decl.type || !ts.isTypeLiteralNode(decl.type)) continue;
          declaresTools = true;
          for (const member of decl.type.members) {
            if (!ts.isMethodSignature(member) || !member.name || !ts.isIdentifier(member.name)) {
              throw new CodeModeError(`code block ${i + 1}: a member of \`tools\` is not a method`);
            }
            const param = member.parameters[0];
            const ret = member.type;
            const resultNode =
              ret && ts.isTypeReferenceNode(ret) && ts.isIdentifier(ret.typeName) && ret.typeName.text === 'Promise' && ret.typeArguments?.length === 1
                ? ret.typeArguments[0]!
                : ret;
            declaredTools.push({
              identifier: member.name.text,
              input: param?.type ? param.type.getText(file) : '{}',
              result: resultNode ? resultNode.getText(file) : 'unknown',
              before: fence.before,
            });
          }
        }
      }
    }
    if (!declaresTools) shared.push(fence.code);
  });
  const sharedText = shared.join('\n');
  return declaredTools.map((t) => {
    const inputName = typeNameFor(t.identifier, 'Input');
    const resultName = typeNameFor(t.identifier, 'Result');
    const own = `${sharedText}\ntype ${inputName} = ${t.input};\ntype ${resultName} = ${t.result};\n`;
    const parsed = parseDeclarations(own, `${t.identifier}.d.ts`);
    const only = (root: string) => declarationText(parsed, declarationClosure(parsed, root));
    const tool: NestedTool = {
      identifier: t.identifier,
      input: { typeName: inputName, source: only(inputName) },
      result: { typeName: resultName, source: only(resultName) },
    };
    const description = sectionDescription(t.before, t.identifier);
    if (description) tool.description = description;
    return tool;
  });
}
