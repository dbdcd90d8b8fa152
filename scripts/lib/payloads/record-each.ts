/**
 * The loop `npm run payloads` and `npm run hook-behaviour` share inside the namespace: for
 * each selected item, find the pinned binary, run it once in the payload run folder (locked
 * against another run), check the record against its schema, and keep its text; every
 * failure is collected with its reason, none stops the others. The run folder is emptied
 * afterwards, whatever happened.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { jsonText } from '../system/atomic-write.ts';
import { schemaAjv, schemaRefusal } from '../capture/ajv.ts';
import { installedBinary } from '../capture/install.ts';
import type { Matrix } from '../capture/matrix.ts';
import { lockRunFolder } from '../capture/namespace.ts';
import { CaptureError } from '../capture/normalise.ts';
import { checkOrWrite, updateFiles } from '../capture/write.ts';
import type { AgentId } from '../../../src/lib/agents/index.ts';
import { payloadPaths, type PayloadPaths } from './drivers.ts';
import { RecordError } from './record.ts';
import { ScenarioError } from './scenarios.ts';
import { payloadRunFolder } from '../capture/run-folders.ts';

export interface RecordEachSpec<S extends { agent: AgentId; key: string; file: string }, R> {
  root: string;
  cacheRoot: string;
  matrix: Matrix;
  selected: readonly S[];
  /** The schema every record must match (relative to root). */
  schema: string;
  /** Named when the run folder is locked by another run. */
  lockedBy: string;
  /** Files of the run folder to remove afterwards, beside home/, work/, tmp/ and the hook log. */
  leftovers?: readonly string[];
  /** Keeps `width` for the key column of the console lines. */
  width: number;
  /** The program to run instead of the pinned install (an earlier release installed elsewhere). */
  binary?: string;
  run(item: S, binary: string, paths: PayloadPaths): Promise<R>;
  /** The console line of a recorded item (after its key). */
  summary(item: S, record: R): string;
}

/** The records by file (relative to the content folder), and the failures as `<key>: <reason>`. */
export async function recordEach<S extends { agent: AgentId; key: string; file: string }, R>(
  spec: RecordEachSpec<S, R>,
): Promise<{ files: Map<string, string>; errors: string[] }> {
  const ajv = schemaAjv();
  const schema = JSON.parse(readFileSync(join(spec.root, spec.schema), 'utf8')) as { $id?: string };
  // A shared schema (schemas/subagent-type.schema.json) is in the instance already, under its $id.
  const validate = (schema.$id !== undefined ? ajv.getSchema(schema.$id) : undefined) ?? ajv.compile(schema);
  const paths = payloadPaths(payloadRunFolder(spec.cacheRoot));
  const unlock = lockRunFolder(paths.run, spec.lockedBy);
  const files = new Map<string, string>();
  const errors: string[] = [];
  try {
    for (const s of spec.selected) {
      const { package: pkg, version } = spec.matrix.agents[s.agent];
      const binary = spec.binary ?? installedBinary(s.agent, spec.cacheRoot, pkg, version);
      if (!binary) {
        errors.push(
          `${s.key}: ${pkg}@${version} is not installed under ${spec.cacheRoot}/capture-cli (run without --inside)`,
        );
        continue;
      }
      const t0 = Date.now();
      try {
        const record = await spec.run(s, binary, paths);
        if (!validate(record)) throw new RecordError(schemaRefusal('the record', spec.schema, validate.errors));
        files.set(s.file, jsonText(record));
        console.log(`  ${spec.summary(s, record).padEnd(spec.width)} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
      } catch (error) {
        const known = error instanceof CaptureError || error instanceof RecordError || error instanceof ScenarioError;
        errors.push(`${s.key}: ${known ? (error as Error).message : ((error as Error).stack ?? String(error))}`);
        console.log(`  ${s.key.padEnd(spec.width)} FAILED`);
      }
    }
  } finally {
    for (const dir of [paths.home, paths.workdir, paths.tmp]) rmSync(dir, { recursive: true, force: true });
    for (const f of [paths.hookLog, ...(spec.leftovers ?? []).map((l) => join(paths.run, l))])
      rmSync(f, { force: true });
    unlock();
  }
  return { files, errors };
}

/**
 * What a recording script does with recordEach's result: any failure leaves the content folder
 * untouched (exit 1, each reason printed); with --out the records go there; otherwise they are
 * written to (or, with --check, compared with) the content folder.
 */
export function keepRecords(
  result: { files: ReadonlyMap<string, string>; errors: readonly string[] },
  o: {
    script: string;
    what: string;
    selected: number;
    unit: string;
    dir: string;
    shownDir: string;
    out?: string | undefined;
    check: boolean;
    partial: boolean;
    afterSuccess?: () => void;
  },
): number {
  const { files, errors } = result;
  if (errors.length > 0) {
    console.error(
      `\n${o.script} failed for ${errors.length} of ${o.selected} ${o.unit}(s); ${o.shownDir} was left untouched:\n`,
    );
    for (const e of errors) console.error(`- ${e}\n`);
    return 1;
  }
  o.afterSuccess?.();
  if (o.out !== undefined) {
    updateFiles(o.out, files);
    console.log(`\nwrote ${files.size} ${o.what}(s) to ${o.out}`);
    return 0;
  }
  return checkOrWrite(o.dir, files, {
    check: o.check,
    partial: o.partial,
    script: o.script,
    what: o.what,
    shownDir: o.shownDir,
  });
}
