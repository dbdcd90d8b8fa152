/**
 * Long lines of JSDoc comments folded at a width, as a formatter leaves code: Biome (and Prettier) never wrap a
 * comment, and json-schema-to-typescript writes each schema description as one comment line however long.
 */

/**
 * `text` with each JSDoc line (`<indent>* words`) longer than `width` folded at spaces into lines of the same prefix,
 * none longer than `width` unless one word is. Other lines, and comment lines indented further (examples, tables), are
 * kept as they are.
 */
export function wrapCommentLines(text: string, width: number): string {
  return text
    .split('\n')
    .flatMap((line) => {
      const parts = /^(\s*\* )(\S.*)$/.exec(line);
      if (line.length <= width || !parts) return [line];
      const [, prefix, body] = parts as unknown as [string, string, string];
      const lines: string[] = [];
      let current = '';
      for (const word of body.split(' ')) {
        if (current !== '' && prefix.length + current.length + 1 + word.length > width) {
          lines.push(prefix + current);
          current = word;
        } else current = current === '' ? word : `${current} ${word}`;
      }
      lines.push(prefix + current);
      return lines;
    })
    .join('\n');
}
