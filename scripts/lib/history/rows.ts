/**
 * The one snapshot of a field row that a history compares, whichever source the rows were
 * read from (published types or captures): a FieldRow of src/lib/shapes/field-rows.ts
 * reduced to what a change can be seen in. A history event names a field exactly as its
 * tool page does, because both come from the site's own rows.
 */
import type { FieldRow } from '../../../src/lib/shapes/field-rows.ts';
import { literalText } from '../../../src/lib/shapes/field-rows.ts';

export type Side = 'input' | 'output';

export interface RowSnapshot {
  /**
   * The row's stable anchor, root included (`input.file_path`, `output:completed.agentId`, `input.x:+asset_upload`).
   */
  id: string;
  /** Display path (`structuredPatch[].lines`). */
  path: string;
  /** Type text as the table shows it (`string`, `"a" | "b"`, `object[]`, `number | null`). */
  type: string;
  /** null where requiredness does not apply (variant headers). */
  required: boolean | null;
  /** Present (true) only when the type is nullable. */
  nullable?: true;
  /** The description, trimmed; absent when there is none. */
  description?: string;
  /** The allowed values of a literal union, as literal text (`"completed"`, `1`, `true`). */
  literals?: string[];
}

/** A field row → its snapshot. The anchor is the stable one: a union variant by its identity, not its position. */
export function rowSnapshot(row: FieldRow): RowSnapshot {
  const out: RowSnapshot = { id: row.stableId, path: row.path, type: row.type, required: row.required };
  if (row.nullable) out.nullable = true;
  const description = row.description?.trim();
  if (description) out.description = description;
  if (row.literals) out.literals = row.literals.map(literalText);
  return out;
}
