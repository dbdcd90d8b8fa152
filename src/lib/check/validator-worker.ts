/**
 * A worker thread of validator-pool.ts: writes the validator module of each request it was started with, in order,
 * and sends each back as soon as it is written (or the error that stopped it, in its own words).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { validatorModule } from './payload-validator.ts';
import type { ValidatorAnswer, ValidatorRequest } from './validator-pool.ts';

for (const { key, schema, options } of workerData as ValidatorRequest[]) {
  let answer: ValidatorAnswer;
  try {
    answer = { key, code: validatorModule(schema, options) };
  } catch (error) {
    answer = { key, error: (error as Error).message };
  }
  parentPort!.postMessage(answer);
}
