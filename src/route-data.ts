/**
 * Starlight route middleware: each page's sidebar keeps the tool lists of its own agent only
 * (src/lib/views/sidebar-trim.ts).
 */
import { defineRouteMiddleware } from '@astrojs/starlight/route-data';
import { trimSidebar } from './lib/views/sidebar-trim.ts';

export const onRequest = defineRouteMiddleware((context) => {
  const route = context.locals.starlightRoute;
  route.sidebar = trimSidebar(route.sidebar);
});
