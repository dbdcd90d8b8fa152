/**
 * Regenerates content/tools/claude-code/ and content/agents/claude-code.json
 * from the pinned @anthropic-ai/claude-agent-sdk release (scripts/pins.json).
 *
 *   npm run ingest:claude-sdk
 *
 * Downloads the package tarball with `npm pack` (the registry npm is set up for),
 * parses sdk-tools.d.ts with the TypeScript compiler API, and writes one JSON
 * file per tool. Nothing is written unless every step succeeds.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { extractSdkTools, IngestError, type NameTable } from '../src/lib/ingest/claude-sdk.ts';
import { toolSlug } from '../src/lib/anchors.ts';
import type { AgentRecord } from '../src/lib/content-types.ts';
import { jsonText, replaceDirectory, replaceFile } from './lib/atomic-write.ts';
import { DownloadError, fetchPackage } from './lib/npm-package.ts';

const ROOT = resolve(import.meta.dirname, '..');
const CONTENT = process.env.CONTENT_DIR ? resolve(process.env.CONTENT_DIR) : join(ROOT, 'content');

interface Pin {
  sdkPackage: string;
  sdkVersion: string;
  typesFile: string;
  checked: string;
}

function fail(message: string): never {
  console.error(`ingest-claude-sdk: ${message}`);
  console.error('ingest-claude-sdk: nothing was written.');
  process.exit(1);
}

function main(): void {
  const pins = JSON.parse(readFileSync(join(ROOT, 'scripts/pins.json'), 'utf8')) as Record<string, Pin>;
  const pin = pins['claude-code'];
  if (!pin) fail('scripts/pins.json has no "claude-code" entry');
  const names = JSON.parse(readFileSync(join(ROOT, 'scripts/claude-sdk-names.json'), 'utf8')) as NameTable;

  const work = mkdtempSync(join(tmpdir(), 'claude-sdk-'));
  try {
    const { dir, integrity } = fetchPackage(pin.sdkPackage, pin.sdkVersion, work);
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string; claudeCodeVersion?: string };
    if (pkg.version !== pin.sdkVersion) fail(`downloaded version ${pkg.version}, pinned ${pin.sdkVersion}`);
    if (!pkg.claudeCodeVersion) fail('package.json has no claudeCodeVersion: cannot tell which Claude Code it bundles');
    let manifest: { version?: string; commit?: string; buildDate?: string } = {};
    try {
      manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
    } catch {
      fail('manifest.json is missing or unreadable: cannot record the bundled Claude Code commit');
    }
    if (manifest.version !== pkg.claudeCodeVersion) {
      fail(`manifest.json says Claude Code ${manifest.version}, package.json says ${pkg.claudeCodeVersion}`);
    }
    let dts: string;
    try {
      dts = readFileSync(join(dir, pin.typesFile), 'utf8');
    } catch {
      fail(`${pin.typesFile} is not in ${pin.sdkPackage}@${pin.sdkVersion}`);
    }
    const tools = extractSdkTools(dts, names, {
      package: pin.sdkPackage,
      version: pin.sdkVersion,
      file: pin.typesFile,
      checked: pin.checked,
    });
    const files = new Map<string, string>();
    for (const tool of [...tools].sort((a, b) => a.name.localeCompare(b.name))) {
      files.set(`${toolSlug(tool.name)}.json`, jsonText(tool));
    }
    const agent: AgentRecord = {
      id: 'claude-code',
      product: 'Claude Code',
      version: pkg.claudeCodeVersion,
      ...(manifest.commit ? { sourceRevision: manifest.commit } : {}),
      ...(manifest.buildDate ? { buildDate: manifest.buildDate } : {}),
      checked: pin.checked,
      sources: [
        {
          package: pin.sdkPackage,
          version: pin.sdkVersion,
          integrity,
          files: [pin.typesFile, 'package.json', 'manifest.json'],
          role: 'Published SDK types: every tool input and result type, and the bundled Claude Code version and commit',
        },
      ],
    };
    replaceDirectory(join(CONTENT, 'tools/claude-code'), files);
    replaceFile(join(CONTENT, 'agents/claude-code.json'), jsonText(agent));
    console.log(`ingest-claude-sdk: ${tools.length} tools from ${pin.sdkPackage}@${pin.sdkVersion} (Claude Code ${pkg.claudeCodeVersion})`);
  } catch (error) {
    if (error instanceof IngestError || error instanceof DownloadError) fail(error.message);
    throw error;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main();
