import { defineCollection, type ImageFunction } from 'astro:content';
import { z } from 'astro/zod';
import { docsLoader } from '@astrojs/starlight/loaders';
import { docsSchema } from '@astrojs/starlight/schema';
import { referenceLoader } from './lib/content/astro-loader.ts';

/**
 * An image as `<StarlightPage>` checks one in its frontmatter: an imported image's metadata. Astro's `image()` would
 * also take a path and import it; the type says the same shape either way.
 */
const importedImage = (() =>
  z.custom(
    (value) =>
      typeof value === 'object' &&
      value !== null &&
      'src' in value &&
      'width' in value &&
      'height' in value &&
      'format' in value,
    'Expected an imported image (its metadata).',
  )) as unknown as ImageFunction;

/**
 * Starlight's frontmatter schema, built once. Given as a function (`docsSchema()`), it is built again for every page
 * `<StarlightPage>` renders, every page of this site: about a second of a build. Built here, its images are imported
 * images, as `<StarlightPage>` checks them; the Markdown pages (src/content/docs/) carry none, and one that did (a hero
 * image by path) would need `docsSchema()` back.
 */
const docsFrontmatter = docsSchema()({ image: importedImage });

export const collections = {
  docs: defineCollection({ loader: docsLoader(), schema: docsFrontmatter }),
  // The reference itself: validated by src/lib/content/load.ts (schemas/ and the rules across files).
  tools: defineCollection({ loader: referenceLoader('tools') }),
  agents: defineCollection({ loader: referenceLoader('agents') }),
  jobs: defineCollection({ loader: referenceLoader('jobs') }),
  notDocumented: defineCollection({ loader: referenceLoader('notDocumented') }),
};
