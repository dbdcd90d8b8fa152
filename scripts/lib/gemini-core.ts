/**
 * @google/gemini-cli-core's declaration files → one generated record per Gemini CLI tool.
 *
 * The package publishes no list of tools with their types. What it does publish:
 * the tool-name constants (`export declare const READ_FILE_TOOL_NAME = "read_file"`),
 * one class per tool declared as `extends BaseDeclarativeTool<Params, Result>`,
 * and, beside each .d.ts, the compiled .js. A tool is mapped in three steps,
 * each with the TypeScript compiler API and none by name similarity:
 *
 *   1. name → class: the class whose constructor passes that name to
 *      BaseDeclarativeTool's constructor (its `name` parameter). The compiled .js
 *      shows what is passed: an imported constant (followed through the package's
 *      re-exports to its declaration), the class's `static Name` (and what that is
 *      set to), or a string. A .d.ts `static readonly Name` must agree.
 *   2. class → params type: the first type argument of `BaseDeclarativeTool<…>`,
 *      which must name an interface or type alias (an inline type is not mapped).
 *   3. params type → source: its declaration and every type it refers to, across
 *      files, verbatim with their JSDoc. Two things the field tables cannot read
 *      are written out, with the original kept in a comment: a computed key naming
 *      a string constant (`[PARAM_X]?: T` → `x /* [PARAM_X] *\/?: T`) and a string
 *      enum (→ the union of its values).
 *
 * A tool that cannot be mapped is returned with the reason, not thrown; a package
 * whose shape this code does not recognise (no BaseDeclarativeTool, a params type
 * the field tables cannot read) throws GeminiCoreError.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { agentOfPublishedTypesScript } from '../../src/lib/agents/index.ts';
import { duplicateIds, fieldRows } from '../../src/lib/shapes/field-rows.ts';
import { shapeFromTypeScript } from '../../src/lib/shapes/ts-shape.ts';
import type { GeneratedTool, ProvenanceRecord } from '../../src/lib/core/content-types.ts';

/** The agent whose module names ingest-gemini-core.ts as its published-types script (the registry says which). */
const coreAgent = agentOfPublishedTypesScript('scripts/ingest-gemini-core.ts');

export class GeminiCoreError extends Error {
  override name = 'GeminiCoreError';
}

/** The base class every built-in tool class extends, and its result type. */
const BASE_CLASS = 'BaseDeclarativeTool';
const GENERIC_RESULT = 'ToolResult';
/** Global generic types the field tables read (src/lib/shapes/ts-shape.ts). */
const READABLE_GLOBALS = new Set(['Array', 'Record']);

export interface CoreOrigin {
  package: string;
  version: string;
  /** Day the pin was checked: the provenance date. */
  checked: string;
}

/** How a class gets its tool name. */
export interface NameLink {
  name: string;
  /** The exported constant whose value the class passes, where it passes one. */
  constant?: { name: string; file: string };
  /** The compiled class, and what in it carries the name. */
  jsFile: string;
  via: string;
}

export interface MappedTool {
  name: string;
  className: string;
  /** .d.ts declaring the class (package-relative, `/`-separated). */
  classFile: string;
  link: NameLink;
  params: {
    typeName: string;
    /** .d.ts declaring the params type. */
    file: string;
    /** The params type and every type it refers to. */
    source: string;
    /** Every .d.ts the source was taken from, the params type's first. */
    files: string[];
  };
  result: { typeName: string; file: string; generic: boolean; extendsGeneric: boolean };
}

export interface UnmappedTool {
  name: string;
  reason: string;
}

export interface CoreMapping {
  mapped: MappedTool[];
  unmapped: UnmappedTool[];
  /** Where BaseDeclarativeTool's generic ToolResult is declared. */
  genericResultFile: string;
}

interface ToolClass {
  className: string;
  file: string;
  declaration: ts.ClassDeclaration;
  params: ts.TypeNode;
  result: ts.TypeNode | undefined;
  link?: NameLink;
  /** Why the name could not be read, when it could not. */
  nameProblem?: string;
  /** `static readonly Name = "…"` in the .d.ts, if declared. */
  declaredName?: string;
}

