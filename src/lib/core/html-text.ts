/**
 * Text → HTML that shows it as written. For the few places where a library
 * writes a string as HTML (Starlight's <head> renders each entry with
 * set:html): text from captures must never become markup there.
 */
const HTML_SPECIALS: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtmlText(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_SPECIALS[c]!);
}
