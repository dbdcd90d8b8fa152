import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readViewAnswer } from '../../scripts/lib/releases/registry.ts';

// Answers of `npm view <spec> version --json` as the npm client prints them.
const E404_JSON = JSON.stringify(
  {
    error: {
      code: 'E404',
      summary: 'No match found for version 9.9.9',
      detail: 'The requested resource could not be found.',
    },
  },
  null,
  2,
);
const E404_STDERR = 'npm error code E404\nnpm error 404 No match found for version 9.9.9\n';

test('one version, or several (a range): the newest is the last', () => {
  assert.deepEqual(readViewAnswer(0, '"8.1.1"\n', ''), { kind: 'version', version: '8.1.1' });
  assert.deepEqual(readViewAnswer(0, '[\n  "1.0.0",\n  "1.2.0"\n]\n', ''), { kind: 'version', version: '1.2.0' });
});

test('a release the registry does not have is "not found", with or without the JSON error object', () => {
  assert.deepEqual(readViewAnswer(1, E404_JSON, E404_STDERR), { kind: 'not-found' });
  assert.deepEqual(readViewAnswer(1, '', E404_STDERR), { kind: 'not-found' });
});

test('other failures are failures, with the reason, never "not published"', () => {
  const offline = readViewAnswer(
    1,
    JSON.stringify({ error: { code: 'ENOTFOUND', summary: 'request failed, reason: getaddrinfo ENOTFOUND' } }),
    'npm error code ENOTFOUND\n',
  );
  assert.equal(offline.kind, 'failed');
  assert.match((offline as { reason: string }).reason, /ENOTFOUND/);
  assert.equal(readViewAnswer(1, '', 'npm error code ETIMEDOUT\n').kind, 'failed');
  assert.equal(readViewAnswer(0, 'not json', '').kind, 'failed');
  assert.equal(readViewAnswer(0, '"latest"', '').kind, 'failed');
});
