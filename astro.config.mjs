// @ts-check
import { defineConfig } from 'astro/config';
import starlight from '@astrojs/starlight';
// Loading the sidebar validates every content file: invalid content stops the
// build here, before Astro renders or writes a single page.
import { buildSidebar } from './src/lib/sidebar.ts';

export default defineConfig({
  site: 'https://agent-tools.invalid',
  trailingSlash: 'always',
  integrations: [
    starlight({
      title: 'Agent tool reference',
      description: 'Every built-in tool of Claude Code and Codex CLI: what turns it on, what it takes, what it returns.',
      sidebar: buildSidebar(),
      customCss: ['./src/styles/reference.css'],
      pagefind: {
        ranking: {
          // Tool names are short and exact: favour a hit in the page title.
          metaWeights: { title: 10 },
        },
      },
      expressiveCode: {
        defaultProps: { wrap: true },
      },
    }),
  ],
});
