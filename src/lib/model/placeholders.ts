/**
 * Placeholders in captured text. `npm run capture` replaces the values of its own
 * run (paths, the stub's address, the run's dates, generated ids) by `$NAME`
 * tokens (scripts/lib/capture/placeholders.ts), so that a capture is
 * byte-identical when made again. Those tokens are not what the CLI sent: a
 * page that shows captured text verbatim marks each as a placeholder and says
 * what it stands for. Pure.
 */

/** Every placeholder a capture writes, with what it stands for (a unit test holds this to the capture's own rules). */
export const CAPTURE_PLACEHOLDERS: Readonly<Record<string, string>> = {
  HOME: "the home folder of the capture's run",
  WORKDIR: "the working folder of the capture's run",
  STUB_URL: 'the address of the recording stub',
  NODE: 'the Node.js binary that ran the capture',
  MCP_SERVER: 'the path of the stub MCP server script',
  FIXTURES: "the capture's fixtures folder",
  DATE: 'the day of the run',
  MONTH_YEAR: 'the month and year of the run',
  YEAR: 'the year of the run',
  LAST_YEAR: 'the year before the run',
  UUID: 'an identifier generated during the run',
};

export type TextSegment = { text: string } | { text: string; placeholder: string; meaning: string };

const TOKEN = /\$([A-Z][A-Z0-9_]*)/g;

/** `text` cut into plain runs and the capture's placeholders (a `$NAME` that is not one stays plain text). */
export function placeholderSegments(text: string): TextSegment[] {
  const out: TextSegment[] = [];
  let last = 0;
  for (const m of text.matchAll(TOKEN)) {
    const meaning = CAPTURE_PLACEHOLDERS[m[1]!];
    if (meaning === undefined) continue;
    if (m.index > last) out.push({ text: text.slice(last, m.index) });
    out.push({ text: m[0], placeholder: m[1]!, meaning });
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push({ text: text.slice(last) });
  return out;
}

/** The placeholders `text` holds, each once, in order of first appearance: a legend. */
export function placeholdersIn(text: string | undefined): { token: string; meaning: string }[] {
  const seen = new Map<string, string>();
  for (const s of placeholderSegments(text ?? ''))
    if ('placeholder' in s && !seen.has(s.text)) seen.set(s.text, s.meaning);
  return [...seen].map(([token, meaning]) => ({ token, meaning }));
}

/** What a marked placeholder's title says. */
export function placeholderTitle(meaning: string): string {
  return `Placeholder, not verbatim: the capture put it in place of ${meaning}`;
}
