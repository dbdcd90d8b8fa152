/**
 * Stage: the agents the site does not document, and why (content/not-documented.json, editorial). Optional: without
 * the file the home page lists none. An entry naming an agent the registry documents, by product or by the package its
 * captures install, contradicts the rest of the site and is refused.
 */
import type { Stage } from '../context.ts';
import type { NotDocumentedAgent, NotDocumentedFile } from '../../core/content-types.ts';
import { checkName, NAME_LENGTH } from '../names.ts';

/** A documented agent as this stage compares entries with it. */
export interface DocumentedAgent {
  product: string;
  /** The package its captures install, when the capture matrix names one. */
  package?: string;
}

export function loadNotDocumented(stage: Stage, documented: readonly DocumentedAgent[]): NotDocumentedAgent[] {
  const { reader, problems, files } = stage;
  if (!files.notDocumented) return [];
  const data = reader.read<NotDocumentedFile>(files.notDocumented, 'notDocumented');
  if (!data) return [];
  const file = reader.relContent(files.notDocumented);
  const seen = new Set<string>();
  const kept: NotDocumentedAgent[] = [];
  data.agents.forEach((entry, i) => {
    const at = `/agents/${i}`;
    if (!checkName(problems, { file, pointer: `${at}/product` }, 'product name', entry.product, NAME_LENGTH.title))
      return;
    const key = entry.product.toLowerCase();
    const twin = documented.find(
      (d) => d.product.toLowerCase() === key || (entry.package !== undefined && d.package === entry.package),
    );
    if (twin)
      problems.error(
        file,
        twin.product.toLowerCase() === key ? `${at}/product` : `${at}/package`,
        'documented-agent-not-listed',
        `${entry.product} is listed as not documented, but the site documents ${twin.product}`,
      );
    else if (seen.has(key)) problems.error(file, `${at}/product`, 'unique-product', `${entry.product} is listed twice`);
    else kept.push(entry);
    seen.add(key);
  });
  return kept;
}