type TypeDeclaration = ts.InterfaceDeclaration | ts.TypeAliasDeclaration | ts.EnumDeclaration;
/** A piece of a declaration's text replaced by another (a computed key written out). */
type Edit = { start: number; end: number; text: string };
/** What `source` collects: each declaration's text in order, the files they come from, each type once by name. */
interface Collected {
  parts: string[];
  files: string[];
  seen: Map<string, ts.Node>;
}

const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Every .d.ts of the package except tests, package-relative with `/`, sorted. */
export function declarationFiles(packageDir: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules') continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.d.ts') && !/\.test\.d\.ts$/.test(entry.name))
        out.push(relative(packageDir, path).split(sep).join('/'));
    }
  };
  walk(packageDir);
  return out.sort();
}

class Mapper {
  readonly program: ts.Program;
  readonly checker: ts.TypeChecker;
  private readonly dir: string;

  constructor(packageDir: string) {
    this.dir = resolve(packageDir);
    const files = declarationFiles(this.dir).map((f) => join(this.dir, f));
    if (files.length === 0) throw new GeminiCoreError(`no declaration files in ${packageDir}`);
    this.program = ts.createProgram(files, {
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      types: [],
      skipLibCheck: true,
    });
    this.checker = this.program.getTypeChecker();
  }

  rel(fileName: string): string {
    return relative(this.dir, fileName).split(sep).join('/');
  }

  packageFiles(): ts.SourceFile[] {
    return this.program
      .getSourceFiles()
      .filter((sf) => !this.program.isSourceFileDefaultLibrary(sf) && !relative(this.dir, sf.fileName).startsWith('..'))
      .sort((a, b) => (a.fileName < b.fileName ? -1 : a.fileName > b.fileName ? 1 : 0));
  }

  isLibrary(node: ts.Node): boolean {
    return this.program.isSourceFileDefaultLibrary(node.getSourceFile());
  }

  /** The symbol an identifier names, through imports and re-exports. */
  resolved(node: ts.Node): ts.Symbol | undefined {
    let symbol = this.checker.getSymbolAtLocation(node);
    if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = this.checker.getAliasedSymbol(symbol);
    return symbol && (symbol.declarations?.length ?? 0) > 0 ? symbol : undefined;
  }

  /** The classes declared `extends BaseDeclarativeTool<…>`, and the base class itself. */
  toolClasses(): { classes: ToolClass[]; base: ts.ClassDeclaration } {
    const classes: ToolClass[] = [];
    let base: ts.ClassDeclaration | undefined;
    for (const sf of this.packageFiles()) {
      for (const statement of sf.statements) {
        if (!ts.isClassDeclaration(statement) || !statement.name) continue;
        const heritage = statement.heritageClauses?.find((c) => c.token === ts.SyntaxKind.ExtendsKeyword)?.types[0];
        if (!heritage || !ts.isIdentifier(heritage.expression)) continue;
        const baseDecl = this.resolved(heritage.expression)?.declarations?.[0];
        if (!baseDecl || !ts.isClassDeclaration(baseDecl) || baseDecl.name?.text !== BASE_CLASS) continue;
        base ??= baseDecl;
        const [params, result] = heritage.typeArguments ?? [];
        if (!params)
          throw new GeminiCoreError(
            `${this.rel(sf.fileName)}: ${statement.name.text} extends ${BASE_CLASS} without type arguments`,
          );
        const tool: ToolClass = {
          className: statement.name.text,
          file: this.rel(sf.fileName),
          declaration: statement,
          params,
          result,
        };
        const declaredName = staticName(statement);
        if (
          declaredName !== undefined &&
          (ts.isStringLiteral(declaredName) || ts.isNoSubstitutionTemplateLiteral(declaredName))
        )
          tool.declaredName = declaredName.text;
        classes.push(tool);
      }
    }
    if (!base)
      throw new GeminiCoreError(
        `no class in the package extends ${BASE_CLASS}: the package no longer declares its tools the way this ` +
          `ingest reads them`,
      );
    this.checkBaseConstructor(base);
    return { classes, base };
  }

