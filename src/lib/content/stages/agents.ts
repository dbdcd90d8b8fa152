/**
 * Stage: agent records (content/agents/) and the capture matrix. Captures are a
 * source of every agent they cover; an agent known only from captures gets its
 * record from the matrix.
 */
import type { Stage } from '../context.ts';
import type { CaptureMatrix, MatrixAgent } from '../../model/captures.ts';
import type { AgentId, AgentRecord } from '../../core/content-types.ts';
import type { ToolModel } from '../../model/model.ts';
import { AGENT_PRODUCTS } from '../../agents/index.ts';
import { urlNameProblem } from '../url-names.ts';

export interface AgentsResult {
  agents: AgentRecord[];
  matrix?: CaptureMatrix;
  ids: Set<AgentId>;
}

export function loadAgents(stage: Stage): AgentsResult {
  const { reader, problems, files } = stage;
  const agents: AgentRecord[] = [];
  for (const path of files.agents) {
    const agent = reader.read<AgentRecord>(path, 'agent');
    if (!agent) continue;
    const file = reader.relContent(path);
    if (`agents/${agent.id}.json` !== path)
      problems.error(file, '/id', 'file-name-matches-id', `id ${agent.id} does not match the file name`);
    const problem = urlNameProblem(agent.id, stage.reserved.top);
    if (problem) problems.error(file, '/id', 'url-name-valid', `agent id ${agent.id} ${problem}`);
    // "Not published" only with evidence: some package's registry listing has the release, or none does.
    const bundled = agent.bundledCli;
    if (bundled && bundled.published !== bundled.listings.some((l) => l.lists)) {
      problems.error(
        file,
        '/bundledCli/published',
        'bundled-cli-evidence',
        `published is ${bundled.published}, but ${
          bundled.listings
            .filter((l) => l.lists)
            .map((l) => l.package)
            .join(', ') || 'no package'
        } of /bundledCli/listings lists ${agent.version}`,
      );
    }
    agents.push(agent);
  }
  const matrix = files.matrix ? reader.read<CaptureMatrix>(files.matrix, 'matrix') : undefined;
  if (matrix) checkMatrix(stage, matrix);
  for (const [id, m] of Object.entries(matrix?.agents ?? {}) as [AgentId, MatrixAgent][]) {
    const source = {
      package: m.package,
      version: m.version,
      files: [`content/captures/${id}/ (${m.configurations.length} configurations)`],
      role: CAPTURES_ROLE,
    };
    const record = agents.find((a) => a.id === id);
    if (record) record.sources.push(source);
    else agents.push({ id, product: AGENT_PRODUCTS[id], version: m.version, checked: m.checked, sources: [source] });
  }
  return matrix
    ? { agents, matrix, ids: new Set(agents.map((a) => a.id)) }
    : { agents, ids: new Set(agents.map((a) => a.id)) };
}

const CAPTURES_ROLE =
  'Runtime captures: the tools the real CLI sends its model in each configuration of the capture matrix';

/**
 * The captures' source names the package the release was installed from, as the captures record
 * it (`/cli/package`): the matrix's package, or a standalone platform package of the agent where
 * that one lacks the release. Every configuration installs the same release, so the first says it.
 */
export function capturesSourcePackage(agents: AgentRecord[], requests: ReadonlyMap<string, { package: string }>): void {
  for (const agent of agents) {
    const recorded = [...requests].find(([key]) => key.startsWith(`${agent.id}/`))?.[1].package;
    const source = agent.sources.find((s) => s.role === CAPTURES_ROLE);
    if (source && recorded !== undefined) source.package = recorded;
  }
}

/**
 * A package of published types that generated tool files of an agent come from
 * and that its record does not list yet (Gemini CLI has no record: its types
 * come from @google/gemini-cli-core) becomes a source of the agent.
 */
export function addTypeSources(agents: AgentRecord[], tools: readonly ToolModel[]): void {
  for (const agent of agents) {
    const typed = tools.filter((t) => t.agent === agent.id && t.source === 'sdk');
    const packages = new Map<string, { version: string; files: Set<string> }>();
    for (const p of typed.flatMap((t) => t.generated.provenance)) {
      const entry = packages.get(p.package) ?? { version: p.version, files: new Set<string>() };
      entry.files.add(p.file);
      packages.set(p.package, entry);
    }
    for (const [pkg, { version, files }] of packages) {
      if (agent.sources.some((s) => s.package === pkg)) continue;
      agent.sources.push({
        package: pkg,
        version,
        files: [...files].sort(),
        role:
          'Published types: the input type of each tool it declares, compared with the schema the CLI ' +
          'sends its model',
      });
    }
  }
}

/** Configuration ids name capture files and element ids (`config-<id>`) on the agent page: each once per agent. */
function checkMatrix(stage: Stage, matrix: CaptureMatrix): void {
  const file = stage.reader.relContent('capture-matrix.json');
  for (const [agent, m] of Object.entries(matrix.agents) as [AgentId, MatrixAgent][]) {
    const seen = new Map<string, number>();
    m.configurations.forEach((c, i) => {
      const first = seen.get(c.id);
      if (first !== undefined) {
        stage.problems.error(
          file,
          `/agents/${agent}/configurations/${i}/id`,
          'unique-configuration-id',
          `configuration id ${c.id} is already used by /agents/${agent}/configurations/${first}`,
        );
      } else seen.set(c.id, i);
      if (Buffer.byteLength(`${c.id}.json`) > 255)
        stage.problems.error(
          file,
          `/agents/${agent}/configurations/${i}/id`,
          'url-name-valid',
          `configuration id ${c.id} is too long for a file name`,
        );
    });
  }
}
