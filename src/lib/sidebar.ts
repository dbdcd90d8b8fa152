/** Starlight sidebar built from content: one group per agent, tools grouped by kind. */
import { AGENT_LABELS, agentUrl, groupedTools, site, toolUrl } from './site.ts';

interface LinkItem {
  label: string;
  link: string;
}
interface GroupItem {
  label: string;
  collapsed?: boolean;
  items: (LinkItem | GroupItem)[];
}

export function buildSidebar(): (LinkItem | GroupItem)[] {
  const { agents } = site();
  return [
    { label: 'Home', link: '/' },
    { label: 'Start from a job', link: '/jobs/' },
    ...agents.map(
      (agent): GroupItem => ({
        label: AGENT_LABELS[agent.id],
        items: [
          { label: 'Overview', link: agentUrl(agent.id) },
          ...groupedTools(agent.id).map(
            (g): GroupItem => ({
              label: g.label,
              // Long lists: Starlight opens the group that holds the current page.
              collapsed: true,
              items: g.tools.map((t) => ({ label: t.fullName, link: toolUrl(t) })),
            }),
          ),
        ],
      }),
    ),
    { label: 'About this reference', link: '/about/' },
  ];
}