  /** The tool name is the first argument of the base constructor: make sure it still is. */
  private checkBaseConstructor(base: ts.ClassDeclaration): void {
    const symbol = this.checker.getSymbolAtLocation(base.name!)!;
    const signatures = this.checker.getTypeOfSymbolAtLocation(symbol, base).getConstructSignatures();
    const first = signatures[0]?.getParameters()[0]?.name;
    if (first !== 'name') {
      throw new GeminiCoreError(
        `${BASE_CLASS}'s constructor takes ${first === undefined ? 'no parameters' : `"${first}" first`}, not the ` +
          `tool name: the package no longer declares its tools the way this ingest reads them`,
      );
    }
  }

  /** Reads from the compiled class what name it passes to the base constructor. */
  link(tool: ToolClass): void {
    const dts = join(this.dir, tool.file);
    const jsPath = dts.replace(/\.d\.ts$/, '.js');
    const jsFile = this.rel(jsPath);
    if (!existsSync(jsPath)) {
      tool.nameProblem = `${jsFile}, the compiled ${tool.className}, is not in the package`;
      return;
    }
    const js = ts.createSourceFile(
      jsPath,
      readFileSync(jsPath, 'utf8'),
      ts.ScriptTarget.Latest,
      true,
      ts.ScriptKind.JS,
    );
    const cls = js.statements.find(
      (s): s is ts.ClassDeclaration => ts.isClassDeclaration(s) && s.name?.text === tool.className,
    );
    if (!cls) {
      tool.nameProblem = `${jsFile} declares no class ${tool.className}`;
      return;
    }
    const named = nameArgument(cls, tool.className, jsFile);
    if (typeof named === 'string') {
      tool.nameProblem = named;
      return;
    }
    const link = this.nameLink(named.expr, tool.className, js, jsPath, jsFile, named.via);
    if (typeof link === 'string') {
      tool.nameProblem = link;
      return;
    }
    tool.link = link;
    if (tool.declaredName !== undefined && tool.declaredName !== link.name) {
      throw new GeminiCoreError(
        `${tool.file} declares ${tool.className}.Name as "${tool.declaredName}", but ${jsFile} names it "${link.name}"`,
      );
    }
  }

  /** The name an expression passed to super() gives: a string, or an imported string constant; or why neither. */
  private nameLink(
    expr: ts.Expression,
    className: string,
    js: ts.SourceFile,
    jsPath: string,
    jsFile: string,
    via: string,
  ): NameLink | string {
    if (ts.isStringLiteral(expr) || ts.isNoSubstitutionTemplateLiteral(expr)) return { name: expr.text, jsFile, via };
    if (!ts.isIdentifier(expr))
      return (
        `${jsFile}: ${className} is named by the expression ${oneLine(expr.getText())}, which is neither a ` +
        `string nor an imported constant`
      );
    const constant = this.importedConstant(js, jsPath, expr.text);
    if (typeof constant === 'string') return `${jsFile}: ${className} is named by ${expr.text}, ${constant}`;
    return { name: constant.value, constant: { name: constant.name, file: constant.file }, jsFile, via };
  }

  /** The exported string constant an identifier of a compiled file imports, or why it is not one. */
  private importedConstant(
    js: ts.SourceFile,
    jsPath: string,
    local: string,
  ): { name: string; value: string; file: string } | string {
    for (const statement of js.statements) {
      if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
      const bindings = statement.importClause?.namedBindings;
      if (!bindings || !ts.isNamedImports(bindings)) continue;
      const element = bindings.elements.find((e) => e.name.text === local);
      if (!element) continue;
      const imported = element.propertyName?.text ?? element.name.text;
      const specifier = statement.moduleSpecifier.text;
      if (!specifier.startsWith('.')) return `imported from ${specifier}, outside the package`;
      const target = resolve(dirname(jsPath), specifier).replace(/\.js$/, '.d.ts');
      const sf = this.program.getSourceFile(target);
      const module = sf && this.checker.getSymbolAtLocation(sf);
      if (!module) return `imported from ${specifier}, whose declaration file is not in the package`;
      let symbol = this.checker.getExportsOfModule(module).find((s) => s.name === imported);
      if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = this.checker.getAliasedSymbol(symbol);
      const decl = symbol?.declarations?.[0];
      if (!decl || !ts.isVariableDeclaration(decl) || !ts.isIdentifier(decl.name))
        return `which ${this.rel(target)} does not export as a constant`;
      const init = decl.initializer;
      if (!init || !(ts.isStringLiteral(init) || ts.isNoSubstitutionTemplateLiteral(init)))
        return `a constant with no string value in ${this.rel(decl.getSourceFile().fileName)}`;
      return { name: decl.name.text, value: init.text, file: this.rel(decl.getSourceFile().fileName) };
    }
    return 'which its file neither imports nor declares as a string';
  }

