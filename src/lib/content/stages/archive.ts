/**
 * Stage: archived export files (content/archive/<agent>.json, written by
 * `npm run refresh`). A versioned export path, once published, keeps resolving:
 * when a source moves to a newer release, the files of the old release are
 * archived and served from here. Each archived path must name its agent, an
 * export file name, and a path the current content does not produce (it would
 * be served twice). A `.json` file's text must be valid JSON, and the archive's
 * origin must appear in every text only as a whole address (never as the start of a
 * longer host, which rewriting it would corrupt).
 */
import { type Stage, inItsPlace } from '../context.ts';
import type { ArchiveFile } from '../../core/content-types.ts';
import { EXPORT_FILE_NAMES, type ExportFileName } from '../../core/export-file-names.ts';
import type { ArchivedExport } from '../../model/model.ts';

export type { ArchivedExport } from '../../model/model.ts';

/** Reads the archive; `current` are the versioned paths the current content publishes. */
export function loadArchive(stage: Stage, current: ReadonlySet<string>): ArchivedExport[] {
  const { reader, problems, files } = stage;
  const out: ArchivedExport[] = [];
  const seen = new Map<string, string>();
  for (const path of files.archive) {
    const data = reader.read<ArchiveFile>(path, 'archive');
    if (!data) continue;
    const file = reader.relContent(path);
    if (!inItsPlace(stage, path, `archive/${data.agent}.json`, '/agent', `the archive of ${data.agent} belongs`))
      continue;
    // An origin that would corrupt an address is said once per file.
    let originRefused = false;
    data.files.forEach((entry, i) => {
      const pointer = `/files/${i}/path`;
      const [, , tool, version, name] = entry.path.split('/') as [string, string, string, string, string];
      const archived: Archived = { file, agent: data.agent, entry, i };
      if (!archivedFileOk(stage, archived, current)) return;
      if (!originRefused && originCorrupts(stage, archived, data.origin)) {
        originRefused = true;
        return;
      }
      const first = seen.get(entry.path);
      if (first !== undefined)
        return problems.error(file, pointer, 'archive-path-unique', `${entry.path} is archived already at ${first}`);
      seen.set(entry.path, `${file}#${pointer}`);
      out.push({
        agent: data.agent,
        tool,
        version,
        file: name as ExportFileName,
        path: entry.path,
        text: entry.text,
        origin: data.origin,
        archived: entry.archived,
      });
    });
  }
  return out;
}

/** One archived file, at `/files/<i>` of its agent's archive. */
interface Archived {
  file: string;
  agent: string;
  entry: ArchiveFile['files'][number];
  i: number;
}

/**
 * Whether an archived file can be served: a path of its agent, an export file name, not a path the current content
 * publishes, and for a `.json` file a text that parses (each reported).
 */
function archivedFileOk(stage: Stage, { file, agent, entry, i }: Archived, current: ReadonlySet<string>): boolean {
  const { problems } = stage;
  const pointer = `/files/${i}/path`;
  const [, pathAgent, , , name] = entry.path.split('/') as [string, string, string, string, string];
  if (pathAgent !== agent) {
    problems.error(file, pointer, 'archive-path-of-agent', `${entry.path} is not a path of ${agent}`);
    return false;
  }
  if (!(name in EXPORT_FILE_NAMES)) {
    problems.error(
      file,
      pointer,
      'archive-export-file',
      `${name} is not an export file name (${Object.keys(EXPORT_FILE_NAMES).join(', ')})`,
    );
    return false;
  }
  if (current.has(entry.path)) {
    problems.error(
      file,
      pointer,
      'archive-not-current',
      `the current content publishes ${entry.path} itself: remove it from the archive`,
    );
    return false;
  }
  if (!name.endsWith('.json')) return true;
  try {
    JSON.parse(entry.text);
    return true;
  } catch (error) {
    problems.error(
      file,
      `/files/${i}/text`,
      'archive-text-json',
      `the text archived for ${name} is not valid JSON (${(error as Error).message}); it would be published as it is`,
    );
    return false;
  }
}

/** Whether the archive's origin is only the start of a longer address in this file's text (reported). */
function originCorrupts(stage: Stage, { file, entry, i }: Archived, origin: string): boolean {
  const overlap = originOverlap(entry.text, origin);
  if (overlap === undefined) return false;
  stage.problems.error(
    file,
    '/origin',
    'archive-origin-whole',
    `the origin ${origin} is only the start of the address ${overlap} in the text of ${entry.path} ` +
      `(/files/${i}/text); replacing it with the site's address would corrupt that address. The origin is the ` +
      `scheme, host and port the texts were written with`,
  );
  return true;
}

/**
 * A longer address in `text` that `origin` is only the start of (the origin followed by a host or port character), or
 * undefined.
 */
export function originOverlap(text: string, origin: string): string | undefined {
  for (let at = text.indexOf(origin); at >= 0; at = text.indexOf(origin, at + 1)) {
    const next = text[at + origin.length];
    if (next !== undefined && /[A-Za-z0-9.:@_~%-]/.test(next))
      return /^[^\s"'<>]*/.exec(text.slice(at))![0].slice(0, 120);
  }
  return undefined;
}
