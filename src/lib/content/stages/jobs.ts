/** Stage: the job index (content/jobs.json). */
import type { Stage } from '../context.ts';
import type { Job, JobsFile } from '../../core/content-types.ts';
import { elementIdProblem } from '../url-names.ts';
import { checkName, NAME_LENGTH } from '../names.ts';

export interface JobsResult {
  jobs: Job[];
  /** Undefined when the index could not be read: later stages then skip job-id checks instead of flagging every use. */
  ids?: Set<string>;
}

export function loadJobs(stage: Stage): JobsResult {
  const { reader, problems, files } = stage;
  const file = reader.relContent('jobs.json');
  if (!files.jobs) {
    problems.error(file, '', 'file-required', 'the job index is missing');
    return { jobs: [] };
  }
  const data = reader.read<JobsFile>(files.jobs, 'jobs');
  if (!data) return { jobs: [] };
  const ids = new Set<string>();
  data.jobs.forEach((job, i) => {
    // Job ids are element ids on the jobs page and fragments of links to it.
    if (ids.has(job.id)) problems.error(file, `/jobs/${i}/id`, 'unique-job-id', `job id ${job.id} is used twice`);
    else {
      const problem = elementIdProblem(job.id, ids);
      if (problem) problems.error(file, `/jobs/${i}/id`, 'job-id-not-reserved', `job id ${problem}`);
    }
    ids.add(job.id);
    // A job title is a page title and a heading.
    checkName(problems, { file, pointer: `/jobs/${i}/title` }, 'job title', job.title, NAME_LENGTH.title);
  });
  return { jobs: data.jobs, ids };
}
