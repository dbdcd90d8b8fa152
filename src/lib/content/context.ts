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