  /** The declaration the params type argument names, or why it names none. */
  paramsDeclaration(tool: ToolClass): ts.InterfaceDeclaration | ts.TypeAliasDeclaration | string {
    const node = tool.params;
    if (!ts.isTypeReferenceNode(node) || !ts.isIdentifier(node.typeName) || node.typeArguments) {
      return `${tool.className} (${tool.file}) declares its params as ${oneLine(node.getText())}, not as a named type`;
    }
    const decls = this.resolved(node.typeName)?.declarations ?? [];
    const decl = decls[0];
    if (
      decls.length !== 1 ||
      !decl ||
      !(ts.isInterfaceDeclaration(decl) || ts.isTypeAliasDeclaration(decl)) ||
      this.isLibrary(decl)
    ) {
      return (
        `${tool.className} (${tool.file}) declares its params as ${node.typeName.text}, which is not one ` +
        `interface or type alias of the package`
      );
    }
    return decl;
  }

  /** The params type and every type it refers to, as text the field tables read. */
  source(root: ts.InterfaceDeclaration | ts.TypeAliasDeclaration): { source: string; files: string[] } {
    const collected: Collected = { parts: [], files: [], seen: new Map() };
    this.collect(root, collected);
    return { source: collected.parts.join('\n') + '\n', files: collected.files };
  }

  /**
   * Adds one declaration's text (with its JSDoc, computed keys written out, an enum as a union) to `out`, then every
   * declaration it refers to after it, each once; a second type of the same name is refused.
   */
  private collect(decl: TypeDeclaration, out: Collected): void {
    const name = decl.name.text;
    const where = `${name} (${this.rel(decl.getSourceFile().fileName)})`;
    const earlier = out.seen.get(name);
    if (earlier) {
      if (earlier !== decl)
        throw new GeminiCoreError(`${where}: another type named ${name} is already part of this definition`);
      return;
    }
    out.seen.set(name, decl);
    const file = this.rel(decl.getSourceFile().fileName);
    if (!out.files.includes(file)) out.files.push(file);
    // Its place comes before the types it refers to, which are added while it is walked.
    const index = out.parts.push('') - 1;
    if (ts.isEnumDeclaration(decl)) {
      out.parts[index] = enumAsUnion(decl, where);
      return;
    }
    const edits: Edit[] = [];
    const walk = (node: ts.Node): void => {
      if (this.visitTypeNode(node, where, edits, out)) ts.forEachChild(node, walk);
    };
    ts.forEachChild(decl, walk);
    out.parts[index] = [...jsDocAbove(decl), withEdits(decl, edits)].join('\n');
  }

  /**
   * One node of a declaration: a type it refers to is collected, what the field tables cannot show is refused, a
   * computed key is written out (an edit). Whether to walk the node's children.
   */
  private visitTypeNode(node: ts.Node, where: string, edits: Edit[], out: Collected): boolean {
    if (ts.isTypeReferenceNode(node)) {
      if (!ts.isIdentifier(node.typeName))
        throw new GeminiCoreError(
          `${where} uses the qualified type ${node.typeName.getText()}, which the field tables cannot show`,
        );
      this.referTo(node.typeName, where, out);
    } else if (ts.isExpressionWithTypeArguments(node)) {
      if (!ts.isIdentifier(node.expression))
        throw new GeminiCoreError(`${where} extends ${node.expression.getText()}, which is not a plain type name`);
      this.referTo(node.expression, where, out);
    } else if (ts.isImportTypeNode(node) || ts.isTypeQueryNode(node)) {
      throw new GeminiCoreError(`${where} uses ${oneLine(node.getText())}, which the field tables cannot show`);
    } else if (ts.isComputedPropertyName(node)) {
      const type = this.checker.getTypeAtLocation(node.expression);
      if (!type.isStringLiteral())
        throw new GeminiCoreError(`${where}: the computed key ${node.getText()} is not a string constant`);
      const key = IDENTIFIER.test(type.value) ? type.value : JSON.stringify(type.value);
      edits.push({ start: node.getStart(), end: node.getEnd(), text: `${key} /* ${node.getText()} */` });
      return false;
    }
    return true;
  }

