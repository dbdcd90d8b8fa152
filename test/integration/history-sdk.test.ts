/**
 * The history script end to end on four committed fixture releases
 * (test/fixtures/history/releases/: 0.3.10, 0.3.11, 0.3.13 without
 * sdk-tools.d.ts, 0.3.14; 0.3.12 never published; a prerelease and releases
 * outside the range listed but absent), without the network:
 * - a full run gives test/fixtures/history/expected.json byte for byte;
 * - a run over the first two, extended by the rest, gives the same bytes;
 * - a run with nothing new leaves the file untouched.
 * And with the CLI package's own line before them (releases/cli/: 2.1.7;
 * 2.1.8 without sdk-tools.d.ts; 2.1.9, whose declarations are 0.3.10's; 2.1.10
 * and later listed but covered by the agent SDK, whose 0.3.10 states 2.1.10):
 * - the CLI releases come first, each naming its package, and the agent SDK's
 *   part is expected.json's, events unchanged;
 * - extending such a history follows the agent SDK.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../helpers/browser.ts';

const FIXTURES = join(ROOT, 'test/fixtures/history');
const EXPECTED = readFileSync(join(FIXTURES, 'expected.json'), 'utf8');

function withScratch(run: (dir: string, history: (...args: string[]) => string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'history-sdk-'));
  try {
    const pins = join(dir, 'pins.json');
    writeFileSync(
      pins,
      JSON.stringify({
        'claude-code': {
          package: 'fixture-agent-sdk',
          version: '0.3.14',
          typesFile: 'sdk-tools.d.ts',
          checked: '2026-01-07',
        },
      }),
    );
    const history = (...args: string[]): string =>
      execFileSync(
        process.execPath,
        [
          join(ROOT, 'scripts/history-claude-sdk.ts'),
          '--registry-dir',
          join(FIXTURES, 'releases'),
          '--names',
          join(FIXTURES, 'names.json'),
          '--out',
          join(dir, 'history.json'),
          ...args,
        ],
        {
          encoding: 'utf8',
          // No registry is reachable: a run that tried npm would fail.
          env: {
            ...process.env,
            PINS_FILE: pins,
            HISTORY_CACHE_DIR: join(dir, 'cache'),
            npm_config_registry: 'http://127.0.0.1:9/',
            npm_config_offline: 'true',
          },
          stdio: ['ignore', 'pipe', 'pipe'],
          timeout: 120_000,
        },
      );
    run(dir, history);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('a full run over the fixture releases gives the committed history byte for byte', () => {
  withScratch((dir, history) => {
    const out = history('--full', '--from', '0.3.10');
    assert.equal(readFileSync(join(dir, 'history.json'), 'utf8'), EXPECTED);
    assert.match(out, /never published: 0\.3\.12\n/);
    assert.match(out, /skipped 0\.3\.13 \(read: false\): sdk-tools\.d\.ts is not in the package/);
    assert.match(
      out,
      /names derived from type prefixes missing in .*names\.json: TaskOutput \(TaskOutputInput, in 0\.3\.10\)/,
    );
    assert.match(out, /differs from the SDK patch number in 0\.3\.14→2\.1\.15/);
    assert.match(
      out,
      /18 new events: tool-added 1, tool-removed 1, field-added 11, field-removed 1, now-required 1, value-added 2, description-changed 1/,
    );
  });
});

test('extending a history of the first releases by the newer ones gives the same bytes; nothing new writes nothing', () => {
  withScratch((dir, history) => {
    const file = join(dir, 'history.json');
    history('--full', '--from', '0.3.10', '--to', '0.3.11');
    const partial = JSON.parse(readFileSync(file, 'utf8')) as { releases: { version: string }[]; events: unknown[] };
    assert.deepEqual(
      partial.releases.map((r) => r.version),
      ['0.3.10', '0.3.11'],
    );

    // The default with a history present: extend it (0.3.13 unreadable, 0.3.14 compared with 0.3.11).
    const out = history();
    assert.match(
      out,
      /this run read 2 releases \(0\.3\.13 … 0\.3\.14\) and made 1 comparison, starting from the committed 0\.3\.11/,
    );
    assert.equal(readFileSync(file, 'utf8'), EXPECTED);

    const before = statSync(file);
    const again = history('--since-committed');
    assert.match(again, /nothing new/);
    assert.equal(readFileSync(file, 'utf8'), EXPECTED);
    const after = statSync(file);
    assert.equal(after.mtimeMs, before.mtimeMs, 'the file was not rewritten');
    assert.equal(after.ino, before.ino);
  });
});

/** expected.json with the CLI line in front: written from reading the fixture files, not from the script. */
function expectedWithCliLine(): string {
  const doc = JSON.parse(EXPECTED) as { releases: unknown[]; unpublished: string[]; events: unknown[] };
  const cli = '@anthropic-ai/claude-code';
  doc.releases.unshift(
    { version: '2.1.7', package: cli, cliVersion: '2.1.7', published: '2025-12-22T10:00:00.000Z' },
    { version: '2.1.8', package: cli, cliVersion: '2.1.8', published: '2025-12-24T10:00:00.000Z', read: false },
    { version: '2.1.9', package: cli, cliVersion: '2.1.9', published: '2025-12-28T10:00:00.000Z' },
  );
  // 2.1.7 → 2.1.9 (2.1.8 unreadable): Bash gains run_in_background; 2.1.9 → 0.3.10: the same declarations, no event.
  doc.events.unshift({
    release: '2.1.9',
    previous: '2.1.7',
    tool: 'Bash',
    kind: 'field-added',
    side: 'input',
    field: '.run_in_background',
    path: 'run_in_background',
    to: 'boolean',
  });
  return JSON.stringify(doc);
}

