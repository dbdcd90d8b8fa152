// @ts-check
import { defineConfig } from 'astro/config';
import starlight from '@astrojs/starlight';
// Validates every content file and builds the sidebar: invalid content stops the
// build in Starlight's config:setup hook, before Astro renders or writes a page.
import { referencePlugin } from './src/integrations/reference-plugin.ts';
import { SITE_DESCRIPTION, SITE_TITLE, SITE_URL } from './src/lib/site/site-settings.ts';

export default defineConfig({
  site: SITE_URL,
  trailingSlash: 'always',
  integrations: [
    starlight({
      title: SITE_TITLE,
      description: SITE_DESCRIPTION,
      plugins: [referencePlugin()],
      // Our own 404 page (src/pages/404.astro) retries an address typed in another case.
      disable404Route: true,
      customCss: ['./src/styles/reference.css'],
      // The page title breaks long tool names at `.` and `_`, not mid-word; the
      // <title> is written as text (Starlight writes head entries as HTML).
      components: { PageTitle: './src/components/PageTitle.astro', Head: './src/components/Head.astro' },
      pagefind: {
        ranking: {
          // People search tool names exactly as spelled. Pagefind splits a title
          // such as `TaskCreate` into `task` + `create` and boosts every page whose
          // title holds the query, so a search for `Task` (Agent's former name)
          // would favour TaskCreate. Instead, each tool page carries a `names` meta
          // field with its names lowercased (not split), and titles give no boost (a
          // tool's result title is `<name> — <agent release>`). `spelled`, the names
          // as written, only orders results by the typed spelling (src/lib/views/search-rank.ts).
          metaWeights: { title: 0, names: 5, spelled: 0 },
        },
      },
      expressiveCode: {
        defaultProps: { wrap: true },
      },
    }),
  ],
});
