/**
 * Finding the hook-event names an agent's published code declares (scripts/hook-events.ts):
 * pure reading of a file's text, by the form its registry module names
 * (HookEventSource.form). Each event keeps the declaration's own text as its evidence.
 */
import type { HookEventSource } from '../../src/lib/agents/types.ts';

export interface FoundEvent {
  name: string;
  says: string;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A TypeScript enum as a bundler compiles it:
 * `var HookEventName = /* @__PURE__ *\/ ((HookEventName2) => { HookEventName2["PreToolUse"] = "PreToolUse"; … return
 * HookEventName2; })(HookEventName || {});`
 */
function compiledEnum(text: string, name: string): FoundEvent[] | undefined {
  const start = new RegExp(`var ${escapeRegExp(name)} = (?:/\\* @__PURE__ \\*/ )?\\(\\((\\w+)\\) => \\{`).exec(text);
  if (!start) return undefined;
  const inner = start[1]!;
  const end = text.indexOf(`return ${inner};`, start.index);
  if (end < 0) return undefined;
  const body = text.slice(start.index + start[0].length, end);
  const member = new RegExp(`${escapeRegExp(inner)}\\["([^"]+)"\\] = "([^"]+)";`, 'g');
  return [...body.matchAll(member)].map((m) => ({ name: m[2]!, says: `${inner}["${m[1]!}"] = "${m[2]!}"` }));
}

/**
 * A union of string literals, `export type HookType = /** … *\/ "a" /** … *\/ | "b";`, each literal with the doc
 * comment before it.
 */
function unionType(text: string, name: string): FoundEvent[] | undefined {
  const start = new RegExp(`export type ${escapeRegExp(name)}\\s*=`).exec(text);
  if (!start) return undefined;
  const end = text.indexOf(';', start.index + start[0].length);
  if (end < 0) return undefined;
  const body = text.slice(start.index + start[0].length, end);
  const out: FoundEvent[] = [];
  for (const m of body.matchAll(/(?:\/\*\*\s*([\s\S]*?)\s*\*\/\s*)?\|?\s*"([^"]+)"/g)) {
    const comment = m[1]
      ?.split('\n')
      .map((line) => line.replace(/^\s*\*?\s*/, '').trim())
      .filter((line) => line !== '')
      .join(' ');
    out.push({ name: m[2]!, says: comment ? `"${m[2]!}": ${comment}` : `"${m[2]!}"` });
  }
  return out;
}

/** The events `text` declares in the source's form, in declaration order; undefined when it does not declare them. */
export function declaredEvents(text: string, source: Pick<HookEventSource, 'form' | 'name'>): FoundEvent[] | undefined {
  const found = source.form === 'compiled-enum' ? compiledEnum(text, source.name) : unionType(text, source.name);
  return found && found.length > 0 ? found : undefined;
}
