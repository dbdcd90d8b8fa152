/**
 * Pure readers of the tool inventory held in the pinned CLI binaries, on bytes
 * (a Buffer of the whole binary, or a small synthetic one in tests). Every
 * result says how it was found — the marker string or pattern and the byte
 * offset and length of what was parsed — so that a reader can check it with
 * `grep -a -b -o MARKER <binary>` or `dd skip=OFFSET count=LENGTH bs=1`.
 */

export class InventoryParseError extends Error {}

/** How a list was located in the binary. */
export interface ReadAt {
  /** The exact string searched for (it occurs once in the binary), or the pattern matched. */
  marker: string;
  /** Byte offset and length of the parsed text (the array or object literal, braces included). */
  offset: number;
  length: number;
}

export interface NameList {
  read: ReadAt;
  /** The JavaScript variable the list is bound to in the bundle (minified, changes between releases). */
  variable: string;
  items: string[];
}

export interface AliasTable {
  read: ReadAt;
  variable: string;
  /** Another table this one spreads (`{...base, Eval:"REPL"}`): its entries add to that table's. */
  extends?: string;
  entries: { alias: string; tool: string }[];
}

export interface ClaudeInventory {
  names: NameList;
  aliasTables: AliasTable[];
}

const IDENT = /[A-Za-z_$][A-Za-z0-9_$]*/y;
const TOOL_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The only offset of `needle` in `bytes`; throws when it is missing or occurs more than once. */
export function uniqueOffset(bytes: Buffer, needle: string): number {
  const first = bytes.indexOf(needle, 0, 'latin1');
  if (first === -1) throw new InventoryParseError(`marker ${JSON.stringify(needle)} not found`);
  if (bytes.indexOf(needle, first + 1, 'latin1') !== -1)
    throw new InventoryParseError(`marker ${JSON.stringify(needle)} occurs more than once`);
  return first;
}

/** `"A","B",…` between brackets → names; throws on anything else. */
function stringItems(text: string, what: string): string[] {
  const items: string[] = [];
  const re = /"([^"\\]*)"(,|$)/y;
  let at = 0;
  while (at < text.length) {
    re.lastIndex = at;
    const m = re.exec(text);
    if (!m || !TOOL_NAME.test(m[1]!))
      throw new InventoryParseError(`${what}: not a list of tool names at ${JSON.stringify(text.slice(at, at + 40))}`);
    items.push(m[1]!);
    at = re.lastIndex;
  }
  if (items.length === 0) throw new InventoryParseError(`${what}: empty list`);
  return items;
}

/** `A:"B",C:"D"` → entries; throws on anything else (a computed key, a spread is handled by the caller). */
function aliasEntries(text: string, what: string): { alias: string; tool: string }[] {
  const out: { alias: string; tool: string }[] = [];
  const re = /([A-Za-z_][A-Za-z0-9_]*):"([A-Za-z_][A-Za-z0-9_]*)"(,|$)/y;
  let at = 0;
  while (at < text.length) {
    re.lastIndex = at;
    const m = re.exec(text);
    if (!m) throw new InventoryParseError(`${what}: not an alias table at ${JSON.stringify(text.slice(at, at + 40))}`);
    out.push({ alias: m[1]!, tool: m[2]! });
    at = re.lastIndex;
  }
  if (out.length === 0) throw new InventoryParseError(`${what}: empty table`);
  return out;
}

/** The identifier that ends just before `end` (exclusive), scanning back over identifier characters. */
function identBefore(text: string, end: number): string {
  let start = end;
  while (start > 0 && /[A-Za-z0-9_$]/.test(text[start - 1]!)) start--;
  IDENT.lastIndex = start;
  const m = IDENT.exec(text);
  if (!m || IDENT.lastIndex !== end) throw new InventoryParseError(`no variable name before offset ${end}`);
  return m[0];
}

/**
 * Claude Code bundles its JavaScript in the binary as text: the built-in tool
 * names are one array literal bound right before the alias table, in one
 * declaration (`var X=["Agent",…,"Write"],Y={Task:"Agent",KillShell:"TaskStop",…}`),
 * and a second table spreads the first (`Z={...Y,Eval:"REPL"}`). The marker is
 * an entry of the alias table that occurs once in the binary.
 */
