/**
 * Local Starlight plugin: validates all content when the site is configured —
 * so that bad content stops `astro build` before a single file is written —
 * prints warnings about content it will ignore, and sets the sidebar from the
 * validated content, trimmed per page to the current agent's tools.
 */
import type { StarlightPlugin } from '@astrojs/starlight/types';
import { setValidatorWorker } from '../lib/check/validator-pool.ts';
import { loadSiteContent } from '../lib/content/cached.ts';
import { buildSidebar } from '../lib/views/sidebar.ts';

export function referencePlugin(): StarlightPlugin {
  return {
    name: 'agent-tool-reference',
    hooks: {
      'config:setup'({ updateConfig, addRouteMiddleware, logger }) {
        const { model, warnings } = loadSiteContent();
        for (const w of warnings) logger.warn(`${w.file}: ${w.message}`);
        updateConfig({ sidebar: buildSidebar(model) });
        // Each page keeps the tool lists of its own agent only.
        addRouteMiddleware({ entrypoint: new URL('../route-data.ts', import.meta.url).pathname });
        // The validator routes' worker threads run this file of the sources (validator-pool.ts).
        setValidatorWorker(new URL('../lib/check/validator-worker.ts', import.meta.url));
      },
    },
  };
}
