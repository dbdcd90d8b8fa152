/**
 * `/search/pagefind.js`: Pagefind's module with its results ordered by the
 * typed spelling (src/lib/views/search-rank.ts, compiled here by TypeScript: types
 * erased, comments dropped). The search dialog imports it in place of
 * Pagefind's own through the import map in Head.astro; about 5 KB, loaded
 * with Pagefind when the dialog first searches, never by a page itself.
 */
import ts from 'typescript';
import type { APIRoute } from 'astro';
import searchRank from '../../lib/views/search-rank.ts?raw';
import { rankedPagefindSource } from '../../lib/views/search.ts';

export const GET: APIRoute = () => {
  const { outputText } = ts.transpileModule(searchRank, {
    fileName: 'search-rank.ts',
    compilerOptions: {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      verbatimModuleSyntax: true,
      removeComments: true,
    },
  });
  return new Response(rankedPagefindSource(outputText), {
    headers: { 'Content-Type': 'text/javascript; charset=utf-8' },
  });
};
