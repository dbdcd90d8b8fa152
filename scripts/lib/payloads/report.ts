/**
 * The payloads of a run against the site's declarations, as printed lines: the site
 * model is loaded the way the build loads it (src/lib/content/load.ts), and each payload
 * is checked by src/lib/check/payload-check.ts.
 */
import { loadContent } from '../../../src/lib/content/load.ts';
import type { PayloadFile } from '../../../src/lib/core/content-types.ts';
import { checkPayload, declarationsOf, findingLine } from '../../../src/lib/check/payload-check.ts';
import { toolForCall as findTool } from '../../../src/lib/model/tool-names.ts';

/** `file: finding` lines for every payload (relative file → JSON text); a payload whose tool has no page says so. */
export function checkSiteModelPayloads(root: string, files: ReadonlyMap<string, string>): string[] {
  const { tools } = loadContent({ root });
  const lines: string[] = [];
  for (const [file, text] of [...files].sort((a, b) => a[0].localeCompare(b[0]))) {
    const payload = JSON.parse(text) as PayloadFile;
    if (!findTool(tools, payload.agent, payload.tool)) {
      lines.push(`${file}: no tool page for ${payload.agent} ${payload.tool}`);
      continue;
    }
    const findings = checkPayload(payload, (name) => {
      const tool = findTool(tools, payload.agent, name);
      return tool ? declarationsOf(tool) : undefined;
    });
    for (const f of findings) lines.push(`${file}: ${findingLine(f)}`);
  }
  return lines;
}
