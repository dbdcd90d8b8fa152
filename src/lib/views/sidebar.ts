/**
 * Starlight sidebar built from content: one group per agent, tools grouped by kind. Links without base: Starlight adds
 * it.
 */
import type { RemovedTool, SiteModel } from '../model/model.ts';
import { agentBundles } from '../model/bundles.ts';
import { AGENT_LABELS, groupedTools, toolPath } from '../site/site.ts';

interface LinkItem {
  label: string;
  link: string;
}
interface GroupItem {
  label: string;
  collapsed?: boolean;
  items: (LinkItem | GroupItem)[];
}

/** Tools the history saw removed, when there are any. */
function removedGroup(removed: readonly RemovedTool[]): GroupItem[] {
  if (removed.length === 0) return [];
  return [
    {
      label: 'Removed',
      collapsed: true,
      items: removed.map((t) => ({ label: t.name, link: `/${t.agent}/${t.slug}/` })),
    },
  ];
}

export function buildSidebar(model: SiteModel): (LinkItem | GroupItem)[] {
  return [
    { label: 'Home', link: '/' },
    { label: 'Start from a job', link: '/jobs/' },
    ...(model.histories.length > 0 ? [{ label: 'What changed', link: '/changes/' }] : []),
    { label: 'Hooks compared', link: '/hooks/' },
    { label: 'Permissions compared', link: '/permissions/' },
    ...[...agentBundles(model).values()].map(
      ({ record: agent, histories, tools, removedTools }): GroupItem => ({
        label: AGENT_LABELS[agent.id],
        // One group per agent: each opens when it holds the current page.
        collapsed: true,
        items: [
          { label: 'Overview', link: `/${agent.id}/` },
          ...(histories.length > 0 ? [{ label: 'Changelog', link: `/${agent.id}/changelog/` }] : []),
          { label: 'Hooks', link: `/${agent.id}/hooks/` },
          { label: 'Permissions', link: `/${agent.id}/permissions/` },
          ...groupedTools(tools, agent.id).map(
            (g): GroupItem => ({
              label: g.label,
              // Long lists: Starlight opens the group that holds the current page.
              collapsed: true,
              items: g.tools.map((t) => ({ label: t.fullName, link: toolPath(t) })),
            }),
          ),
          ...removedGroup(removedTools),
        ],
      }),
    ),
    { label: 'About this reference', link: '/about/' },
    { label: 'For programs', link: '/for-programs/' },
  ];
}
