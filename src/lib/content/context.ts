/**
 * What every loading stage shares: the reader, the problems collector, the file list and the Ajv for upstream schemas.
 */
import type { Ajv2020 } from 'ajv/dist/2020.js';
import type { ContentFiles, ContentReader } from './read.ts';
import type { Problems } from './problems.ts';
import type { ReservedNames } from './url-names.ts';
import type { ToolModel } from '../model/model.ts';
import type { AliasRecord } from '../core/content-types.ts';

export interface Stage {
  reader: ContentReader;
  problems: Problems;
  files: ContentFiles;
  /**
   * Upstream definitions are compiled with their own lenient instance (unknown
   * keywords allowed, formats not checked) that still rejects what is not JSON Schema.
   */
  definitionAjv: Ajv2020;
  reserved: ReservedNames;
  /** Where each tool's name is written: the file and JSON pointer an error about its URL names. */
  namePlace: WeakMap<ToolModel, { file: string; pointer: string }>;
  /** Where an alias added by a later stage (the inventory) is written, when not in its tool's file. */
  aliasPlace: WeakMap<AliasRecord, { file: string; pointer: string }>;
}

/**
 * Whether a file sits where its own id says it belongs (`hooks/<agent>.json`). Pages find these files by their names,
 * so one in the wrong place would be shadowed or never read: it gets a file-name-matches-id error saying where it
 * belongs (`belongs` is the start of that sentence: "the hook outputs of pi belong").
 */
export function inItsPlace(stage: Stage, path: string, expected: string, pointer: string, belongs: string): boolean {
  if (path === expected) return true;
  stage.problems.error(
    stage.reader.relContent(path),
    pointer,
    'file-name-matches-id',
    `${belongs} in content/${expected}`,
  );
  return false;
}
