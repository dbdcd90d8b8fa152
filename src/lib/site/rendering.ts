/**
 * Which content file the page being rendered comes from, so that a build that
 * fails while rendering can name it (scripts/build.ts reads this after a
 * failure; Astro renders pages one at a time in the build process).
 */
const KEY = Symbol.for('agent-tool-reference.rendering');

export function markRendering(page: string, files: readonly string[]): void {
  (globalThis as Record<symbol, unknown>)[KEY] = { page, files };
}

export function lastRendering(): { page: string; files: string[] } | undefined {
  return (globalThis as Record<symbol, unknown>)[KEY] as { page: string; files: string[] } | undefined;
}
