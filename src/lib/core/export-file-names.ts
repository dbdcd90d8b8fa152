/** The names of a tool's export files and which section of its page each holds: a leaf the model's types can name. */
/** The three definitions a tool page shows, by the name their files take. */
export type Section = 'input' | 'result' | 'model-input';

export const SECTIONS: readonly Section[] = ['input', 'result', 'model-input'];

export type ExportKind = 'schema' | 'declaration';

/** File names inside the tool's folder (and its version folder). */
export const EXPORT_FILE_NAMES = {
  'input.schema.json': { kind: 'schema', section: 'input' },
  'result.schema.json': { kind: 'schema', section: 'result' },
  'model-input.schema.json': { kind: 'schema', section: 'model-input' },
  'input.d.ts': { kind: 'declaration', section: 'input' },
} as const satisfies Record<string, { kind: ExportKind; section: Section }>;

export type ExportFileName = keyof typeof EXPORT_FILE_NAMES;
