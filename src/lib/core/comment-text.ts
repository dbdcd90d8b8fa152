/**
 * Untrusted text (a captured tool's name inside a schema title, a schema
 * `$id`, a URL) for a comment of generated JavaScript or TypeScript. Pure.
 */

/**
 * `text` as a JSON string literal that cannot leave a `//` or a block comment.
 *
 * Why: a captured name like `pwntool\nwindow.__pwned=11;//` written raw into
 * `// Validator of …` puts live code on the next line of a module a browser
 * runs. JSON.stringify escapes quotes, `\n`, `\r` and every control character;
 * it leaves U+2028 and U+2029 raw, and JavaScript ends a line (and so a `//`
 * comment) at them, so they are escaped too; a star followed by a slash would
 * close a block comment, so a backslash goes between them (`*\/`). Each is a
 * JSON escape: `JSON.parse` of the result gives `text` back.
 */
export function commentSafeLiteral(text: string): string {
  return JSON.stringify(text)
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')
    .replace(/\*\//g, '*\\/');
}