export function parseClaudeInventory(
  bytes: Buffer,
  marker = 'KillShell:"TaskStop"',
  window = 1 << 16,
): ClaudeInventory {
  const at = uniqueOffset(bytes, marker);
  const from = Math.max(0, at - window);
  const text = bytes.subarray(from, Math.min(bytes.length, at + window)).toString('latin1');
  const local = at - from;
  // The alias table: from the `{` before the marker to the next `}`.
  const open = text.lastIndexOf('{', local);
  const close = text.indexOf('}', local);
  if (open === -1 || close === -1 || text.slice(open + 1, local).includes('}'))
    throw new InventoryParseError('the alias table around the marker is not an object literal');
  if (text[open - 1] !== '=') throw new InventoryParseError('the alias table is not bound to a variable');
  const tableVar = identBefore(text, open - 1);
  const tableStart = open - 1 - tableVar.length;
  const table: AliasTable = {
    read: { marker, offset: from + open, length: close + 1 - open },
    variable: tableVar,
    entries: aliasEntries(text.slice(open + 1, close), 'alias table'),
  };
  // The name list: `X=[…]` followed by `,` right before the table's variable.
  if (text[tableStart - 1] !== ',' || text[tableStart - 2] !== ']')
    throw new InventoryParseError('no array literal right before the alias table');
  const listClose = tableStart - 2;
  const listOpen = text.lastIndexOf('[', listClose);
  if (listOpen === -1 || text[listOpen - 1] !== '=')
    throw new InventoryParseError('the name list is not bound to a variable');
  const listVar = identBefore(text, listOpen - 1);
  const names: NameList = {
    read: {
      marker: `the array literal right before ${marker}'s table`,
      offset: from + listOpen,
      length: listClose + 1 - listOpen,
    },
    variable: listVar,
    items: stringItems(text.slice(listOpen + 1, listClose), 'tool-name list'),
  };
  const tables = [table];
  // Tables that extend this one: `={...Y,…}` after it.
  const spread = `={...${tableVar},`;
  let s = text.indexOf(spread, close);
  while (s !== -1) {
    const end = text.indexOf('}', s);
    if (end === -1) throw new InventoryParseError(`unterminated table extending ${tableVar}`);
    const variable = identBefore(text, s);
    tables.push({
      read: { marker: spread, offset: from + s + 1, length: end - s },
      variable,
      extends: tableVar,
      entries: aliasEntries(text.slice(s + spread.length, end), `table extending ${tableVar}`),
    });
    s = text.indexOf(spread, end);
  }
  return { names, aliasTables: tables };
}

export interface Feature {
  name: string;
  stage: string;
  default: boolean;
}

/** The table `codex features list` prints: `name   stage words   true|false` per line. */
export function parseFeatureList(output: string): Feature[] {
  const features: Feature[] = [];
  for (const [i, line] of output.split('\n').entries()) {
    if (line.trim() === '') continue;
    const m = /^([a-z0-9_.-]+)\s+(\S(?:.*\S)?)\s+(true|false)$/.exec(line.trimEnd());
    if (!m)
      throw new InventoryParseError(`features list line ${i + 1} is not "name stage default": ${JSON.stringify(line)}`);
    features.push({ name: m[1]!, stage: m[2]!, default: m[3] === 'true' });
  }
  if (features.length === 0) throw new InventoryParseError('features list is empty');
  return features;
}

export interface SourcePath {
  path: string;
  /** Byte offset of its first occurrence. */
  offset: number;
}

/**
 * Source paths under `prefix` that the binary names (Rust keeps them for panic
 * and log locations): every `<prefix><path>.rs`, first occurrence, sorted by path.
 */
