import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  describeNpmFailure,
  IntegrityError,
  isSha512Integrity,
  judgeIntegrity,
  reportedIntegrityIncludes,
  sha512Integrity,
  type IntegrityCheck,
} from '../../scripts/lib/releases/npm-package.ts';

// sha512 of "" and of "abc" (FIPS 180-2 test vector), base64: as `openssl dgst -sha512 -binary | base64` prints them.
const EMPTY = 'sha512-z4PhNX7vuL3xVChQ1m2AB9Yg5AULVxXcg/SpIdNs6c5H0NE8XYXysP+DGNKHfuwvY7kxvUdBeoGlODJ6+SfaPg==';
const ABC = 'sha512-3a81oZNherrMQXNJriBBMRLm+k6JqX6iCp7u5ktV05ohkpkqJ0/BqDa6PCOj/uu9RU1EI2Q86A4qmslPpUyknw==';

test('the integrity is the sha512 of the bytes, base64, as an SRI string', () => {
  assert.equal(sha512Integrity(new Uint8Array()), EMPTY);
  assert.equal(sha512Integrity(Buffer.from('abc')), ABC);
});

test('only one well-formed sha512 SRI string is accepted as a pin', () => {
  assert.ok(isSha512Integrity(ABC));
  assert.ok(!isSha512Integrity(ABC.replace('sha512-', 'sha1-')));
  assert.ok(!isSha512Integrity(ABC.slice(0, -3) + '=='));
  assert.ok(!isSha512Integrity(`${ABC} `));
  assert.ok(!isSha512Integrity(`${ABC} ${EMPTY}`));
  assert.ok(!isSha512Integrity(undefined));
});

test("npm's reported integrity may list several hashes; ours must be one of them", () => {
  assert.ok(reportedIntegrityIncludes(ABC, ABC));
  assert.ok(reportedIntegrityIncludes(`sha1-qZk+NkcGgWq6PiVxeFDCbJzQ2J0= ${ABC}`, ABC));
  assert.ok(!reportedIntegrityIncludes(EMPTY, ABC));
  assert.ok(!reportedIntegrityIncludes('', ABC));
});

// What npm 11 prints for `npm pack … --json` when the registry refuses the connection.
const REFUSED_STDOUT = `{
  "error": {
    "code": "ECONNREFUSED",
    "summary": "FetchError: request to http://127.0.0.1:9/@anthropic-ai%2fclaude-agent-sdk failed, reason: connect ECONNREFUSED 127.0.0.1:9",
    "detail": "If you are behind a proxy, please make sure that the 'proxy' config is set properly.  See: 'npm help config'"
  }
}
`;
const REFUSED_STDERR = `npm error code ECONNREFUSED
npm error syscall connect
npm error errno ECONNREFUSED
npm error FetchError: request to http://127.0.0.1:9/@anthropic-ai%2fclaude-agent-sdk failed, reason: connect ECONNREFUSED 127.0.0.1:9
npm error     at ClientRequest.<anonymous> (/usr/lib/node_modules/npm/node_modules/minipass-fetch/lib/index.js:130:14)
npm error     at process.processTicksAndRejections (node:internal/process/task_queues:83:21) {
npm error   code: 'ECONNREFUSED',
npm error   port: 9,
npm error   type: 'system'
npm error }
npm error
npm error If you are behind a proxy, please make sure that the 'proxy' config is set properly.  See: 'npm help config'
npm error A complete log of this run can be found in: /root/.npm/_logs/2026-11-30T05_21_41_403Z-debug-0.log`;

test("a failed npm run is told in one line: npm's JSON error, the registry, the log", () => {
  const line = describeNpmFailure(
    { stdout: REFUSED_STDOUT, stderr: REFUSED_STDERR, status: 1, signal: null },
    { registry: 'http://127.0.0.1:9/' },
  );
  assert.equal(
    line,
    'ECONNREFUSED: request to http://127.0.0.1:9/@anthropic-ai%2fclaude-agent-sdk failed, reason: connect ECONNREFUSED 127.0.0.1:9; registry http://127.0.0.1:9/; npm log /root/.npm/_logs/2026-11-30T05_21_41_403Z-debug-0.log',
  );
  assert.doesNotMatch(line, /\n/);
  const missing = describeNpmFailure(
    {
      stdout:
        '{"error":{"code":"ETARGET","summary":"No matching version found for pkg@9.9.9.","detail":"In most cases you or one of your dependencies are requesting\\na package version that doesn\'t exist."}}',
      stderr: '',
    },
    { registry: 'http://127.0.0.1:4873/' },
  );
  assert.equal(missing, 'ETARGET: No matching version found for pkg@9.9.9; registry http://127.0.0.1:4873/');
});

