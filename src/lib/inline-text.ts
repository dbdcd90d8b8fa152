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
