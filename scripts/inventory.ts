/**
 * Writes content/inventory/<agent>.json: the tool inventory read from the
 * pinned CLI binaries (versions from content/capture-matrix.json, installed by
 * `npm run capture` under $CAPTURE_CACHE_DIR/capture-cli/).
 *
 *   node scripts/inventory.ts            every agent whose registry module declares a method
 *   node scripts/inventory.ts --agent ID
 *
 * Each agent module names its method (src/lib/agents/types.ts InventoryMethod):
 * `bundled-alias-tables` (Claude Code) finds the built-in tool-name list and the
 * alias tables as text in the bundled JavaScript; `feature-list-and-handlers`
 * (Codex) runs the feature-list command with a fresh home and no network and lists
 * the tool handler source files the binary names. An agent without a method is
 * skipped with its reason. Each list records how it was found. Reruns at the same
 * pins are byte-identical; each file is replaced atomically.
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { AGENT_IDS, AGENTS, isAgentId, type AgentId } from '../src/lib/agents/index.ts';
import type { InventoryMethod } from '../src/lib/agents/types.ts';
import type { InventoryFile } from '../src/lib/generated/content-files.ts';
import { jsonText, replaceFile } from './lib/system/atomic-write.ts';
import { installedBinary, installedPackage } from './lib/capture/install.ts';
import { modelCatalog, parseClaudeInventory, parseFeatureList, sourcePaths } from './lib/inventory/parse.ts';
import type { CaptureMatrixFile } from '../src/lib/core/content-types.ts';

const ROOT = resolve(import.meta.dirname, '..');
const CACHE_ROOT = process.env['CAPTURE_CACHE_DIR'] || '/work/cache';

type FeatureListMethod = Extract<InventoryMethod, { method: 'feature-list-and-handlers' }>;

/** The command line the feature list is read with, as the inventory file records it. */
export function featuresCommand(binary: string, method: FeatureListMethod): string {
  return [binary.slice(binary.lastIndexOf('/') + 1), ...method.featuresArgs].join(' ');
}

function featureList(binary: string, method: FeatureListMethod): string {
  const home = mkdtempSync(join(tmpdir(), 'inventory-home-'));
  try {
    const isRoot = process.getuid?.() === 0;
    const [command, args] = isRoot
      ? ['unshare', ['-n', binary, ...method.featuresArgs]]
      : [binary, [...method.featuresArgs]];
    return execFileSync(command, args, {
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, [method.homeVariable]: home },
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
  const method = AGENTS[agent].inventory;
  if ('none' in method) throw new Error(`${agent} has no inventory method: ${method.none}`);
  if (method.method === 'bundled-alias-tables') {
    const { names, aliasTables } = parseClaudeInventory(bytes);
    file.names = names;
    file.aliasTables = aliasTables;
  } else {
    const command = featuresCommand(AGENTS[agent].binary, method);
    file.features = { command, items: parseFeatureList(featureList(binary, method)) };
    file.handlerModules = {
      pattern: `${method.handlersPrefix}<path>.rs`,
      items: sourcePaths(bytes, method.handlersPrefix),
    };
    if (method.modelCatalogMarker !== undefined) file.modelCatalog = modelCatalog(bytes, method.modelCatalogMarker);
  }
  file.notes = [...method.notes];
  return file;
}

function main(): void {
  const only = process.argv.includes('--agent') ? process.argv[process.argv.indexOf('--agent') + 1] : undefined;
  if (only !== undefined && !isAgentId(only)) throw new Error(`unknown agent ${only} (${AGENT_IDS.join(', ')})`);
  const matrix = JSON.parse(readFileSync(join(ROOT, 'content/capture-matrix.json'), 'utf8')) as CaptureMatrixFile;
  for (const agent of AGENT_IDS) {
    if (only && agent !== only) continue;
    const method = AGENTS[agent].inventory;
    if ('none' in method) {
      console.log(`${agent}: skipped: ${method.none}`);
      continue;
    }
    const pin = matrix.agents[agent];
    if (!pin) throw new Error(`content/capture-matrix.json has no entry for ${agent}`);
    const binary = installedBinary(agent, CACHE_ROOT, pin.package, pin.version);
    if (!binary)
      throw new Error(
        `${pin.package}@${pin.version} is not installed under ${CACHE_ROOT}/capture-cli (run npm run capture first)`,
      );
    // The package the binary came from: the agent's own, or its platform package where that one lacks the release.
    const data = inventoryOf(
      agent,
      installedPackage(agent, CACHE_ROOT, pin.package, pin.version) ?? pin.package,
      pin.version,
      binary,
    );
    const out = join(ROOT, 'content/inventory', `${agent}.json`);
    replaceFile(out, jsonText(data));
    const counts = [
      data.names && `${data.names.items.length} names`,
      data.aliasTables && `${data.aliasTables.reduce((n, t) => n + t.entries.length, 0)} aliases`,
      data.features && `${data.features.items.length} features`,
      data.handlerModules && `${data.handlerModules.items.length} handler modules`,
      data.modelCatalog && `${data.modelCatalog.models.length} catalog models`,
    ].filter(Boolean);
    console.log(`wrote content/inventory/${agent}.json (${counts.join(', ')})`);
  }
}

if (import.meta.main) main();