export function sourcePaths(bytes: Buffer, prefix: string): SourcePath[] {
  const found = new Map<string, number>();
  let at = bytes.indexOf(prefix, 0, 'latin1');
  while (at !== -1) {
    let end = at + prefix.length;
    while (end < bytes.length && /[a-z0-9_/.]/.test(String.fromCharCode(bytes[end]!))) end++;
    const path = bytes.subarray(at, end).toString('latin1');
    const rs = path.match(/^(.*?\.rs)/)?.[1];
    if (rs && rs.length > prefix.length + 3 && !found.has(rs)) found.set(rs, at);
    at = bytes.indexOf(prefix, at + 1, 'latin1');
  }
  return [...found]
    .map(([path, offset]) => ({ path, offset }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** A model's entry in a model catalog, with the members that were kept (see modelCatalog). */
export type CatalogModel = { slug: string } & Record<string, unknown>;

export interface ModelCatalog {
  read: ReadAt;
  /** Members left out of every entry because some entry's value holds prose (a string over PROSE_LENGTH characters). */
  omitted: string[];
  models: CatalogModel[];
}

/** A string this long is text for the model or the user (instructions, migration notes), not a setting. */
export const PROSE_LENGTH = 200;

/** Byte offset just past the JSON value starting at `start` (an object or array), or -1 if it never closes. */
function jsonEnd(bytes: Buffer, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < bytes.length; i++) {
    const c = bytes[i]!;
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped byte
      else if (c === 0x22) inString = false;
      else if (c < 0x20 && c !== 0x09) return -1; // raw control bytes: not JSON text
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) {
      if (--depth === 0) return i + 1;
    } else if (c === 0x00) return -1;
  }
  return -1;
}

function holdsProse(value: unknown): boolean {
  if (typeof value === 'string') return value.length > PROSE_LENGTH;
  if (Array.isArray(value)) return value.some(holdsProse);
  if (value && typeof value === 'object') return Object.values(value).some(holdsProse);
  return false;
}

/**
 * The model catalog a compiled binary embeds as JSON text (Codex: `{"models": [ {slug, …}, … ]}`):
 * the one object that opens with `{` followed by `marker` and parses as JSON whose `models` is a
 * list of objects with a string `slug`. Members holding prose are left out of every entry
 * (named in `omitted`), so that the committed file keeps what selects tools and not the
 * instructions text. Throws when there is no such object or more than one.
 */
export function modelCatalog(bytes: Buffer, marker = '"models": ['): ModelCatalog {
  const found: { offset: number; length: number; models: CatalogModel[] }[] = [];
  for (let at = bytes.indexOf(marker, 0, 'latin1'); at !== -1; at = bytes.indexOf(marker, at + 1, 'latin1')) {
    // The object opens at the last `{` before the marker with only whitespace between.
    let open = at - 1;
    while (open >= 0 && /\s/.test(String.fromCharCode(bytes[open]!))) open--;
    if (open < 0 || bytes[open] !== 0x7b) continue;
    const end = jsonEnd(bytes, open);
    if (end === -1) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(bytes.subarray(open, end).toString('utf8'));
    } catch {
      continue;
    }
    const models = (parsed as { models?: unknown }).models;
    if (
      !Array.isArray(models) ||
      models.length === 0 ||
      !models.every((m) => m && typeof m === 'object' && typeof (m as { slug?: unknown }).slug === 'string')
    )
      continue;
    found.push({ offset: open, length: end - open, models: models as CatalogModel[] });
  }
  if (found.length === 0)
    throw new InventoryParseError(`no JSON object with ${JSON.stringify(marker)} and a list of models with slugs`);
  if (found.length > 1)
    throw new InventoryParseError(
      `${found.length} model catalogs found (at ${found.map((f) => f.offset).join(', ')}): cannot tell which ` +
        `one the CLI uses`,
    );
  const { offset, length, models } = found[0]!;
  const omitted = new Set<string>();
  for (const m of models) for (const [k, v] of Object.entries(m)) if (holdsProse(v)) omitted.add(k);
  const kept = models.map(
    (m) => Object.fromEntries(Object.entries(m).filter(([k]) => !omitted.has(k))) as CatalogModel,
  );
  return { read: { marker, offset, length }, omitted: [...omitted].sort(), models: kept };
}
