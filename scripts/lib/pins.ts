/**
 * scripts/pins.json: the pinned release of each package of published types, keyed
 * by agent id, in one shape (schemas/pins.schema.json). Reading checks the schema;
 * the writers return the new file text and keep key order, so a diff shows only
 * what moved.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { schemaAjv, schemaRefusal } from './capture/ajv.ts';
import { jsonText } from './system/atomic-write.ts';
import { display, ScriptError } from './script-files.ts';

const ROOT = join(import.meta.dirname, '../..');
export const PINS_SCHEMA = join(ROOT, 'schemas/pins.schema.json');

export interface Pin {
  package: string;
  version: string;
  /** sha512 SRI string of the package tarball; absent until the first ingest at a new version. */
  integrity?: string;
  /** The declaration file the ingest reads, where it reads one. */
  typesFile?: string;
  checked: string;
}

export type Pins = Record<string, Pin>;

/** The pins file at `file`, checked against its schema; a ScriptError names the file, pointer and problem. */
export function readPins(file: string): Pins {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ScriptError(`cannot read the pins file ${display(file)}: ${(error as Error).message}`);
  }
  const validate = schemaAjv().compile(JSON.parse(readFileSync(PINS_SCHEMA, 'utf8')) as object);
  if (!validate(data)) {
    throw new ScriptError(schemaRefusal(display(file), 'schemas/pins.schema.json', validate.errors));
  }
  return data as Pins;
}

/** The pin of `agent`; a ScriptError when the file has none. */
export function pinOf(pins: Pins, agent: string, file: string): Pin {
  const pin = pins[agent];
  if (!pin) throw new ScriptError(`${display(file)} has no "${agent}" entry`);
  return pin;
}

/** The pins text with `integrity` set on `agent`'s entry (a new key goes right after `version`). */
export function pinsWithIntegrity(pins: Pins, agent: string, integrity: string): string {
  const entry = pins[agent]!;
  const updated: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(entry)) {
    updated[key] = key === 'integrity' ? integrity : value;
    if (key === 'version' && !('integrity' in entry)) updated['integrity'] = integrity;
  }
  return jsonText({ ...pins, [agent]: updated });
}

/**
 * The pins text with `agent` moved to `version`, checked on `checked`, its integrity dropped (the next ingest records
 * it).
 */
export function pinsWithVersion(pins: Pins, agent: string, version: string, checked: string): string {
  const { integrity: _old, ...entry } = pins[agent]!;
  return jsonText({ ...pins, [agent]: { ...entry, version, checked } });
}
