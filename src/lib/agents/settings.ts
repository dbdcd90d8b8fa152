/**
 * Settings files of agents configured through JSON (Gemini CLI, Qwen Code,
 * OpenCode): the module's own settings, which point the CLI at the stub, with a
 * configuration's `settings` merged over them.
 */
import { isObject as isPlainObject } from '../wire/shared.ts';
import type { JsonObject } from './types.ts';

/**
 * `over` merged into `base`: where both hold an object the two merge key by key,
 * anything else in `over` replaces. Neither argument is changed; key order is
 * `base`'s, then the keys only `over` has.
 */
export function mergeSettings(base: JsonObject, over: JsonObject | undefined): JsonObject {
  if (over === undefined) return structuredClone(base);
  const out: JsonObject = structuredClone(base);
  for (const [key, value] of Object.entries(over)) {
    const current = out[key];
    out[key] = isPlainObject(current) && isPlainObject(value) ? mergeSettings(current, value) : structuredClone(value);
  }
  return out;
}

/** A settings file's text: two-space JSON and a final newline. */
export function settingsText(settings: unknown): string {
  return JSON.stringify(settings, null, 2) + '\n';
}
