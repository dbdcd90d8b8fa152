/**
 * Keeps published versioned export files resolving when their source moves:
 * before a refresh step, the texts of every versioned export file are read
 * from the current content; after it, each one whose path the content no
 * longer produces is added to content/archive/<agent>.json, which the build
 * serves (src/lib/content/stages/archive.ts).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isAgentId, type AgentId } from '../../src/lib/agents/index.ts';
import type { ArchiveFile } from '../../src/lib/core/content-types.ts';
import { loadContent } from '../../src/lib/content/load.ts';
import { exportFileNames, versionedExportPath } from '../../src/lib/site/export-files.ts';
import { toolExportFiles } from '../../src/lib/site/tool-exports.ts';
import { SITE_URL } from '../../src/lib/site/site-settings.ts';
import { jsonText, replaceFile } from './system/atomic-write.ts';

/** Versioned path → text, of every export file the content at `root` publishes, with their agent. */
export type PublishedExports = Map<string, { agent: AgentId; text: string }>;

/**
 * Reads the content (`contentDir`, default `<root>/content`; it must load without problems) and renders every versioned
 * export file.
 */
export async function publishedExports(root: string, contentDir?: string): Promise<PublishedExports> {
  const model = loadContent({ root, ...(contentDir ? { contentDir } : {}), sharedDiffs: true });
  const out: PublishedExports = new Map();
  for (const tool of model.tools) {
    const texts = await toolExportFiles(tool, { site: SITE_URL });
    for (const file of exportFileNames(tool))
      out.set(versionedExportPath(tool, file), { agent: tool.agent, text: texts.get(file)! });
  }
  // Files archived before stay published too: they are not produced again, so never "vanish".
  for (const archived of model.archived) out.delete(archived.path);
  return out;
}

/**
 * The archive of `agent` with the files of `before` that `after` no longer
 * publishes added, in path order (undefined: nothing to add). Pure.
 */
export function withVanished(
  agent: AgentId,
  existing: ArchiveFile | undefined,
  before: PublishedExports,
  after: ReadonlySet<string>,
  today: string,
  origin: string = SITE_URL,
): ArchiveFile | undefined {
  const added = [...before]
    .filter(
      ([path, entry]) => entry.agent === agent && !after.has(path) && !existing?.files.some((f) => f.path === path),
    )
    .map(([path, entry]) => ({ path, archived: today, text: entry.text }));
  if (added.length === 0) return undefined;
  if (existing && existing.origin !== origin)
    throw new Error(
      `content/archive/${agent}.json was written for ${existing.origin}, not ${origin}: archive with one site address`,
    );
  const files = [...(existing?.files ?? []), ...added].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { agent, origin, files };
}

/**
 * What the committed content (git HEAD) publishes: the site as deployed. Read from HEAD,
 * not from the working tree, so that a refresh that failed half-way and runs again still
 * knows the paths published before it.
 */
export async function committedExports(root: string): Promise<PublishedExports> {
  const dir = mkdtempSync(join(tmpdir(), 'committed-content-'));
  try {
    const tar = spawnSync('sh', ['-c', `git -C "$0" archive HEAD content | tar -x -C "$1"`, root, dir], {
      encoding: 'utf8',
      timeout: 120_000,
    });
    if (tar.status !== 0)
      throw new Error(`could not read the committed content: ${tar.stderr.trim() || tar.error?.message}`);
    return await publishedExports(root, join(dir, 'content'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Whether the working tree's content/ differs from the committed one. */
export function contentChanged(root: string): boolean {
  const diff = spawnSync('git', ['-C', root, 'status', '--porcelain', '--', 'content'], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (diff.status !== 0) throw new Error(`git status failed: ${diff.stderr.trim()}`);
  return diff.stdout.trim() !== '';
}

/**
 * Adds every file of `before` that the content at `root` no longer publishes to its agent's archive; returns the paths
 * added.
 */
export async function archiveVanished(root: string, before: PublishedExports, today: string): Promise<string[]> {
  const after = new Set((await publishedExports(root)).keys());
  const added: string[] = [];
  const agents = new Set([...before.values()].map((e) => e.agent));
  for (const agent of agents) {
    if (!isAgentId(agent)) continue;
    const path = join(root, 'content/archive', `${agent}.json`);
    const existing = existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as ArchiveFile) : undefined;
    const next = withVanished(agent, existing, before, after, today);
    if (!next) continue;
    replaceFile(path, jsonText(next));
    added.push(...next.files.filter((f) => !existing?.files.some((e) => e.path === f.path)).map((f) => f.path));
  }
  return added;
}
