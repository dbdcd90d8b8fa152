/**
 * Pages with wide tables (field tables, the agent page's matrix, a job's
 * compatibility table) use a 60rem content column where the screen allows,
 * instead of Starlight's 45rem. Said by a head entry of those pages rather than
 * by `html:has(.field-table)` in the stylesheet: a `:has()` on the root is
 * re-checked as the page is parsed and each time restyles the whole document,
 * which tripled the style work of loading a tool page.
 */
import type { ToolModel } from '../model/model.ts';
import { fieldTables } from '../model/model.ts';

/** The column width of a wide page. */
export const WIDE_CONTENT_WIDTH = '60rem';

/** Starlight `head` entries of a wide page (unlayered, so they win over Starlight's layered default). */
export function wideHead(wide: boolean): { tag: 'style'; content: string }[] {
  return wide ? [{ tag: 'style', content: `:root{--sl-content-width:${WIDE_CONTENT_WIDTH}}` }] : [];
}

/** Whether a tool page shows a field table: some table of it has rows. */
export function hasFieldTable(tool: ToolModel): boolean {
  return fieldTables(tool).some((t) => t.rows.length > 0);
}