  /** Collects the one interface, type alias or enum of the package an identifier names (a readable global is kept). */
  private referTo(identifier: ts.Identifier, where: string, out: Collected): void {
    const symbol = this.resolved(identifier);
    if (!symbol)
      throw new GeminiCoreError(`${where} refers to ${identifier.text}, which cannot be resolved in the package`);
    if (symbol.flags & ts.SymbolFlags.TypeParameter) return;
    const targets = symbol.declarations ?? [];
    if (targets.some((t) => this.isLibrary(t))) {
      if (READABLE_GLOBALS.has(identifier.text)) return;
      throw new GeminiCoreError(`${where} uses the global type ${identifier.text}, which the field tables cannot show`);
    }
    const target = targets[0];
    if (
      targets.length !== 1 ||
      !target ||
      !(ts.isInterfaceDeclaration(target) || ts.isTypeAliasDeclaration(target) || ts.isEnumDeclaration(target))
    ) {
      throw new GeminiCoreError(
        `${where} refers to ${identifier.text}, which is not one interface, type alias or enum`,
      );
    }
    this.collect(target, out);
  }

  /** What the class declares as its result: the generic ToolResult or a type of its own. */
  result(tool: ToolClass, genericFile: string): MappedTool['result'] {
    const node = tool.result;
    const name = node && ts.isTypeReferenceNode(node) && ts.isIdentifier(node.typeName) ? node.typeName : undefined;
    const decl = name && this.resolved(name)?.declarations?.[0];
    if (!node || !name || !decl)
      return { typeName: GENERIC_RESULT, file: genericFile, generic: true, extendsGeneric: false };
    const file = this.rel(decl.getSourceFile().fileName);
    const generic = name.text === GENERIC_RESULT && file === genericFile;
    const extendsGeneric =
      ts.isInterfaceDeclaration(decl) &&
      (decl.heritageClauses ?? []).some((c) =>
        c.types.some(
          (t) =>
            ts.isIdentifier(t.expression) &&
            this.resolved(t.expression)?.declarations?.[0]?.getSourceFile().fileName === join(this.dir, genericFile) &&
            t.expression.text === GENERIC_RESULT,
        ),
      );
    return { typeName: name.text, file, generic, extendsGeneric };
  }

  /** The file declaring the generic ToolResult, as the base class's constraint names it. */
  genericResultFile(base: ts.ClassDeclaration): string {
    const constraint = base.typeParameters?.[1]?.constraint;
    const decl =
      constraint && ts.isTypeReferenceNode(constraint) && ts.isIdentifier(constraint.typeName)
        ? this.resolved(constraint.typeName)?.declarations?.[0]
        : undefined;
    if (!decl || (constraint as ts.TypeReferenceNode).typeName.getText() !== GENERIC_RESULT) {
      throw new GeminiCoreError(`${BASE_CLASS}'s result type parameter is not constrained to ${GENERIC_RESULT}`);
    }
    return this.rel(decl.getSourceFile().fileName);
  }
}

/**
 * What names a compiled class: the first argument of super() in its constructor, or its static Name when that is what
 * it passes; or why there is none.
 */
