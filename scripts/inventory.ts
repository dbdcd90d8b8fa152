/**
 * Writes content/inventory/<agent>.json: the tool inventory read from the
 * pinned CLI binaries (versions from content/capture-matrix.json, installed by
 * `npm run capture` under $CAPTURE_CACHE_DIR/capture-cli/).
 *
 *   node scripts/inventory.ts            both agents
 *   node scripts/inventory.ts --agent codex
 *
 * Claude Code: the built-in tool-name list and the alias tables, found as text
 * in the bundled JavaScript. Codex: the feature list (`codex features list`,
 * run with a fresh CODEX_HOME, no network) and the tool handler source files
 * the binary names. Each list records how it was found. Reruns at the same pins
 * are byte-identical; each file is replaced atomically.
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { AGENTS, type AgentId } from '../src/lib/agents/index.ts';
import type { InventoryFile } from '../src/lib/generated/content-files.ts';
import { jsonText, replaceFile } from './lib/atomic-write.ts';
import { installedBinary } from './lib/capture/install.ts';
import { parseClaudeInventory, parseFeatureList, sourcePaths } from './lib/inventory/parse.ts';

const ROOT = resolve(import.meta.dirname, '..');
const CACHE_ROOT = process.env['CAPTURE_CACHE_DIR'] || '/work/cache';
export const CODEX_HANDLERS = 'core/src/tools/handlers/';
export const FEATURES_COMMAND = 'codex features list';

interface Matrix {
  agents: Record<string, { package: string; version: string }>;
}

function codexFeatures(binary: string): string {
  const home = mkdtempSync(join(tmpdir(), 'inventory-codex-home-'));
  try {
    const isRoot = process.getuid?.() === 0;
    const [command, args] = isRoot ? ['unshare', ['-n', binary, 'features', 'list']] : [binary, ['features', 'list']];
    return execFileSync(command, args, {
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, CODEX_HOME: home },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 60_000,
    });
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

export function inventoryOf(agent: AgentId, pkg: string, version: string, binary: string): InventoryFile {
  const bytes = readFileSync(binary);
  const file: InventoryFile = {
    $schema: '../../schemas/inventory.schema.json',
    agent,
    package: pkg,
    version,
    binary: AGENTS[agent].binary,
    binarySize: bytes.length,
    binarySha256: createHash('sha256').update(bytes).digest('hex'),
  };
  if (agent === 'claude-code') {
    const { names, aliasTables } = parseClaudeInventory(bytes);
    file.names = names;
    file.aliasTables = aliasTables;
    file.notes = [
      'Read from the JavaScript bundled in the binary: the array literal bound right before the alias table is the built-in tool-name list; the table marked by KillShell:"TaskStop" maps accepted aliases to tools; a table spreading it adds more (its entries apply only when the bundle\'s own condition holds).',
      'Check: grep -a -b -o \'KillShell:"TaskStop"\' <binary>, or dd if=<binary> bs=1 skip=<offset> count=<length>.',
    ];
  } else {
    file.features = { command: FEATURES_COMMAND, items: parseFeatureList(codexFeatures(binary)) };
    file.handlerModules = { pattern: `${CODEX_HANDLERS}<path>.rs`, items: sourcePaths(bytes, CODEX_HANDLERS) };
    file.notes = [
      'The Codex binary is compiled Rust: its string literals are stored back to back without delimiters, so no list of tool names can be cut out of it the way Claude Code\'s can; the tool handler source files it names are listed instead, as evidence of what it registers.',
      'features: the output of `codex features list` with a fresh, empty CODEX_HOME and no network.',
    ];
  }
  return file;
}

function main(): void {
  const only = process.argv.includes('--agent') ? process.argv[process.argv.indexOf('--agent') + 1] : undefined;
  const matrix = JSON.parse(readFileSync(join(ROOT, 'content/capture-matrix.json'), 'utf8')) as Matrix;
  for (const agent of Object.keys(AGENTS) as AgentId[]) {
    if (only && agent !== only) continue;
    const pin = matrix.agents[agent];
    if (!pin) throw new Error(`content/capture-matrix.json has no entry for ${agent}`);
    const binary = installedBinary(agent, CACHE_ROOT, pin.package, pin.version);
    if (!binary) throw new Error(`${pin.package}@${pin.version} is not installed under ${CACHE_ROOT}/capture-cli (run npm run capture first)`);
    const data = inventoryOf(agent, pin.package, pin.version, binary);
    const out = join(ROOT, 'content/inventory', `${agent}.json`);
    replaceFile(out, jsonText(data));
    const counts = [data.names && `${data.names.items.length} names`, data.aliasTables && `${data.aliasTables.reduce((n, t) => n + t.entries.length, 0)} aliases`, data.features && `${data.features.items.length} features`, data.handlerModules && `${data.handlerModules.items.length} handler modules`].filter(Boolean);
    console.log(`wrote content/inventory/${agent}.json (${counts.join(', ')})`);
  }
}

if (import.meta.main) main();
