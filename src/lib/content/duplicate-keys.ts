/**
 * Keys written twice in one JSON object. `JSON.parse` keeps the last and drops the first
 * without a word, so an editorial file with two `summary` members would publish one of them
 * silently; the reader refuses such a file instead (rule `json-unique-keys`). The text is
 * walked by Microsoft's jsonc-parser (the parser VS Code uses), which reports each property
 * with the path of the object that holds it. Pure.
 */
import { visit } from 'jsonc-parser';
import { jsonPointer } from '../core/json.ts';

export interface DuplicateKey {
  /** The pointer of the second (and any later) member with the name. */
  pointer: string;
  key: string;
}

export function duplicateKeys(text: string): DuplicateKey[] {
  const out: DuplicateKey[] = [];
  // One set of names per object open at the moment, innermost last.
  const open: Set<string>[] = [];
  visit(text, {
    onObjectBegin: () => {
      open.push(new Set());
    },
    onObjectEnd: () => {
      open.pop();
    },
    onObjectProperty: (key, _offset, _length, _line, _character, pathSupplier) => {
      const names = open[open.length - 1]!;
      if (names.has(key)) out.push({ pointer: jsonPointer('', ...pathSupplier(), key), key });
      names.add(key);
    },
  });
  return out;
}
