/**
 * The id of a text in a history's text store (schemas/history.schema.json `texts`): the first 16 hex digits of the
 * SHA-256 of its UTF-8 bytes.
 */
import { createHash } from 'node:crypto';

export function textId(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 16);
}
