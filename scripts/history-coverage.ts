/**
 * node scripts/history-coverage.ts — which tools with a page each capture history follows.
 *
 *   node scripts/history-coverage.ts [--agent ID]...
 *
 * For every agent with a capture-history plan (src/lib/agents/<agent>.ts `captureHistory`):
 * the tools with a page (the site's model, as the build makes it), the configurations whose
 * committed capture (content/captures/<agent>/<configuration>.json, read through the wire
 * modules' extractTools) advertises each, and whether the plan follows one of them. A tool
 * is tracked, proposed (only configurations in the plan's `proposed` list advertise it: the
 * history has not been run with them yet), declared (the plan's `untracked` says why not),
 * not captured (no configuration advertises it: no capture history can follow it) or, for
 * the MCP family page, a family (its instances are our stub server's tools). Then the fewest
 * configurations that, added to the plan, would track every proposed or untracked tool.
 * Exits 1 when some tool with a page is untracked with no reason declared. Reads only
 * committed files.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { AGENT_IDS, AGENTS, capturedTools, mcpNamingOf, isAgentId, type AgentId } from '../src/lib/agents/index.ts';
import type { CaptureMatrixFile } from '../src/lib/core/content-types.ts';
import { loadContent } from '../src/lib/content/load.ts';
import { fewestConfigurations, historyCoverage, type ToolCoverage } from '../src/lib/history/history-coverage.ts';
import type { ToolModel } from '../src/lib/model/model.ts';
import { everyName, stubServerFamily } from '../src/lib/model/tool-names.ts';
import type { CaptureFile } from '../src/lib/wire/index.ts';

const ROOT = resolve(import.meta.dirname, '..');

/**
 * Configuration id → the full names its committed capture advertises, in matrix order (one name per page, as the site
 * groups them).
 */
export function advertisedByConfiguration(root: string, agent: AgentId): Map<string, string[]> {
  const matrix = JSON.parse(readFileSync(join(root, 'content/capture-matrix.json'), 'utf8')) as CaptureMatrixFile;
  const configurations = matrix.agents[agent]?.configurations ?? [];
  const unnamespaced = mcpNamingOf(agent)?.unnamespaced;
  return new Map(
    configurations.map((c) => {
      const capture = JSON.parse(
        readFileSync(join(root, 'content/captures', agent, `${c.id}.json`), 'utf8'),
      ) as CaptureFile;
      return [c.id, capturedTools(capture).map((t) => unnamespaced?.(t) ?? t.fullName)];
    }),
  );
}

export interface AgentCoverage {
  agent: AgentId;
  followed: readonly string[];
  tools: ToolCoverage[];
  /** The fewest configurations to add so that every proposed or untracked tool is tracked. */
  toAdd: string[];
}

export function agentCoverage(root: string, agent: AgentId, tools: readonly ToolModel[]): AgentCoverage | undefined {
  const plan = AGENTS[agent].captureHistory;
  if ('none' in plan) return undefined;
  const advertised = advertisedByConfiguration(root, agent);
  const pages = tools
    .filter((t) => t.agent === agent)
    .map((t) => ({ fullName: t.fullName, names: everyName(t), family: t.fullName === mcpNamingOf(agent)?.family }));
  const coverage = historyCoverage({
    pages,
    advertised,
    isFamilyInstance: (name) => stubServerFamily(agent, name) !== undefined,
    followed: plan.configurations,
    ...(plan.proposed ? { proposed: plan.proposed } : {}),
    ...(plan.untracked ? { declared: plan.untracked } : {}),
  });
  const open = coverage.filter((c) => c.status === 'untracked' || c.status === 'proposed');
  // Ties go to the configurations already proposed, then to matrix order; listed in matrix order.
  const matrixOrder = [...advertised.keys()];
  const preference = [...(plan.proposed ?? []), ...matrixOrder.filter((c) => !plan.proposed?.includes(c))];
  const toAdd = fewestConfigurations(open, preference).sort((a, b) => matrixOrder.indexOf(a) - matrixOrder.indexOf(b));
  return { agent, followed: plan.configurations, tools: coverage, toAdd };
}

function report(c: AgentCoverage): string[] {
  const lines = [`${c.agent}: ${c.tools.length} tool pages; the history follows ${c.followed.join(', ')}`];
  const of = (status: ToolCoverage['status']) => c.tools.filter((t) => t.status === status);
  lines.push(`  tracked: ${of('tracked').length}`);
  const list = (title: string, items: ToolCoverage[], detail: (t: ToolCoverage) => string) => {
    if (items.length === 0) return;
    lines.push(`  ${title}: ${items.length}`);
    for (const t of items) lines.push(`    ${t.tool}${detail(t)}`);
  };
  const by = (t: ToolCoverage) => ` — advertised by ${t.by.join(', ')}`;
  list('untracked, no reason declared', of('untracked'), by);
  list('proposed (the history has not been run with these configurations yet)', of('proposed'), by);
  const declared = of('declared');
  if (declared.length > 0) lines.push(`  declared: ${declared.length}`);
  for (const reason of new Set(declared.map((t) => (t.status === 'declared' ? t.reason : '')))) {
    for (const t of declared) if (t.status === 'declared' && t.reason === reason) lines.push(`    ${t.tool}${by(t)}`);
    lines.push(`      why: ${reason}`);
  }
  list('not captured by any configuration', of('not-captured'), () => '');
  list("family pages (their instances are the stub MCP server's tools)", of('family'), by);
  if (c.toAdd.length > 0) lines.push(`  fewest configurations to add: ${c.toAdd.join(', ')}`);
  return lines;
}

function main(): void {
  const argv = process.argv.slice(2);
  const agents: AgentId[] = [];
  for (let i = 0; i < argv.length; i++) {
    const value = argv[i + 1];
    if (argv[i] === '--agent' && value !== undefined && isAgentId(value)) {
      agents.push(value);
      i++;
    } else {
      console.error(`history-coverage: unknown argument ${argv[i]} (usage: [--agent ${AGENT_IDS.join('|')}]...)`);
      process.exit(1);
    }
  }
  const { tools } = loadContent({ root: ROOT });
  let untracked = 0;
  for (const agent of agents.length > 0 ? agents : AGENT_IDS) {
    const c = agentCoverage(ROOT, agent, tools);
    if (!c) {
      console.log(`${agent}: no capture history (${(AGENTS[agent].captureHistory as { none: string }).none})`);
      continue;
    }
    console.log(report(c).join('\n'));
    untracked += c.tools.filter((t) => t.status === 'untracked').length;
  }
  if (untracked > 0) {
    console.error(
      `history-coverage: ${untracked} tool page(s) advertised only by configurations no history follows, with no ` +
        `reason declared in the agent's captureHistory.untracked`,
    );
    process.exit(1);
  }
}

if (import.meta.main) main();
