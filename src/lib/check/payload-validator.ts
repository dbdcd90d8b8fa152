/**
 * Build time only: a tool's published JSON Schema → a self-contained ES module
 * that validates a value against it, precompiled by Ajv's standalone code
 * generation (`ajv/dist/standalone`, ESM output). Served beside the tool page
 * (`/claude-code/bash/validate-model-input.js`) and imported by the page's
 * payload checker when the reader opens it; a program can import it too:
 * `validate(value)` returns a boolean and leaves Ajv's errors on `validate.errors`.
 *
 * The Ajv instance is the one the export tests validate with (2020-12, every
 * error, formats from ajv-formats). The module also exports `validateFirst`,
 * the same schema compiled with `allErrors: false`: it stops at the first
 * error, so a huge payload (70,000 fields the schema does not allow) gets its
 * verdict without Ajv building an error per field. Ajv's ESM output still `require`s the few
 * runtime helpers a schema needs; they are written into the module instead,
 * so that a browser can load it as it is:
 * - `ucs2length` (minLength/maxLength count code points) and `equal` (enum,
 *   const, uniqueItems on objects): self-contained functions, copied;
 * - ajv-formats' format checks: its `formats.js` (no imports of its own),
 *   wrapped whole, only into modules whose schema uses a format.
 * Any other helper stops the build, naming it.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv2020 } from 'ajv/dist/2020.js';
import standaloneModule from 'ajv/dist/standalone/index.js';
import addFormatsModule from 'ajv-formats';
import { restoreState, saveState, type AjvState } from './ajv-state.ts';
import { commentSafeLiteral } from '../core/comment-text.ts';

const require = createRequire(import.meta.url);
// CommonJS under ESM: the function sits on `default` (or is the module itself under a bundler).
const interop = <T>(m: unknown): T => ((m as { default?: T }).default ?? m) as T;
const standaloneCode = interop<(ajv: Ajv2020, validate: unknown) => string>(standaloneModule);
const addFormats = interop<(ajv: Ajv2020) => void>(addFormatsModule);

type Helper = ((...args: never[]) => unknown) & { code?: string };

/**
 * Ajv's runtime helpers that may be copied: each names itself in `.code`, the expression Ajv writes where it is used.
 */
function copyableHelpers(): { name: string; fn: Helper }[] {
  return [
    { name: 'ucs2length', fn: interop<Helper>(require('ajv/dist/runtime/ucs2length')) },
    { name: 'equal', fn: interop<Helper>(require('ajv/dist/runtime/equal')) },
  ];
}

const FORMATS_MODULE = 'require("ajv-formats/dist/formats")';

/** ajv-formats' formats.js as an expression whose value is its exports. */
function formatsExpression(): string {
  const source = readFileSync(require.resolve('ajv-formats/dist/formats'), 'utf8').replace(
    /^\/\/# sourceMappingURL=.*$/m,
    '',
  );
  return `(function () {\nconst exports = {};\n${source.trim()}\nreturn exports;\n})()`;
}

/**
 * Removes `const schemaN = {…};` lines that nothing uses (Ajv writes the root
 * schema out even when the code never reads it: descriptions and all).
 */
function dropUnusedSchemas(code: string): string {
  return code.replace(/^const (schema\d+) = .*;\n/gm, (line, name: string) =>
    code.split(new RegExp(`\\b${name}\\b`)).length > 2 ? line : '',
  );
}

/**
 * Ajv writes each compiled function's `$id` as `/*# sourceURL="…" *\/`: a JSON
 * string that may hold a star and a slash, so a captured schema's nested `$id`
 * could close the comment inside `validate`. Rewritten with commentSafeLiteral.
 */
function safeSourceUrlComments(code: string): string {
  return code.replace(
    /\/\*# sourceURL=("(?:[^"\\]|\\.)*") \*\//g,
    (_comment, literal: string) => `/*# sourceURL=${commentSafeLiteral(JSON.parse(literal) as string)} */`,
  );
}

/** What JavaScript ends a line at: a `//` comment ends there too. */
const JS_LINE_TERMINATOR = /[\n\r\u2028\u2029]/;

export interface ValidatorModuleOptions {
  /** First lines of the module, written as `//` comments: untrusted parts must go through commentSafeLiteral. */
  banner?: string[];
}

/**
 * The banner of a tool's validator module: its schema's title and `$id` as JSON strings, since both come from captured
 * text.
 */
export function validatorBanner(schema: Record<string, unknown>): string[] {
  return [
    `Validator of ${commentSafeLiteral(String(schema.title))}, precompiled by Ajv standalone from ` +
      `${commentSafeLiteral(String(schema.$id))}.`,
    'validate(value) returns true or false and leaves the errors on validate.errors.',
  ];
}

