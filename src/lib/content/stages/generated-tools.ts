/** Stage: generated tool files (content/tools/<agent>/<slug>.json), each with its input and result rows. */
import type { Stage } from '../context.ts';
import type { AgentId, GeneratedTool } from '../../core/content-types.ts';
import { definitionView } from '../definition-view.ts';
import type { ToolModel } from '../../model/model.ts';
import { noToolFacts } from '../../model/tool-facts.ts';
import { toolSlug } from '../url-names.ts';
import { checkName } from '../names.ts';

export function loadGeneratedTools(stage: Stage, agentIds: ReadonlySet<AgentId>): ToolModel[] {
  const { reader, problems, files } = stage;
  const tools: ToolModel[] = [];
  for (const [agentDir, paths] of files.tools) {
    for (const path of paths) {
      const generated = reader.read<GeneratedTool>(path, 'tool');
      if (!generated) continue;
      const file = reader.relContent(path);
      const namesOk = [
        checkName(problems, { file, pointer: '/name' }, 'tool name', generated.name),
        generated.namespace === undefined ||
          checkName(problems, { file, pointer: '/namespace' }, 'namespace', generated.namespace),
        ...generated.aliases.map((alias, i) =>
          checkName(problems, { file, pointer: `/aliases/${i}/name` }, 'alias', alias.name),
        ),
      ].every(Boolean);
      if (!namesOk) continue;
      const fullName = generated.namespace ? `${generated.namespace}.${generated.name}` : generated.name;
      if (generated.agent !== agentDir)
        problems.error(file, '/agent', 'agent-matches-folder', `agent ${generated.agent} is filed under ${agentDir}/`);
      if (!agentIds.has(generated.agent))
        problems.error(file, '/agent', 'known-agent', `no content/agents/${generated.agent}.json describes this agent`);
      const slug = toolSlug(fullName);
      if (slug !== '' && `tools/${agentDir}/${slug}.json` !== path)
        problems.error(file, '/name', 'file-name-matches-slug', `tool ${fullName} belongs in ${slug}.json`);
      const tool: ToolModel = {
        agent: generated.agent,
        source: 'sdk',
        slug,
        fullName,
        generated,
        input: definitionView(
          generated.input,
          'input',
          { file, pointer: bodyPointer('/input', generated.input.kind) },
          problems,
          stage.definitionAjv,
        ),
        output: definitionView(
          generated.output,
          'output',
          { file, pointer: bodyPointer('/output', generated.output.kind) },
          problems,
          stage.definitionAjv,
        ),
        files: { generated: file },
        releases: {},
        facts: noToolFacts(),
      };
      stage.namePlace.set(tool, { file, pointer: '/name' });
      tools.push(tool);
    }
  }
  return tools;
}

/** A definition's body: the schema object of a JSON Schema, the source text of a TypeScript declaration. */
function bodyPointer(pointer: string, kind: GeneratedTool['input']['kind']): string {
  return kind === 'json-schema' ? `${pointer}/schema` : kind === 'typescript' ? `${pointer}/source` : pointer;
}
