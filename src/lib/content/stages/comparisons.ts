/**
 * Stage: field comparisons of jobs (content/comparisons/<job>.json). Runs after
 * editorial (a compared tool must do the job) and after captures (a compared
 * field must be a row of the tool's page, whose anchor it names).
 */
import { type Stage, inItsPlace } from '../context.ts';
import type { ComparisonFile } from '../../core/content-types.ts';
import { fieldById } from '../../model/comparison.ts';
import type { ToolModel } from '../../model/model.ts';
import { toolSlug } from '../url-names.ts';
import { toolNamed } from '../../model/tool-names.ts';

export function loadComparisons(
  stage: Stage,
  tools: readonly ToolModel[],
  jobIds: ReadonlySet<string> | undefined,
): ComparisonFile[] {
  const { reader, problems, files } = stage;
  const out: ComparisonFile[] = [];
  for (const path of files.comparisons) {
    const file = reader.relContent(path);
    const data = reader.read<ComparisonFile>(path, 'comparison');
    if (!data) continue;
    if (!inItsPlace(stage, path, `comparisons/${data.job}.json`, '/job', `the comparison of job ${data.job} belongs`))
      continue;
    if (jobIds && !jobIds.has(data.job)) {
      problems.error(file, '/job', 'known-job', `unknown job id ${data.job} (content/jobs.json has no such job)`);
      continue;
    }
    checkConcepts(stage, file, data, tools);
    out.push(data);
  }
  return out;
}

/** Each concept has its own id, and compares fields of tools that do the job, each field once in the file. */
function checkConcepts(stage: Stage, file: string, data: ComparisonFile, tools: readonly ToolModel[]): void {
  const { problems } = stage;
  const conceptIds = new Map<string, number>();
  const compared = new Map<string, string>();
  data.concepts.forEach((concept, c) => {
    const first = conceptIds.get(concept.id);
    if (first !== undefined)
      problems.error(
        file,
        `/concepts/${c}/id`,
        'unique-concept-id',
        `concept id ${concept.id} is already used by /concepts/${first}`,
      );
    else conceptIds.set(concept.id, c);
    concept.fields.forEach((field, f) => {
      const at = `/concepts/${c}/fields/${f}`;
      if (!comparedFieldExists(stage, { file, at, job: data.job }, field, tools)) return;
      const key = `${field.agent} ${field.tool} ${field.field}`;
      const earlier = compared.get(key);
      if (earlier !== undefined)
        problems.error(file, at, 'field-compared-once', `${key} is already compared in ${earlier}`);
      else compared.set(key, `/concepts/${c} (${concept.label})`);
    });
  });
}

/**
 * Whether a compared field is a row of a tool that does the job (else reported, unless the tool's notes could not be
 * read: their jobs are unknown, not missing, and their own error says so).
 */
function comparedFieldExists(
  stage: Stage,
  { file, at, job }: { file: string; at: string; job: string },
  field: ComparisonFile['concepts'][number]['fields'][number],
  tools: readonly ToolModel[],
): boolean {
  const { problems, reader } = stage;
  const tool = toolNamed(tools, field.agent, field.tool);
  if (problems.isUnreadable(reader.relContent(`editorial/${field.agent}/${tool?.slug ?? toolSlug(field.tool)}.json`)))
    return false;
  if (!tool?.editorial?.jobs.includes(job)) {
    const why = tool ? `its editorial file does not list job ${job}` : 'there is no such tool';
    problems.error(
      file,
      `${at}/tool`,
      'comparison-tool-does-job',
      `${field.agent} ${field.tool} cannot be compared for ${job}: ${why}`,
    );
    return false;
  }
  if (!fieldById(tool, field.field)) {
    problems.error(
      file,
      `${at}/field`,
      'comparison-field-exists',
      `${field.agent} ${field.tool} has no field with the anchor ${field.field}`,
    );
    return false;
  }
  return true;
}
