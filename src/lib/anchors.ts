/**
 * Field anchor scheme (documented in README "Anchors").
 *
 * An anchor is the field's path written with URL-safe characters only:
 *   input.file_path                      property `file_path` of the input
 *   output.structuredPatch.lines         array items are transparent
 *   output:completed.agentId             `:` + discriminator value selects a union variant
 *   input.answers.*                      `*` stands for any key of a map (index signature)
 *   input.-B                             `-` is safe as is
 *   input.a~2Eb                          any other character is `~` + its UTF-8 bytes in hex
 * Only [A-Za-z0-9_-] pass unescaped, so a segment can never fake a separator
 * and two different paths never produce the same id.
 */

export type Root = 'input' | 'output' | (string & {});

export type PathSegment =
  | { kind: 'property'; name: string }
  | { kind: 'items' }
  | { kind: 'nested-items' }
  | { kind: 'variant'; label: string; display?: string }
  | { kind: 'map-value' };

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

export function anchorFor(root: Root, segments: readonly PathSegment[]): string {
  let id = escapeSegment(root);
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
        id += ':' + escapeSegment(seg.label);
        break;
      case 'map-value':
        id += '.*';
        break;
    }
  }
  return id;
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
      case 'map-value':
        out += (out === '' ? '' : '.') + '[key]';
        break;
    }
  }
  return out;
}

/** Lowercase URL slug for a tool name; namespaces keep their dot. */
export function toolSlug(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[<>]/g, '') // `mcp__<server>__<tool>` → `mcp__server__tool`
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (slug === '') throw new Error(`tool name ${JSON.stringify(name)} gives an empty URL slug`);
  return slug;
}