test('a full run over both lines: the CLI releases first, each naming its package; the agent SDK part unchanged', () => {
  withScratch((dir, history) => {
    const out = history('--full', '--from-cli', '2.1.7');
    const written = readFileSync(join(dir, 'history.json'), 'utf8');
    assert.equal(JSON.stringify(JSON.parse(written)), expectedWithCliLine(), 'same values and key order');
    assert.match(
      out,
      /read from @anthropic-ai\/claude-code: 3 releases \(2\.1\.7 … 2\.1\.9\); from fixture-agent-sdk 0\.3\.10 \(Claude Code 2\.1\.10\) on/,
    );
    assert.match(
      out,
      /skipped @anthropic-ai\/claude-code 2\.1\.8 \(read: false\): sdk-tools\.d\.ts is not in the package/,
    );
    assert.match(out, /never published: 0\.3\.12\n/);

    // Extending a two-line history by the agent SDK's newer releases gives the same file.
    history('--full', '--from-cli', '2.1.7', '--to', '0.3.11');
    history();
    assert.equal(readFileSync(join(dir, 'history.json'), 'utf8'), written);

    // A first CLI release the agent SDK already covers is refused.
    assert.throws(
      () => history('--full', '--from-cli', '2.1.10'),
      (error: { stderr?: string }) => /2\.1\.10 is not older than Claude Code 2\.1\.10/.test(String(error.stderr)),
    );
  });
});

test('a history that does not exist cannot be extended; a pin that was never published is refused; nothing is written', () => {
  withScratch((dir, history) => {
    assert.throws(
      () => history('--since-committed'),
      (error: { stderr?: string }) => /no history at .* to extend: run with --full/.test(String(error.stderr)),
    );
    assert.throws(
      () => history('--full', '--from', '0.3.10', '--to', '0.3.12'),
      (error: { stderr?: string }) => /0\.3\.12 is not a published release/.test(String(error.stderr)),
    );
    assert.throws(() => statSync(join(dir, 'history.json')));
  });
});
