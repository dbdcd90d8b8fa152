/**
 * Which release each fact of an agent comes from. Sources move on their own:
 * published types can name a CLI release that is newer than the one captured
 * (or one never published), and recorded payloads keep the release they were
 * recorded with. Every label, export path and `$id` names the release of its
 * own source, from here. Pure: model in, releases out.
 */
import { AGENTS } from '../agents/index.ts';
import type { AgentId, AgentRecord } from '../core/content-types.ts';
import type { AgentReleases, Release, SiteModel, ToolModel, ToolReleases } from './model.ts';
import { compareVersions } from '../core/version-order.ts';

export type { AgentReleases, Release, ToolReleases } from './model.ts';

type ReleaseInputs = Pick<SiteModel, 'agents' | 'tools' | 'matrix' | 'inventory'>;

function cliRelease(product: string, pkg: string, version: string): Release {
  return { kind: 'cli', product, package: pkg, packageVersion: version, cliVersion: version };
}

/** The releases every source of `agent` comes from. */
export function agentReleases(site: ReleaseInputs, agent: AgentId): AgentReleases {
  const { product, npmPackage, publishedTypes } = AGENTS[agent];
  const record: AgentRecord | undefined = site.agents.find((a) => a.id === agent);
  const tools = site.tools.filter((t) => t.agent === agent);
  // Keys in reading order: types, captures, examples, inventory.
  const out: Partial<AgentReleases> = {};
  const typed = tools.find((t) => t.source === 'sdk')?.generated.provenance[0];
  if (typed) {
    const types: Release = { kind: 'types', product, package: typed.package, packageVersion: typed.version };
    // A types package released with its CLI carries the CLI's release number; one that bundles
    // a CLI says which in its agent record (content/agents/).
    const withCli = !('none' in publishedTypes) && publishedTypes.withCli === true;
    if (withCli) types.cliVersion = typed.version;
    else if (
      record?.bundledCli &&
      record.sources.some((s) => s.package === typed.package && s.version === typed.version)
    ) {
      types.cliVersion = record.version;
      if (!record.bundledCli.published) types.cliUnpublished = true;
    }
    out.types = types;
  }
  const matrix = site.matrix?.agents[agent];
  if (matrix) out.captures = cliRelease(product, matrix.package, matrix.version);
  const recorded = new Map<string, Release>();
  for (const example of tools.flatMap((t) => t.examples ?? []))
    recorded.set(
      `${example.cli.package}@${example.cli.version}`,
      cliRelease(product, example.cli.package, example.cli.version),
    );
  out.examples = [...recorded.values()].sort((a, b) => compareVersions(b.packageVersion, a.packageVersion));
  const inventory = site.inventory.find((i) => i.agent === agent);
  if (inventory) out.inventory = cliRelease(product, npmPackage, inventory.version);
  return out as AgentReleases;
}

/** The releases one tool page shows: its input and result from its source, the model-facing input from the captures. */
export function toolReleases(tool: ToolModel, releases: AgentReleases): ToolReleases {
  const own = tool.source === 'sdk' ? releases.types : tool.source === 'capture' ? releases.captures : undefined;
  const out: ToolReleases = {};
  if (own) {
    out.input = own;
    out.result = own;
  }
  if (tool.modelInput && releases.captures) out.modelInput = releases.captures;
  return out;
}

/** The release a reader knows: `Claude Code 2.1.332`, or the package's when no CLI release is known. */
export function releaseLabel(release: Release): string {
  return release.cliVersion !== undefined
    ? `${release.product} ${release.cliVersion}`
    : `${release.package} ${release.packageVersion}`;
}

/** The path segment of a release in `/<agent>/<tool>/<version>/<file>`: the CLI release when known. */
export function releaseSegment(release: Release): string {
  return release.cliVersion ?? release.packageVersion;
}

/**
 * `Claude Code 2.1.333 (read from @anthropic-ai/claude-agent-sdk 0.3.333; not published as a CLI)`: the label and where
 * it was read.
 */
