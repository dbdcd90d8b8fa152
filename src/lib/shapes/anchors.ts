/**
 * Field anchor scheme (documented in docs/pages.md "URLs and field anchors").
 *
 * An anchor is the field's path written with URL-safe characters only:
 *   input.file_path                      property `file_path` of the input
 *   output.structuredPatch.lines         array items are transparent
 *   output:completed.agentId             `:` + discriminator value selects a union variant
 *   output:failed~7Cnot_attempted        a variant with several values: `~7C` (an escaped `|`) joins them
 *   output:!1                            `!` marks a number, boolean or null value (`:!true`, `:!null`)
 *   output:2                             a variant without discriminator, by position (from 1)
 *   output:+asset_upload                 the same variant by identity (its stable anchor, see below)
 *   input:!then.path, input:!else        if/then/else branches (`!then2`, `!else2` for a second if)
 *   input.answers.*                      `*` stands for any other key of a map (index signature)
 *   input.env.*~5Ex-                     `*` + escaped pattern: keys matching a pattern (`^x-`)
 *   input.range@0                        `@` + position: a tuple element
 *   input.-B                             `-` is safe as is
 *   input.a~2Eb                          any other character is `~` + its UTF-8 bytes in hex
 * Names and values only ever contain [A-Za-z0-9_-] and `~XX` escapes, so a
 * segment can never fake a separator (`.` `:` `@`) or a marker (`*` `!` `,`),
 * and two different paths never produce the same id. (A `|` inside a string
 * discriminator value is written `,` so that it differs from the `~7C` joiner.)
 *
 * Stable anchors. A union variant without a discriminator is numbered by its
 * position, so inserting a variant renumbers the ones after it: `output:3` is
 * not the same variant in two releases. Such a variant may also carry an
 * identity (src/lib/shapes/variant-identity.ts): `+name` for an object variant known
 * by a property no other variant has (`output:+asset_upload`), `=type` for a
 * variant known by a type text no other variant has (`input:=string`). A row's
 * stable anchor (`stableAnchorFor`) spells every variant on its path by its
 * identity when it has one; it is the anchor release histories record, and a
 * tool page gives each row both (the positional one on the row, the stable one
 * on its first cell), so links of either kind land on the row. `+` and `=`
 * appear in no other anchor, so a stable key never reads as a discriminator
 * value or a position.
 */
import type { LiteralValue } from './shape.ts';

export type Root = 'input' | 'output' | (string & {});

export type PathSegment =
  | { kind: 'property'; name: string }
  | { kind: 'items' }
  | { kind: 'nested-items' }
  /**
   * A union variant by position or by an arbitrary label (escaped); `identity`, when the variant
   * has one, is its stable key as written after the `:` (`+asset_upload`, `=string`).
   */
  | { kind: 'variant'; label: string; display?: string; identity?: string }
  /** A union variant selected by its discriminator value(s). */
  | { kind: 'discriminated'; values: LiteralValue[]; display?: string }
  /** The then or else branch of the `index`-th (from 0) if/then/else of a shape. */
  | { kind: 'condition'; index: number; branch: 'then' | 'else'; display?: string }
  /** Any other key of a map, or with `pattern`, keys matching that pattern. */
  | { kind: 'map-value'; pattern?: string }
  /** The element at `index` (from 0) of a tuple. */
  | { kind: 'position'; index: number };

const SAFE = /^[A-Za-z0-9_-]$/;

/** Escapes one name so that it contains only [A-Za-z0-9_~-]. */
export function escapeSegment(name: string): string {
  let out = '';
  for (const ch of name) {
    if (SAFE.test(ch)) {
      out += ch;
      continue;
    }
    for (const byte of new TextEncoder().encode(ch)) {
      out += '~' + byte.toString(16).toUpperCase().padStart(2, '0');
    }
  }
  // An empty property name still needs a visible, unique token.
  return out === '' ? '~' : out;
}

