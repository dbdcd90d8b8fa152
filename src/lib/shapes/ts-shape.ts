/**
 * TypeScript declarations → Shape, with the TypeScript compiler API (no regexes).
 *
 * Input is the declaration text of one tool type plus the declarations it refers
 * to (as written to content/ by the ingest script). Unions, literal unions,
 * index signatures, optional and nullable members, nested objects, arrays and
 * tuples are kept; `extends` and `&` merge members by name; JSDoc becomes
 * descriptions, `@minItems`/`@maxItems` and `@default` become constraints, `@deprecated` (or a description starting
 * with
 * "Deprecated") marks a field deprecated.
 */
import ts from 'typescript';
import { intersectShapes, ShapeMergeError, type Constraints, type Property, type Shape } from './shape.ts';

export class TypeScriptDefinitionError extends Error {}

type Declaration = ts.InterfaceDeclaration | ts.TypeAliasDeclaration;

export interface ParsedDeclarations {
  sourceFile: ts.SourceFile;
  declarations: Map<string, Declaration>;
  /** Declaration names in source order. */
  order: string[];
}

export function parseDeclarations(source: string, fileName = 'definition.d.ts'): ParsedDeclarations {
  const sourceFile = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  // parseDiagnostics is internal but is the parser's own syntax error list.
  const diagnostics = (sourceFile as unknown as { parseDiagnostics?: ts.Diagnostic[] }).parseDiagnostics ?? [];
  if (diagnostics.length > 0) {
    const d = diagnostics[0]!;
    const { line, character } = sourceFile.getLineAndCharacterOfPosition(d.start ?? 0);
    throw new TypeScriptDefinitionError(
      `${fileName}:${line + 1}:${character + 1}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
    );
  }
  const declarations = new Map<string, Declaration>();
  const order: string[] = [];
  for (const statement of sourceFile.statements) {
    if (ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement)) {
      const name = statement.name.text;
      if (declarations.has(name)) throw new TypeScriptDefinitionError(`${fileName}: ${name} is declared twice`);
      declarations.set(name, statement);
      order.push(name);
    }
  }
  return { sourceFile, declarations, order };
}

/**
 * `//` comments directly above a member, joined: Codex's code-mode declarations
 * document fields this way instead of with JSDoc.
 */
function lineCommentsOf(node: ts.Node): string | undefined {
  const source = node.getSourceFile().text;
  const ranges = ts.getLeadingCommentRanges(source, node.getFullStart()) ?? [];
  const lines = ranges
    .filter((r) => r.kind === ts.SyntaxKind.SingleLineCommentTrivia)
    .map((r) => source.slice(r.pos + 2, r.end).trim());
  return lines.length > 0 ? lines.join('\n') : undefined;
}

/** JSDoc text and tags of a node, joined the way an editor shows them (or its `//` comments). */
function jsDocOf(node: ts.Node): { description?: string; tags: Map<string, string> } {
  const tags = new Map<string, string>();
  const docs = (node as { jsDoc?: ts.JSDoc[] }).jsDoc ?? [];
  if (docs.length === 0) {
    const comments = lineCommentsOf(node);
    return comments ? { description: comments, tags } : { tags };
  }
  const parts: string[] = [];
  for (const doc of docs) {
    const comment = ts.getTextOfJSDocComment(doc.comment);
    if (comment) parts.push(comment.trim());
    for (const tag of doc.tags ?? []) {
      tags.set(tag.tagName.text, (ts.getTextOfJSDocComment(tag.comment) ?? '').trim());
    }
  }
  const description = parts.join('\n\n').trim();
  return description ? { description, tags } : { tags };
}

const NUMERIC_TAGS = ['minItems', 'maxItems', 'minimum', 'maximum', 'minLength', 'maxLength'] as const;

function constraintsFromTags(tags: Map<string, string>, where: string): Constraints | undefined {
  const out: Constraints = {};
  for (const tag of NUMERIC_TAGS) {
    const raw = tags.get(tag);
    if (raw === undefined) continue;
    const value = Number(raw);
    if (!Number.isFinite(value))
      throw new TypeScriptDefinitionError(`${where}: @${tag} ${JSON.stringify(raw)} is not a number`);
    out[tag] = value;
  }
  const def = tags.get('default');
  if (def !== undefined) {
    try {
      out.default = JSON.parse(def);
    } catch {
      out.default = def;
    }
  }
  if (tags.has('pattern')) out.patterns = [tags.get('pattern')!];
  if (tags.has('format')) out.format = tags.get('format')!;
  return Object.keys(out).length > 0 ? out : undefined;
}

const DEPRECATED_PROSE = /^deprecated\b/i;

function isDeprecated(doc: { description?: string; tags: Map<string, string> }): boolean {
  return doc.tags.has('deprecated') || DEPRECATED_PROSE.test(doc.description ?? '');
}

function propertyName(name: ts.PropertyName, where: string): string {
  if (ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name) || ts.isPrivateIdentifier(name)) {
    return name.text;
  }
  throw new TypeScriptDefinitionError(`${where}: computed property names are not supported`);
}

/** The shape of a literal type: a string, number, boolean or negative number literal, or null. */
function literalShape(lit: ts.LiteralTypeNode['literal'], where: string): Shape {
  if (lit.kind === ts.SyntaxKind.NullKeyword) return { kind: 'primitive', type: 'null' };
  if (lit.kind === ts.SyntaxKind.TrueKeyword) return { kind: 'literal', value: true };
  if (lit.kind === ts.SyntaxKind.FalseKeyword) return { kind: 'literal', value: false };
  if (ts.isStringLiteral(lit) || ts.isNoSubstitutionTemplateLiteral(lit)) return { kind: 'literal', value: lit.text };
  if (ts.isNumericLiteral(lit)) return { kind: 'literal', value: Number(lit.text) };
  if (
    ts.isPrefixUnaryExpression(lit) &&
    lit.operator === ts.SyntaxKind.MinusToken &&
    ts.isNumericLiteral(lit.operand)
  ) {
    return { kind: 'literal', value: -Number(lit.operand.text) };
  }
  throw new TypeScriptDefinitionError(`${where}: unsupported literal ${lit.getText()}`);
}

export class ShapeBuilder {
  private readonly expanding: string[] = [];
  private readonly parsed: ParsedDeclarations;
  constructor(parsed: ParsedDeclarations) {
    this.parsed = parsed;
  }

  /** The Shape of a named declaration. */
  named(name: string): Shape {
    const decl = this.parsed.declarations.get(name);
    if (!decl) throw new TypeScriptDefinitionError(`type ${name} is not declared in the definition`);
    if (this.expanding.includes(name)) return { kind: 'ref', name };
    this.expanding.push(name);
    try {
      const doc = jsDocOf(decl);
      const shape = ts.isInterfaceDeclaration(decl)
        ? this.members(decl.members, name, decl.heritageClauses)
        : this.type(decl.type, name);
      const result: Shape = { ...shape, typeName: name };
      if (doc.description && !result.description) result.description = doc.description;
      return result;
    } finally {
      this.expanding.pop();
    }
  }

  private members(
    members: ts.NodeArray<ts.TypeElement>,
    where: string,
    heritage?: ts.NodeArray<ts.HeritageClause>,
  ): Shape {
    const properties: Property[] = [];
    let additional: Shape | undefined;
    let additionalKeyName: string | undefined;
    for (const base of (heritage ?? []).flatMap((clause) => [...clause.types])) {
      const baseShape = this.heritageBase(base, where);
      for (const p of baseShape.properties) {
        const existing = properties.findIndex((q) => q.name === p.name);
        if (existing >= 0) properties.splice(existing, 1, p);
        else properties.push(p);
      }
      if (baseShape.additional) {
        additional = baseShape.additional;
        additionalKeyName = baseShape.additionalKeyName ?? 'key';
      }
    }
    for (const member of members) {
      if (ts.isPropertySignature(member)) {
        const name = propertyName(member.name, where);
        const at = `${where}.${name}`;
        if (!member.type) throw new TypeScriptDefinitionError(`${at}: property has no type`);
        const doc = jsDocOf(member);
        let shape = this.type(member.type, at);
        const constraints = constraintsFromTags(doc.tags, at);
        if (constraints) shape = { ...shape, constraints: { ...shape.constraints, ...constraints } };
        const property: Property = { name, required: !member.questionToken, shape };
        const existing = properties.findIndex((p) => p.name === name);
        // A member redeclared from a base interface replaces it in place; it keeps the base's JSDoc if it has none.
        const description = doc.description ?? (existing >= 0 ? properties[existing]!.description : undefined);
        if (description) property.description = description;
        if (isDeprecated(doc)) property.deprecated = true;
        if (existing >= 0) properties.splice(existing, 1, property);
        else properties.push(property);
      } else if (ts.isIndexSignatureDeclaration(member)) {
        const param = member.parameters[0];
        additional = this.type(member.type, `${where}[key]`);
        additionalKeyName = param && ts.isIdentifier(param.name) ? param.name.text : 'key';
      } else {
        throw new TypeScriptDefinitionError(`${where}: unsupported member kind ${ts.SyntaxKind[member.kind]}`);
      }
    }
    const shape: Shape = { kind: 'object', properties };
    if (additional) {
      shape.additional = additional;
      shape.additionalKeyName = additionalKeyName!;
    }
    return shape;
  }

  /** `A` in `interface B extends A`: a heritage clause names a type by an expression, not a TypeNode. */
  private heritageBase(base: ts.ExpressionWithTypeArguments, where: string): Extract<Shape, { kind: 'object' }> {
    if (!ts.isIdentifier(base.expression)) {
      throw new TypeScriptDefinitionError(
        `${where}: extends ${base.expression.getText()}, which is not a type declared in the definition`,
      );
    }
    const name = base.expression.text;
    if (base.typeArguments?.length)
      throw new TypeScriptDefinitionError(`${where}: extends the generic type ${name}<…>, which is not supported`);
    if (!this.parsed.declarations.has(name))
      throw new TypeScriptDefinitionError(`${where}: extends ${name}, which is not declared in the definition`);
    const shape = this.named(name);
    if (shape.kind !== 'object')
      throw new TypeScriptDefinitionError(`${where}: extends ${name}, which is not an object type`);
    return shape;
  }

  /**
   * `A & B`: members of the same name are merged (required if either part
   * requires them, types intersected: objects member by member, a literal
   * narrows its primitive); members whose types have no value in common fail.
   * An empty `{}` part (as in `string & {}`) adds nothing.
   */
  private intersection(node: ts.IntersectionTypeNode, where: string): Shape {
    const parts = node.types.filter((t) => !(ts.isTypeLiteralNode(t) && t.members.length === 0));
    if (parts.length === 0) return { kind: 'object', properties: [] };
    let shape = this.type(parts[0]!, where);
    for (const part of parts.slice(1)) {
      try {
        shape = intersectShapes(shape, this.type(part, where));
      } catch (error) {
        if (!(error instanceof ShapeMergeError)) throw error;
        throw new TypeScriptDefinitionError(
          `${where}: the intersection ${node.getText()} cannot be merged: ${error.message}`,
        );
      }
    }
    return shape;
  }

  /**
   * A tuple type, or an array with minItems when it is `[T, ...T[]]` (json-schema-to-typescript's "array of T, minItems
   * 1").
   */
  tuple(node: ts.TupleTypeNode, where: string): Shape {
    const items: Shape[] = [];
    let rest: Shape | undefined;
    node.elements.forEach((el, i) => {
      if (ts.isRestTypeNode(el) && i === node.elements.length - 1) {
        const restShape = this.type(el.type, `${where}[${i}]`);
        if (restShape.kind !== 'array')
          throw new TypeScriptDefinitionError(`${where}[${i}]: rest element is not an array`);
        rest = restShape.items;
        return;
      }
      if (ts.isNamedTupleMember(el) || ts.isRestTypeNode(el) || ts.isOptionalTypeNode(el)) {
        throw new TypeScriptDefinitionError(
          `${where}[${i}]: named, optional and inner rest tuple members are not supported`,
        );
      }
      items.push(this.type(el, `${where}[${i}]`));
    });
    if (rest) {
      // `[T, ...T[]]` is how json-schema-to-typescript writes "array of T, minItems 1".
      const restItems = rest;
      if (items.every((item) => sameShape(item, restItems))) {
        return { kind: 'array', items: restItems, constraints: { minItems: items.length } };
      }
      throw new TypeScriptDefinitionError(`${where}: tuple with a rest element of another type is not supported`);
    }
    return { kind: 'tuple', items };
  }

  type(node: ts.TypeNode, where: string): Shape {
    switch (node.kind) {
      case ts.SyntaxKind.StringKeyword:
        return { kind: 'primitive', type: 'string' };
      case ts.SyntaxKind.NumberKeyword:
        return { kind: 'primitive', type: 'number' };
      case ts.SyntaxKind.BooleanKeyword:
        return { kind: 'primitive', type: 'boolean' };
      case ts.SyntaxKind.UnknownKeyword:
        return { kind: 'primitive', type: 'unknown' };
      case ts.SyntaxKind.AnyKeyword:
        return { kind: 'primitive', type: 'any' };
      case ts.SyntaxKind.NeverKeyword:
        return { kind: 'primitive', type: 'never' };
      case ts.SyntaxKind.UndefinedKeyword:
        return { kind: 'primitive', type: 'undefined' };
      case ts.SyntaxKind.ObjectKeyword:
        return { kind: 'primitive', type: 'object' };
      case ts.SyntaxKind.NullKeyword:
        return { kind: 'primitive', type: 'null' };
    }
    if (ts.isParenthesizedTypeNode(node)) return this.type(node.type, where);
    if (ts.isLiteralTypeNode(node)) return literalShape(node.literal, where);
    if (ts.isTypeLiteralNode(node)) return this.members(node.members, where);
    if (ts.isArrayTypeNode(node)) return { kind: 'array', items: this.type(node.elementType, `${where}[]`) };
    if (ts.isTupleTypeNode(node)) return this.tuple(node, where);
    if (ts.isUnionTypeNode(node)) return this.union(node.types.map((t) => this.type(t, where)));
    if (ts.isIntersectionTypeNode(node)) return this.intersection(node, where);
    if (ts.isTypeReferenceNode(node)) {
      const name = ts.isIdentifier(node.typeName) ? node.typeName.text : node.typeName.getText();
      const args = node.typeArguments ?? [];
      if (name === 'Array' && args.length === 1) return { kind: 'array', items: this.type(args[0]!, `${where}[]`) };
      if (name === 'Record' && args.length === 2) {
        return {
          kind: 'object',
          properties: [],
          additional: this.type(args[1]!, `${where}[key]`),
          additionalKeyName: 'key',
        };
      }
      if (args.length > 0) throw new TypeScriptDefinitionError(`${where}: generic type ${name}<…> is not supported`);
      if (this.parsed.declarations.has(name)) return this.named(name);
      throw new TypeScriptDefinitionError(`${where}: type ${name} is not declared in the definition`);
    }
    throw new TypeScriptDefinitionError(
      `${where}: unsupported type syntax ${ts.SyntaxKind[node.kind]} (${node.getText()})`,
    );
  }

  /**
   * Builds a union, flattening nested unions and folding the tuple expansion
   * that json-schema-to-typescript writes for minItems/maxItems
   * (`[T] | [T, T] | [T, T, T]`) back into one array of T.
   */
  private union(members: Shape[]): Shape {
    const variants = members.flatMap((m) => (m.kind === 'union' && !m.typeName ? m.variants : [m]));
    const folded = foldTupleUnion(variants);
    if (folded) return folded;
    return variants.length === 1 ? variants[0]! : { kind: 'union', variants };
  }
}

function sameShape(a: Shape, b: Shape): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function foldTupleUnion(variants: Shape[]): Shape | undefined {
  if (variants.length < 1 || !variants.every((v) => v.kind === 'tuple')) return undefined;
  const tuples = variants as Extract<Shape, { kind: 'tuple' }>[];
  const first = tuples[0]!.items[0];
  if (!first) return undefined;
  if (!tuples.every((t) => t.items.every((item) => sameShape(item, first)))) return undefined;
  const lengths = tuples.map((t) => t.items.length).sort((a, b) => a - b);
  for (let i = 1; i < lengths.length; i++) if (lengths[i] !== lengths[i - 1]! + 1) return undefined;
  return {
    kind: 'array',
    items: first,
    constraints: { minItems: lengths[0]!, maxItems: lengths[lengths.length - 1]! },
  };
}

/** Parses declaration text and returns the Shape of `typeName`. */
export function shapeFromTypeScript(source: string, typeName: string, fileName?: string): Shape {
  const parsed = parseDeclarations(source, fileName);
  return new ShapeBuilder(parsed).named(typeName);
}

/** A declaration's name and every declared name it refers to, transitively, in source order. */
export function declarationClosure(parsed: ParsedDeclarations, root: string): string[] {
  const found = new Set<string>();
  const visit = (name: string, from: string): void => {
    if (found.has(name)) return;
    const decl = parsed.declarations.get(name);
    if (!decl) throw new TypeScriptDefinitionError(`${from} refers to ${name}, which is not declared`);
    found.add(name);
    const walk = (node: ts.Node): void => {
      if (
        ts.isTypeReferenceNode(node) &&
        ts.isIdentifier(node.typeName) &&
        parsed.declarations.has(node.typeName.text)
      ) {
        visit(node.typeName.text, name);
      }
      // `extends A` names A by an expression, not a type reference.
      if (
        ts.isExpressionWithTypeArguments(node) &&
        ts.isIdentifier(node.expression) &&
        parsed.declarations.has(node.expression.text)
      ) {
        visit(node.expression.text, name);
      }
      ts.forEachChild(node, walk);
    };
    walk(decl);
  };
  visit(root, root);
  return parsed.order.filter((n) => found.has(n));
}

/** The verbatim text (with leading comments) of the named declarations, one after another. */
export function declarationText(parsed: ParsedDeclarations, names: string[]): string {
  return (
    names
      .map((n) =>
        parsed.declarations
          .get(n)!
          .getFullText(parsed.sourceFile)
          .replace(/^\s*\n/, '')
          .trimEnd(),
      )
      .join('\n') + '\n'
  );
}
