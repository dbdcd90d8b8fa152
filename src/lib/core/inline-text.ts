/**
 * Splits plain text into text and `code` runs. Rendering these parts with
 * Astro's escaping means upstream or editorial text that looks like HTML
 * (`<environment_context>`) is always shown as text, never parsed.
 */
export interface InlinePart {
  code: boolean;
  text: string;
}

export function inlineParts(text: string): InlinePart[] {
  const parts: InlinePart[] = [];
  const re = /`([^`\n]+)`/g;
  let last = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m.index > last) parts.push({ code: false, text: text.slice(last, m.index) });
    parts.push({ code: true, text: m[1]! });
    last = m.index + m[0].length;
  }
  if (last < text.length) parts.push({ code: false, text: text.slice(last) });
  return parts;
}

/**
 * Splits a path or type text into pieces after which a line may break:
 * after `.`, `_`, `|`, `/` and `,`, before `(` and `[`, and inside camelCase, so that
 * `structuredPatch[].lines` and `"a" | "b"` wrap where a reader expects
 * rather than mid-word. Joining the pieces gives the text back unchanged.
 */
export function breakableParts(text: string, options: { camelCase?: boolean } = {}): string[] {
  // After a run of separators (`__` stays whole), before an opening bracket, and
  // between the words of a camelCase name (`dangerously|Disable|Sandbox`) unless
  // told not to: a tool name broken there (`List|Connectors`) reads as two words.
  const camel = options.camelCase ?? true;
  return text.split(
    camel ? /(?<=[._|/,])(?=[^._|/,])|(?<=.)(?=[([])|(?<=[a-z])(?=[A-Z])/u : /(?<=[._|/,])(?=[^._|/,])|(?<=.)(?=[([])/u,
  );
}