test('without JSON on stdout, the reason comes from the npm error lines, not the stack or the log line', () => {
  const line = describeNpmFailure({ stdout: '', stderr: REFUSED_STDERR, status: 1, signal: null }, {});
  assert.equal(
    line,
    'ECONNREFUSED: request to http://127.0.0.1:9/@anthropic-ai%2fclaude-agent-sdk failed, reason: connect ECONNREFUSED 127.0.0.1:9; npm log /root/.npm/_logs/2026-11-30T05_21_41_403Z-debug-0.log',
  );
  const old = describeNpmFailure(
    {
      stdout: '',
      stderr:
        'npm ERR! code E404\nnpm ERR! 404 Not Found - GET https://registry.example/x - Not found\nnpm ERR! A complete log of this run can be found in:\nnpm ERR!     /home/u/.npm/_logs/a-debug-0.log\n',
    },
    { registry: 'https://registry.example/' },
  );
  assert.equal(
    old,
    'E404: 404 Not Found - GET https://registry.example/x - Not found; registry https://registry.example/; npm log /home/u/.npm/_logs/a-debug-0.log',
  );
});

test('npm missing, npm out of time and npm killed each get their own reason', () => {
  assert.equal(
    describeNpmFailure({ code: 'ENOENT', message: 'spawnSync npm ENOENT' }, {}),
    'the npm command was not found on PATH',
  );
  assert.equal(
    describeNpmFailure(
      {
        code: 'ETIMEDOUT',
        signal: 'SIGTERM',
        status: null,
        stdout: '',
        stderr: '',
        message: 'spawnSync npm ETIMEDOUT',
      },
      { timeoutMs: 120_000, registry: 'https://r/' },
    ),
    'npm did not finish within 120 s and was stopped; registry https://r/',
  );
  assert.equal(
    describeNpmFailure({ signal: 'SIGINT', status: null, stdout: '', stderr: '' }, {}),
    'npm was stopped by SIGINT',
  );
});

const BASE: IntegrityCheck = {
  spec: 'pkg@1.0.0',
  actual: ABC,
  pinned: ABC,
  pinFile: 'scripts/pins.json',
  recordedFrom: 'content/agents/x.json',
  registry: 'http://127.0.0.1:1234/',
  acceptNew: false,
  acceptCommand: 'npm run ingest -- --accept-new-integrity',
};

test('a tarball matching the pin leaves the pin alone', () => {
  assert.deepEqual(judgeIntegrity(BASE), { record: false });
});

test('a tarball differing from the pin is refused, naming both hashes, where each comes from and how to move the pin', () => {
  assert.throws(
    () => judgeIntegrity({ ...BASE, actual: EMPTY }),
    (error: unknown) => {
      assert.ok(error instanceof IntegrityError);
      assert.match(error.message, /integrity mismatch for pkg@1\.0\.0 from http:\/\/127\.0\.0\.1:1234\//);
      assert.ok(error.message.includes(`expected ${ABC} (scripts/pins.json)`), error.message);
      assert.ok(error.message.includes(`actual   ${EMPTY}`), error.message);
      assert.ok(error.message.includes('npm run ingest -- --accept-new-integrity'), error.message);
      return true;
    },
  );
});

test('a registry given as a function is asked only for the refusal that names it', () => {
  let asked = 0;
  const registry = () => {
    asked++;
    return 'http://127.0.0.1:1234/';
  };
  judgeIntegrity({ ...BASE, registry });
  judgeIntegrity({ ...BASE, actual: EMPTY, acceptNew: true, registry });
  judgeIntegrity({ ...BASE, pinned: undefined, recorded: undefined, registry });
  assert.equal(asked, 0, 'a verdict that names no registry does not ask for it');
  assert.throws(
    () => judgeIntegrity({ ...BASE, actual: EMPTY, registry }),
    /pkg@1\.0\.0 from http:\/\/127\.0\.0\.1:1234\//,
  );
  assert.equal(asked, 1);
});

test('--accept-new-integrity moves a differing pin and says from what to what', () => {
  const verdict = judgeIntegrity({ ...BASE, actual: EMPTY, acceptNew: true });
  assert.equal(verdict.record, true);
  assert.ok(verdict.note?.includes(`from ${ABC} to ${EMPTY}`), verdict.note);
});

test('a version with no pin and nothing recorded has its integrity recorded', () => {
  const verdict = judgeIntegrity({ ...BASE, pinned: undefined, recorded: undefined });
  assert.equal(verdict.record, true);
  assert.match(verdict.note ?? '', /recorded the integrity of pkg@1\.0\.0 in scripts\/pins\.json/);
});

test('with no pin, the integrity the content records for the same version is enforced', () => {
  assert.deepEqual(judgeIntegrity({ ...BASE, pinned: undefined, recorded: ABC }).record, true);
  assert.throws(
    () => judgeIntegrity({ ...BASE, pinned: undefined, recorded: EMPTY }),
    (error: unknown) => {
      assert.ok(error instanceof IntegrityError);
      assert.ok(error.message.includes(`expected ${EMPTY} (content/agents/x.json)`), error.message);
      return true;
    },
  );
  // The flag overrides that too.
  assert.equal(judgeIntegrity({ ...BASE, pinned: undefined, recorded: EMPTY, acceptNew: true }).record, true);
});

test('a malformed pin is an error even with --accept-new-integrity', () => {
  for (const pinned of ['sha1-qZk+NkcGgWq6PiVxeFDCbJzQ2J0=', '', 'sha512-abc']) {
    assert.throws(() => judgeIntegrity({ ...BASE, pinned, acceptNew: true }), IntegrityError);
  }
});
