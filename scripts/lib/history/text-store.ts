/**
 * The texts a history's change events name (a tool's description before and after, a
 * definition as text), stored once each in the history file's `texts` under a content
 * address, so that a long description kept over hundreds of releases is one copy. Pure.
 */
import { textId } from '../../../src/lib/core/text-id.ts';
import type { HistoryEvent } from './events.ts';
import { canonicalJson } from './events.ts';

/** An event as the diff computes it: with the texts themselves, not yet their ids. */
export interface ComputedEvent extends HistoryEvent {
  /** The text before (the file keeps its id in `fromText`). */
  before?: string;
  /** The text after (the file keeps its id in `toText`). */
  after?: string;
}

export { textId };

/**
 * Events with their texts replaced by ids, and the store of those texts in id order. Two
 * different texts with one id would lose one: refused.
 */
export function internTexts(events: readonly ComputedEvent[]): {
  events: HistoryEvent[];
  texts: Record<string, string>;
} {
  const texts = new Map<string, string>();
  const intern = (text: string): string => {
    const id = textId(text);
    const known = texts.get(id);
    if (known !== undefined && known !== text) throw new Error(`two texts share the id ${id}; lengthen the id`);
    texts.set(id, text);
    return id;
  };
  const out = events.map((e) => {
    const { before, after, ...event } = e;
    const plain: HistoryEvent = { ...event };
    if (before !== undefined) plain.fromText = intern(before);
    if (after !== undefined) plain.toText = intern(after);
    return plain;
  });
  const sorted = Object.fromEntries([...texts].sort(([a], [b]) => (a < b ? -1 : 1)));
  return { events: out, texts: sorted };
}

/**
 * A definition (the JSON of a captured tool's input without its origin) as a reader compares
 * it: a grammar or a TypeScript declaration as written, a JSON Schema as indented JSON with
 * sorted keys.
 */
export function definitionAsText(definitionJson: string): string {
  if (definitionJson === '') return '';
  const d = JSON.parse(definitionJson) as {
    kind?: string;
    syntax?: string;
    definition?: string;
    source?: string;
    schema?: unknown;
  };
  if (d.kind === 'grammar' && typeof d.definition === 'string') return d.definition;
  if (d.kind === 'typescript' && typeof d.source === 'string') return d.source;
  if (d.kind === 'json-schema') return JSON.stringify(JSON.parse(canonicalJson(d.schema)), null, 2);
  return JSON.stringify(JSON.parse(canonicalJson(d)), null, 2);
}