function nameArgument(
  cls: ts.ClassDeclaration,
  className: string,
  jsFile: string,
): { expr: ts.Expression; via: string } | string {
  const ctor = cls.members.find((m): m is ts.ConstructorDeclaration => ts.isConstructorDeclaration(m));
  const superCall = ctor?.body?.statements
    .map((s) =>
      ts.isExpressionStatement(s) &&
      ts.isCallExpression(s.expression) &&
      s.expression.expression.kind === ts.SyntaxKind.SuperKeyword
        ? s.expression
        : undefined,
    )
    .find((c) => c !== undefined);
  const expr = superCall?.arguments[0];
  if (!expr) return `${jsFile}: the constructor of ${className} calls no super() with a name`;
  const passesStaticName =
    ts.isPropertyAccessExpression(expr) &&
    ts.isIdentifier(expr.expression) &&
    expr.expression.text === className &&
    expr.name.text === 'Name';
  if (!passesStaticName) return { expr, via: 'the first argument of super() in its constructor' };
  const name = staticName(cls);
  if (!name) return `${jsFile}: ${className} passes ${className}.Name to super() but sets no static Name`;
  return { expr: name, via: 'its static Name, which its constructor passes to super()' };
}

/** The initializer of a class's `static Name` member (compiled class or declaration). */
function staticName(cls: ts.ClassDeclaration): ts.Expression | undefined {
  for (const member of cls.members) {
    if (!ts.isPropertyDeclaration(member) || !ts.isIdentifier(member.name) || member.name.text !== 'Name') continue;
    if (!member.modifiers?.some((m) => m.kind === ts.SyntaxKind.StaticKeyword)) continue;
    return member.initializer;
  }
  return undefined;
}

/** The JSDoc blocks directly above a declaration (not a file's licence header). */
function jsDocAbove(node: ts.Node): string[] {
  const text = node.getSourceFile().text;
  return (ts.getLeadingCommentRanges(text, node.pos) ?? [])
    .map((r) => text.slice(r.pos, r.end))
    .filter((c) => c.startsWith('/**') && !c.includes('@license'));
}

/** A declaration's text with some spans replaced. */
function withEdits(node: ts.Node, edits: { start: number; end: number; text: string }[]): string {
  const text = node.getSourceFile().text;
  let out = '';
  let at = node.getStart();
  for (const edit of [...edits].sort((a, b) => a.start - b.start)) {
    out += text.slice(at, edit.start) + edit.text;
    at = edit.end;
  }
  return out + text.slice(at, node.getEnd());
}

/** A string enum as the union of its values, with the enum itself in a comment above. */
function enumAsUnion(decl: ts.EnumDeclaration, where: string): string {
  const values = decl.members.map((m) => {
    if (!m.initializer || !ts.isStringLiteral(m.initializer))
      throw new GeminiCoreError(`${where}: member ${m.name.getText()} of the enum has no string value`);
    return JSON.stringify(m.initializer.text);
  });
  if (values.length === 0) throw new GeminiCoreError(`${where}: the enum has no members`);
  return [
    ...jsDocAbove(decl),
    `/* ${oneLine(decl.getText())}, written as the union of its values: */`,
    `export type ${decl.name.text} = ${values.join(' | ')};`,
  ].join('\n');
}

/**
 * Maps each tool name to the params type of the one class that takes it. Names
 * that no class takes, that several classes take, or whose class declares its
 * params inline are returned in `unmapped` with the reason.
 */
export function mapCoreTools(packageDir: string, toolNames: readonly string[]): CoreMapping {
  const mapper = new Mapper(packageDir);
  const { classes, base } = mapper.toolClasses();
  const genericResultFile = mapper.genericResultFile(base);
  for (const tool of classes) mapper.link(tool);
  const mapped: MappedTool[] = [];
  const unmapped: UnmappedTool[] = [];
  for (const name of [...new Set(toolNames)].sort()) {
    const candidates = classes.filter((c) => c.link?.name === name);
    if (candidates.length === 0) {
      const unread = classes.filter((c) => !c.link && c.declaredName === name).map((c) => c.nameProblem);
      unmapped.push({
        name,
        reason:
          `no class extending ${BASE_CLASS} passes this name to its ` +
          `constructor${unread.length > 0 ? ` (${unread.join('; ')})` : ''}`,
      });
      continue;
    }
    if (candidates.length > 1) {
      unmapped.push({
        name,
        reason:
          `${candidates.length} classes pass this name to ${BASE_CLASS}: ` +
          `${candidates.map((c) => `${c.className} (${c.file}, params ${oneLine(c.params.getText())})`).join(', ')}; ` +
          `which of them the CLI registers is decided at run time`,
      });
      continue;
    }
    const tool = candidates[0]!;
    const decl = mapper.paramsDeclaration(tool);
    if (typeof decl === 'string') {
      unmapped.push({ name, reason: decl });
      continue;
    }
    const { source, files } = mapper.source(decl);
    const typeName = decl.name.text;
    proveReadable(source, typeName, name);
    mapped.push({
      name,
      className: tool.className,
      classFile: tool.file,
      link: tool.link!,
      params: { typeName, file: files[0]!, source, files },
      result: mapper.result(tool, genericResultFile),
    });
  }
  return { mapped, unmapped, genericResultFile };
}

