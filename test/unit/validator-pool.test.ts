/**
 * Validator modules written ahead in worker threads (src/lib/check/validator-pool.ts): the text a route takes is the
 * text `validatorModule` writes on the spot, whether the worker wrote it, failed to start, or was never set; an error
 * of the schema reaches the route in its own words.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { validatorBanner, validatorModule } from '../../src/lib/check/payload-validator.ts';
import {
  prepareValidatorModules,
  setValidatorWorker,
  shares,
  validatorModuleOf,
} from '../../src/lib/check/validator-pool.ts';

const WORKER = new URL('../../src/lib/check/validator-worker.ts', import.meta.url);

/** Schemas of a few shapes, each with its own $id (the module text names it). */
function schemas(tag: string): Record<string, unknown>[] {
  return [
    {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: `https://agent-tools.invalid/pool/${tag}/a.json`,
      title: `A ${tag}`,
      type: 'object',
      properties: { command: { type: 'string', minLength: 1 }, timeout: { type: 'integer', maximum: 600000 } },
      required: ['command'],
      additionalProperties: false,
    },
    {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: `https://agent-tools.invalid/pool/${tag}/b.json`,
      title: `B ${tag}`,
      type: 'object',
      properties: { edits: { type: 'array', items: { type: 'object', properties: { old: { type: 'string' } } } } },
    },
    {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: `https://agent-tools.invalid/pool/${tag}/c.json`,
      title: `C ${tag}`,
      oneOf: [{ type: 'string', format: 'uri' }, { type: 'null' }],
    },
  ];
}
const requests = (list: Record<string, unknown>[]) =>
  list.map((schema) => ({ schema, options: { banner: validatorBanner(schema) } }));

test('shares: every item once, in order within a share, the shares nearly equal, never more than the items', () => {
  const items = Array.from({ length: 7 }, (_, i) => i);
  const three = shares(items, 3);
  assert.deepEqual(three, [
    [0, 3, 6],
    [1, 4],
    [2, 5],
  ]);
  assert.deepEqual(shares(items, 1), [items]);
  assert.deepEqual(shares(items, 0), [items], 'a machine of one core still has one worker');
  assert.equal(shares([1, 2], 5).length, 2);
});

test("a prepared module is the worker's text, the same as written on the spot", async () => {
  setValidatorWorker(WORKER);
  try {
    const list = requests(schemas('worker'));
    // Asked twice: written once, and the one prepared text is what the route takes.
    prepareValidatorModules([...list, ...list]);
    for (const { schema, options } of list)
      assert.equal(await validatorModuleOf(schema, options), validatorModule(schema, options), String(schema.$id));
  } finally {
    setValidatorWorker(undefined);
  }
});

test("the route takes what the worker answered: a stand-in worker's text arrives as it sent it", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'validator-pool-'));
  try {
    const standIn = join(dir, 'worker.mjs');
    writeFileSync(
      standIn,
      "import { parentPort, workerData } from 'node:worker_threads';\n" +
        'for (const { key } of workerData) parentPort.postMessage({ key, code: `// written by the stand-in` });\n',
    );
    setValidatorWorker(pathToFileURL(standIn));
    const list = requests(schemas('stand-in'));
    prepareValidatorModules(list);
    for (const { schema, options } of list)
      assert.equal(await validatorModuleOf(schema, options), '// written by the stand-in');
    // Taken once: asked again, the module is written on the spot.
    assert.equal(
      await validatorModuleOf(list[0]!.schema, list[0]!.options),
      validatorModule(list[0]!.schema, list[0]!.options),
    );
  } finally {
    setValidatorWorker(undefined);
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a worker that cannot start leaves its modules to be written where they are asked for', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'validator-pool-'));
  try {
    const broken = join(dir, 'worker.mjs');
    writeFileSync(broken, "throw new Error('this worker cannot run');\n");
    setValidatorWorker(pathToFileURL(broken));
    const list = requests(schemas('broken'));
    prepareValidatorModules(list);
    for (const { schema, options } of list)
      assert.equal(await validatorModuleOf(schema, options), validatorModule(schema, options), String(schema.$id));
  } finally {
    setValidatorWorker(undefined);
    rmSync(dir, { recursive: true, force: true });
  }
});

test('without a worker nothing is prepared, and the module is written on the spot', async () => {
  const [schema] = schemas('none');
  const options = { banner: validatorBanner(schema!) };
  prepareValidatorModules([{ schema: schema!, options }]);
  assert.equal(await validatorModuleOf(schema!, options), validatorModule(schema!, options));
});

test("a module the worker cannot write fails where it is asked for, in validatorModule's words", async () => {
  const [schema] = schemas('error');
  // A line break in a banner line would end its comment: validatorModule refuses it.
  const options = { banner: ['one line\nthen code'] };
  assert.throws(() => validatorModule(schema!, options), /breaks its \/\/ comment/);
  setValidatorWorker(WORKER);
  try {
    prepareValidatorModules([{ schema: schema!, options }]);
    await assert.rejects(validatorModuleOf(schema!, options), /breaks its \/\/ comment/);
  } finally {
    setValidatorWorker(undefined);
  }
});
