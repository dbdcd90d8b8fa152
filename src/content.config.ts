import { defineCollection } from 'astro:content';
import { docsLoader } from '@astrojs/starlight/loaders';
import { docsSchema } from '@astrojs/starlight/schema';
import { referenceLoader } from './lib/content/astro-loader.ts';

export const collections = {
  docs: defineCollection({ loader: docsLoader(), schema: docsSchema() }),
  // The reference itself: validated by src/lib/content/load.ts (schemas/ and the rules across files).
  tools: defineCollection({ loader: referenceLoader('tools') }),
  agents: defineCollection({ loader: referenceLoader('agents') }),
  jobs: defineCollection({ loader: referenceLoader('jobs') }),
  notDocumented: defineCollection({ loader: referenceLoader('notDocumented') }),
};