export function releaseDescription(release: Release): string {
  const notes: string[] = [];
  if (release.kind === 'types' && release.cliVersion !== undefined)
    notes.push(`read from ${release.package} ${release.packageVersion}`);
  if (release.cliUnpublished) notes.push('not published as a CLI');
  return notes.length > 0 ? `${releaseLabel(release)} (${notes.join('; ')})` : releaseLabel(release);
}

const sameRelease = (a: Release, b: Release): boolean =>
  a.package === b.package && a.packageVersion === b.packageVersion;
const sameCli = (a: Release, b: Release): boolean =>
  a.cliVersion !== undefined && a.cliVersion === b.cliVersion && !a.cliUnpublished && !b.cliUnpublished;

/**
 * When the sources of one agent are not all at one CLI release, one sentence
 * that says which is which, e.g. "Types from Claude Code 2.1.333 (read from
 * @anthropic-ai/claude-agent-sdk 0.3.333; not published as a CLI); captures and
 * examples from Claude Code 2.1.332." Undefined when they agree.
 */
export function releaseMismatch(releases: AgentReleases): string | undefined {
  const parts: { words: string; release: Release }[] = [];
  if (releases.types) parts.push({ words: 'types', release: releases.types });
  if (releases.captures) parts.push({ words: 'captures', release: releases.captures });
  for (const release of releases.examples) parts.push({ words: 'examples', release });
  if (releases.inventory) parts.push({ words: 'the binary’s tool names', release: releases.inventory });
  if (parts.length < 2 || parts.every((p) => sameCli(p.release, parts[0]!.release))) return undefined;
  // Sources at the same release share one clause, in the order above.
  const clauses: { words: string[]; release: Release; mixed: boolean }[] = [];
  for (const part of parts) {
    const clause = clauses.find((c) => sameRelease(c.release, part.release) || sameCli(c.release, part.release));
    if (!clause) clauses.push({ words: [part.words], release: part.release, mixed: false });
    else if (!clause.words.includes(part.words)) {
      clause.words.push(part.words);
      clause.mixed ||= !sameRelease(clause.release, part.release);
    }
  }
  // Where one clause joins packages (types and the CLI at one release), it names the release only.
  const text = clauses
    .map((c) => `${joinWords(c.words)} from ${c.mixed ? releaseLabel(c.release) : releaseDescription(c.release)}`)
    .join('; ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

/**
 * The agent's release numbers: `2.1.332`, or when the sources differ, `2.1.333 (types), 2.1.332 (captures, examples)`;
 * empty without any.
 */
export function releaseVersions(releases: AgentReleases): string {
  const groups = new Map<string, string[]>();
  const add = (words: string, release: Release | undefined) => {
    if (!release) return;
    const key = releaseSegment(release);
    const list = groups.get(key) ?? groups.set(key, []).get(key)!;
    if (!list.includes(words)) list.push(words);
  };
  add('types', releases.types);
  add('captures', releases.captures);
  for (const release of releases.examples) add('examples', release);
  add('tool names', releases.inventory);
  if (groups.size <= 1) return [...groups.keys()].join('');
  return [...groups].map(([version, words]) => `${version} (${words.join(', ')})`).join(', ');
}

/**
 * The agent with its release, for headings and lists: `Claude Code 2.1.332`, or with each source's release when they
 * differ.
 */
export function agentReleaseLabel(product: string, releases: AgentReleases): string {
  const versions = releaseVersions(releases);
  return versions === '' ? product : `${product} ${versions}`;
}

/**
 * One line per source for an agent's facts: what it is and which release, e.g. ["Published types", "Claude Code 2.1.333
 * (read from …)"].
 */
export function releaseFacts(releases: AgentReleases): { source: string; release: string }[] {
  const out: { source: string; release: string }[] = [];
  if (releases.types) out.push({ source: 'Published types', release: releaseDescription(releases.types) });
  if (releases.captures) out.push({ source: 'Captures', release: releaseDescription(releases.captures) });
  if (releases.examples.length > 0)
    out.push({ source: 'Recorded examples', release: releases.examples.map(releaseDescription).join(', ') });
  if (releases.inventory)
    out.push({ source: 'Tool names in the binary', release: releaseDescription(releases.inventory) });
  return out;
}

function joinWords(words: string[]): string {
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}