/** Proves now, at ingest, that the build will be able to read the definition. */
function proveReadable(source: string, typeName: string, tool: string): void {
  let ids: string[];
  try {
    ids = duplicateIds(fieldRows(shapeFromTypeScript(source, typeName, `${typeName}.d.ts`), { root: 'input' }));
  } catch (error) {
    throw new GeminiCoreError(`${tool}: ${typeName} cannot be turned into a field table: ${(error as Error).message}`);
  }
  if (ids.length > 0) throw new GeminiCoreError(`${tool}: ${typeName}: field anchors collide: ${ids.join(', ')}`);
}

function nameEvidence(tool: MappedTool, origin: CoreOrigin): string {
  const { link } = tool;
  const where = `${link.jsFile} of ${origin.package} ${origin.version}`;
  if (link.constant) {
    return (
      `the constant ${link.constant.name} = "${link.name}" in ${link.constant.file} of ${origin.package} ` +
      `${origin.version}; ${tool.className} (${tool.classFile}) passes it to ${BASE_CLASS} as its name ` +
      `through ${link.via} (${link.jsFile})`
    );
  }
  return (
    `${tool.className} (${tool.classFile}) passes the string "${link.name}" to ${BASE_CLASS} as its name ` +
    `through ${link.via} (${where}); the package declares no constant for it`
  );
}

function resultReason(tool: MappedTool, origin: CoreOrigin, genericFile: string): string {
  const pkg = `${origin.package} ${origin.version}`;
  if (tool.result.generic) {
    return (
      `${pkg} declares the result of ${tool.className} only as the generic ${GENERIC_RESULT} ` +
      `(${genericFile}), the same type for every tool; it publishes no result type of this tool's own.`
    );
  }
  const base = tool.result.extendsGeneric
    ? `, which extends the generic ${GENERIC_RESULT} (${genericFile}) shared by every tool`
    : '';
  return (
    `${pkg} declares the result of ${tool.className} as ${tool.result.typeName} (${tool.result.file})${base}; ` +
    `it is not given as a field table here.`
  );
}

/** The generated record of each mapped tool, in name order. */
export function coreToolRecords(mapping: CoreMapping, origin: CoreOrigin): GeneratedTool[] {
  return mapping.mapped.map((tool) => {
    const method =
      'TypeScript compiler API over the published declaration files: tool name → the class passing it to ' +
      "BaseDeclarativeTool → that base class's params type argument";
    const provenance: ProvenanceRecord[] = tool.params.files.map((file, i) => ({
      package: origin.package,
      version: origin.version,
      file,
      method: i === 0 ? method : `TypeScript compiler API: types that ${tool.params.typeName} refers to`,
      date: origin.checked,
    }));
    return {
      agent: coreAgent.id,
      name: tool.name,
      group: 'built-in',
      nameEvidence: nameEvidence(tool, origin),
      aliases: [
        {
          name: tool.params.typeName,
          kind: 'sdk-type',
          evidence: `params type of ${tool.className} in ${tool.params.file}`,
        },
      ],
      input: {
        kind: 'typescript',
        typeName: tool.params.typeName,
        source: tool.params.source,
        origin: { package: origin.package, version: origin.version, file: tool.params.file },
      },
      output: { kind: 'unavailable', reason: resultReason(tool, origin, mapping.genericResultFile) },
      provenance,
    } satisfies GeneratedTool;
  });
}
