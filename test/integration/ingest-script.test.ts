/**
 * The ingest script itself: at the pinned release it regenerates the committed
 * content byte for byte; when the download fails it says so and writes nothing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../helpers/browser.ts';

function snapshot(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (d: string, prefix: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(d, entry.name), `${prefix}${entry.name}/`);
      else files.set(prefix + entry.name, readFileSync(join(d, entry.name), 'utf8'));
    }
  };
  walk(dir, '');
  return files;
}

function runIngest(contentDir: string, env: NodeJS.ProcessEnv = {}) {
  return spawnSync(process.execPath, [join(ROOT, 'scripts/ingest-claude-sdk.ts')], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 300_000,
    env: { ...process.env, CONTENT_DIR: contentDir, ...env },
  });
}

function withContentCopy(run: (dir: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'ingest-'));
  try {
    cpSync(join(ROOT, 'content'), dir, { recursive: true });
    run(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('regenerating at the pinned release is byte-identical to the committed content', () => {
  withContentCopy((dir) => {
    const before = snapshot(dir);
    const result = runIngest(dir);
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /44 tools from @anthropic-ai\/claude-agent-sdk@0\.3\.332 \(Claude Code 2\.1\.332\)/);
    assert.deepEqual([...snapshot(dir).entries()], [...before.entries()]);
  });
});

test('a failed download is reported and leaves the content untouched', () => {
  withContentCopy((dir) => {
    const before = snapshot(dir);
    // Nothing listens on port 9 of the loopback address: the registry is unreachable.
    const result = runIngest(dir, { npm_config_registry: 'http://127.0.0.1:9/', npm_config_fetch_retries: '0', npm_config_fetch_timeout: '5000' });
    assert.equal(result.status, 1);
    assert.match(result.stderr, /could not download @anthropic-ai\/claude-agent-sdk@0\.3\.332/);
    assert.match(result.stderr, /nothing was written/);
    assert.deepEqual([...snapshot(dir).entries()], [...before.entries()]);
  });
});