export interface SourceOptions {
  /** Ajv's `allErrors`: every error (the default), or stop at the first. */
  allErrors?: boolean;
}

/** A fresh instance: every validator module is the code such an instance writes for its schema. */
function freshAjv(allErrors: boolean): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors, code: { source: true, esm: true, lines: true } });
  addFormats(ajv);
  return ajv;
}

const META_SCHEMA = 'https://json-schema.org/draft/2020-12/schema';

/**
 * Per `allErrors`, one instance that has compiled the meta-schema, and its state right after
 * (src/lib/check/ajv-state.ts).
 */
const warm = new Map<boolean, { ajv: Ajv2020; state: AjvState }>();

/**
 * Ajv's standalone code for `schema`, as a fresh instance (with every error, or
 * `allErrors: false`) writes it. A schema of draft 2020-12 (all the site
 * publishes) is compiled by the warm instance, restored to its state after the
 * meta-schema; any other goes to a fresh one.
 */
export function standaloneSource(schema: Record<string, unknown>, options: SourceOptions = {}): string {
  const allErrors = options.allErrors ?? true;
  if (schema.$schema !== undefined && schema.$schema !== META_SCHEMA) {
    const ajv = freshAjv(allErrors);
    return standaloneCode(ajv, ajv.compile(schema));
  }
  let instance = warm.get(allErrors);
  if (!instance) {
    const ajv = freshAjv(allErrors);
    // What a fresh instance does first when it compiles a schema: compile the meta-schema to check it.
    if (!ajv.getSchema(META_SCHEMA)) throw new Error(`Ajv has no meta-schema ${META_SCHEMA}`);
    instance = { ajv, state: saveState(ajv) };
    warm.set(allErrors, instance);
  }
  const { ajv, state } = instance;
  restoreState(ajv, state);
  try {
    return standaloneCode(ajv, ajv.compile(schema));
  } finally {
    restoreState(ajv, state);
  }
}

/** `export const validate = validate20;\nexport default validate20;\n`: how Ajv's ESM output starts. */
const AJV_EXPORTS = /^export const validate = (\w+);\nexport default \1;\n/;

/**
 * Ajv's code for one export, as an expression: its functions and constants
 * inside a function (both compiles name them alike, `validate20`, `schema31`),
 * which returns the validating function.
 */
function scoped(code: string, schema: Record<string, unknown>): string {
  const exports = AJV_EXPORTS.exec(code);
  if (!exports) throw new Error(`Ajv's standalone code for ${String(schema.$id)} does not start with its exports`);
  return `(() => {\n${code.slice(exports[0].length)}\nreturn ${exports[1]};\n})()`;
}

/**
 * The ES module text validating against `schema`: `validate` (default export
 * too; every error) and `validateFirst` (stops at the first error).
 */
export function validatorModule(schema: Record<string, unknown>, options: ValidatorModuleOptions = {}): string {
  // Per compile: each declares its own constants, alike named.
  const strip = (source: string) => dropUnusedSchemas(source.replace(/^"use strict";\n/, ''));
  let code = [
    `export const validate = ${scoped(strip(standaloneSource(schema)), schema)};`,
    'export default validate;',
    `export const validateFirst = ${scoped(strip(standaloneSource(schema, { allErrors: false })), schema)};`,
  ].join('\n');
  const prelude: string[] = [];
  for (const { name, fn } of copyableHelpers()) {
    if (!fn.code || !code.includes(fn.code)) continue;
    code = code.replaceAll(fn.code, name);
    prelude.push(`const ${name} = ${fn.toString()};`);
  }
  if (code.includes(FORMATS_MODULE)) {
    code = code.replaceAll(FORMATS_MODULE, 'ajvFormats');
    prelude.push(`const ajvFormats = ${formatsExpression()};`);
  }
  const left = /require\(("[^"]*")\)/.exec(code);
  if (left)
    throw new Error(`the validator of ${String(schema.$id)} needs ${left[1]}, which validatorModule does not bundle`);
  code = safeSourceUrlComments(code);
  // A line break in a banner line would end its comment: the rest would run.
  const broken = (options.banner ?? []).find((line) => JS_LINE_TERMINATOR.test(line));
  if (broken !== undefined)
    throw new Error(
      `a banner line of the validator of ${String(schema.$id)} breaks its // comment: ${JSON.stringify(broken)}`,
    );
  const banner = (options.banner ?? []).map((line) => `// ${line}\n`).join('');
  return `${banner}${prelude.join('\n')}${prelude.length > 0 ? '\n' : ''}${code}`;
}