/** Reverses escapeSegment (used by tests and by tooling that reads anchors). */
export function unescapeSegment(escaped: string): string {
  if (escaped === '~') return '';
  const bytes: number[] = [];
  for (let i = 0; i < escaped.length; ) {
    if (escaped[i] === '~') {
      bytes.push(parseInt(escaped.slice(i + 1, i + 3), 16));
      i += 3;
    } else {
      bytes.push(escaped.charCodeAt(i));
      i += 1;
    }
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

/** `~7C` (an escaped `|`) joins several discriminator values; it appears nowhere else in a key. */
const VALUE_JOINER = '~7C';

/** One discriminator value in an anchor: strings as escaped text, other values as `!` + escaped JSON. */
function valueKey(value: LiteralValue): string {
  if (typeof value !== 'string') return '!' + escapeSegment(JSON.stringify(value));
  // `~7C` inside escaped text can only be a `|` (escapes are aligned `~XX` triples).
  return escapeSegment(value).replaceAll(VALUE_JOINER, ',');
}

/** The anchor key (after `:`) of a discriminated variant. */
export function discriminatorKey(values: readonly LiteralValue[]): string {
  return values.map(valueKey).join(VALUE_JOINER);
}

/** The anchor key (after `:`) of an if/then/else branch. */
export function conditionKey(index: number, branch: 'then' | 'else'): string {
  return '!' + branch + (index === 0 ? '' : String(index + 1));
}

export function anchorFor(root: Root, segments: readonly PathSegment[]): string {
  return escapeSegment(root) + relativeAnchor(segments);
}

/**
 * The anchor of a path without its root (`.file_path`, `:completed.agentId`, `` for the root
 * itself): what a history event stores as its `field`, the table being implied by its side.
 */
export function relativeAnchor(segments: readonly PathSegment[], stable = false): string {
  let id = '';
  for (const seg of segments) {
    switch (seg.kind) {
      case 'property':
        id += '.' + escapeSegment(seg.name);
        break;
      case 'items':
        break; // transparent: `list.field` rather than `list[].field`
      case 'nested-items':
        id += '.~5B~5D'; // an array directly inside an array: the escaped "[]"
        break;
      case 'variant':
        id += ':' + (stable && seg.identity !== undefined ? seg.identity : escapeSegment(seg.label));
        break;
      case 'discriminated':
        id += ':' + discriminatorKey(seg.values);
        break;
      case 'condition':
        id += ':' + conditionKey(seg.index, seg.branch);
        break;
      case 'map-value':
        id += '.*' + (seg.pattern === undefined ? '' : escapeSegment(seg.pattern));
        break;
      case 'position':
        id += '@' + String(seg.index);
        break;
    }
  }
  return id;
}

/**
 * The stable anchor of a path: every union variant that has an identity is spelled by it
 * (`output:+asset_upload.id`) instead of by its position (`output:7.id`). Equal to `anchorFor`
 * when no variant on the path is known by position.
 */
export function stableAnchorFor(root: Root, segments: readonly PathSegment[]): string {
  return escapeSegment(root) + relativeAnchor(segments, true);
}

/** The stable key of a variant known by a property no other variant of its union has. */
export function propertyIdentity(name: string): string {
  return '+' + escapeSegment(name);
}

/** The stable key of a variant known by a type text no other variant of its union has. */
export function typeIdentity(text: string): string {
  return '=' + escapeSegment(text);
}

/** A relative anchor (`relativeAnchor`, a history event's `field`) put back under the root of its table. */
export function rootedAnchor(root: Root, relative: string): string {
  return escapeSegment(root) + relative;
}

/** Whether `id` continues `ancestor` at a step boundary (`input.a.b`, `input.a:1` below `input.a`; not `input.ab`). */
export function isBelow(id: string, ancestor: string): boolean {
  return id.length > ancestor.length && id.startsWith(ancestor) && /[.:@]/.test(id[ancestor.length]!);
}

/**
 * What `id` adds to `ancestor` when it is that anchor or lies below it (`.b` for `input.a.b`
 * under `input.a`, `` for `input.a` itself); undefined otherwise.
 */
export function anchorRest(id: string, ancestor: string): string | undefined {
  return id === ancestor || isBelow(id, ancestor) ? id.slice(ancestor.length) : undefined;
}

/**
 * `id` moved from below `from` to below `to` (`output:2.x` → `output:3.x`); undefined when it is not `from` or below
 * it.
 */
export function rebaseAnchor(id: string, from: string, to: string): string | undefined {
  const rest = anchorRest(id, from);
  return rest === undefined ? undefined : to + rest;
}

/**
 * When `id` (an anchor or a relative one) is the header of a union variant known only by its
 * position (`output:3`, `input.x:2`, `:2`): the anchor of the place the union sits (`output`,
 * `input.x`, ``). Undefined for any other anchor, a discriminated variant's header included.
 */
export function positionalVariantPlace(id: string): string | undefined {
  return /^(.*):(\d+)$/.exec(id)?.[1];
}

/** Whether an anchor (or a relative one) passes through a union variant known only by its position (`output:3.x`). */
export function throughPositionalVariant(id: string): boolean {
  return /:\d+(?=[.:@]|$)/.test(id);
}

/** What an anchor says about one step of the path (items are transparent, so they do not appear). */
export type AnchorStep =
  | { kind: 'property'; name: string }
  /** `.~5B~5D`: an array inside an array (a property literally named `[]` reads the same). */
  | { kind: 'nested-items' }
  /** The key after `:` as written (a position, discriminator values or an if/then/else branch). */
  | { kind: 'variant'; key: string }
  | { kind: 'map-value'; pattern?: string }
  | { kind: 'position'; index: number };

/** Reads an anchor back into its steps; throws when `id` does not follow the scheme. */
export function parseAnchor(id: string, root: Root): AnchorStep[] {
  const prefix = escapeSegment(root);
  if (!id.startsWith(prefix)) throw new Error(`anchor ${id} does not start with ${prefix}`);
  const steps: AnchorStep[] = [];
  const token = /^([.:@])([^.:@]*)/;
  for (let rest = id.slice(prefix.length); rest !== ''; ) {
    const m = token.exec(rest);
    if (!m) throw new Error(`anchor ${id} has an unexpected character at ${JSON.stringify(rest)}`);
    const [whole, separator, text] = m as unknown as [string, string, string];
    rest = rest.slice(whole.length);
    if (separator === ':') steps.push({ kind: 'variant', key: text });
    else if (separator === '@') {
      if (!/^(0|[1-9][0-9]*)$/.test(text)) throw new Error(`anchor ${id} has a bad tuple position @${text}`);
      steps.push({ kind: 'position', index: Number(text) });
    } else if (text.startsWith('*'))
      steps.push(text === '*' ? { kind: 'map-value' } : { kind: 'map-value', pattern: unescapeSegment(text.slice(1)) });
    else if (text === '~5B~5D') steps.push({ kind: 'nested-items' });
    else steps.push({ kind: 'property', name: unescapeSegment(text) });
  }
  return steps;
}

/**
 * The steps of `id` when it is the anchor of a row of the table `root` (`input.x`,
 * `input:1`, `input@0`); undefined for the table's own id (`input`), another table's
 * row (`inputs.x`, `model-input.x` under `input`) or a text that does not follow the scheme.
 */
export function rowSteps(id: string, root: Root): AnchorStep[] | undefined {
  if (!id.startsWith(escapeSegment(root))) return undefined;
  try {
    const steps = parseAnchor(id, root);
    return steps.length === 0 ? undefined : steps;
  } catch {
    return undefined;
  }
}

/** Human-readable path shown in the Field column, e.g. `structuredPatch[].lines`. */
export function displayPath(segments: readonly PathSegment[]): string {
  let out = '';
  for (const seg of segments) {
    switch (seg.kind) {
      case 'property':
        out += (out === '' ? '' : '.') + seg.name;
        break;
      case 'items':
      case 'nested-items':
        out += '[]';
        break;
      case 'variant':
        out += `(${seg.display ?? seg.label})`;
        break;
      case 'discriminated':
        out += `(${seg.display ?? seg.values.map((v) => JSON.stringify(v)).join(' | ')})`;
        break;
      case 'condition':
        out += `(${seg.display ?? seg.branch})`;
        break;
      case 'map-value':
        out += (out === '' ? '' : '.') + (seg.pattern === undefined ? '[key]' : `[key matching /${seg.pattern}/]`);
        break;
      case 'position':
        out += `[${seg.index}]`;
        break;
    }
  }
  return out;
}
