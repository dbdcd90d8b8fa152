/**
 * Stage: each agent's name for an MCP server's tool over its releases
 * (content/mcp-naming/<agent>.json, written by `npm run mcp-naming-history`). A file belongs
 * to the agent it is named after; its readings are oldest first and its last reading is the
 * pinned release (a moved pin is a warning: run it again); every change lies between two
 * readings of the file whose names differ.
 */
import { type Stage, inItsPlace } from '../context.ts';
import type { McpNamingFile } from '../../core/content-types.ts';
import type { McpNamingHistory } from '../../model/model.ts';

const keyOf = (r: McpNamingFile['readings'][number]): string => ('failed' in r ? 'failed' : r.names.join(' '));

export function loadMcpNaming(stage: Stage, pins: ReadonlyMap<string, string>): McpNamingHistory[] {
  const { reader, problems, files } = stage;
  const out: McpNamingHistory[] = [];
  for (const path of files.mcpNaming) {
    const file = reader.relContent(path);
    const data = reader.read<McpNamingFile>(path, 'mcpNaming');
    if (!data) continue;
    if (
      !inItsPlace(
        stage,
        path,
        `mcp-naming/${data.agent}.json`,
        '/agent',
        `the MCP naming history of ${data.agent} belongs`,
      )
    )
      continue;
    const versions = data.readings.map((r) => r.version);
    let sound = true;
    data.changes.forEach((c, i) => {
      const [a, b] = [versions.indexOf(c.before.version), versions.indexOf(c.after.version)];
      if (a < 0 || b !== a + 1 || keyOf(c.before) === keyOf(c.after)) {
        problems.error(
          file,
          `/changes/${i}`,
          'mcp-naming-change-read',
          `a change lies between two consecutive readings that differ; ${c.before.version} → ` +
            `${c.after.version} is not one`,
        );
        sound = false;
      }
    });
    if (!sound) continue;
    const pinned = pins.get(data.agent);
    if (pinned !== undefined && pinned !== data.to)
      problems.warn(
        file,
        `read up to ${data.to}; content/capture-matrix.json pins ${pinned}: run npm run mcp-naming-history again`,
      );
    out.push({ ...data, file });
  }
  return out;
}
