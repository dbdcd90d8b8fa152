/**
 * The sidebar as one page shows it. The configured sidebar lists every tool of
 * every agent; on each page only the group that holds the page keeps its tool
 * lists, and every other agent shows its plain links (Overview, Changelog), so
 * that every agent's tools do not weigh on every page. Pure; used by the route
 * middleware (src/route-data.ts).
 */

/** The part of Starlight's sidebar entries this needs. */
export type SidebarItem = { type: 'link'; isCurrent: boolean } | { type: 'group'; entries: SidebarItem[] };

function holdsCurrent(item: SidebarItem): boolean {
  return item.type === 'link' ? item.isCurrent : item.entries.some(holdsCurrent);
}

/** Top-level groups that do not hold the current page keep only their direct links. */
export function trimSidebar<T extends SidebarItem>(entries: readonly T[]): T[] {
  return entries.map((item) => {
    if (item.type !== 'group' || holdsCurrent(item)) return item;
    return { ...item, entries: item.entries.filter((e) => e.type === 'link') };
  });
}
