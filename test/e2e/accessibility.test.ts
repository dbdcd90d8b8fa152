/**
 * axe-core (WCAG 2.x A/AA and best-practice rules) on the home, jobs and agent
 * pages and a fixed sample of tool pages, in the light and the dark theme, with
 * every <details> opened. A violation is allowed only when it belongs to
 * Starlight itself and is listed in STARLIGHT_ALLOWLIST.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import type * as Axe from 'axe-core';
import { ROOT, serveAndLaunch, type Served } from '../helpers/browser.ts';
import { loadContent } from '../../src/lib/content/load.ts';
import { expandAllDetails, newView, openPage, sample, toolPages, type Theme } from '../helpers/pages.ts';

const AXE_SCRIPT = join(ROOT, 'node_modules/axe-core/axe.min.js');

interface AllowedViolation {
  /** axe rule id. */
  rule: string;
  /** CSS selector the offending element matches: an element Starlight renders, never one of ours. */
  selector: string;
  /** Why it is Starlight's, with the upstream issue. */
  reason: string;
}

/**
 * Violations that come from Starlight's own markup or styles. Each entry must
 * match at least one violation in this run, or the last test fails: an entry
 * Starlight has fixed upstream is removed, not kept.
 */
const STARLIGHT_ALLOWLIST: readonly AllowedViolation[] = [
  {
    rule: 'label-content-name-mismatch',
    selector: 'site-search > button[data-open-modal]',
    reason:
      "Starlight's Search.astro labels the search button aria-label=\"Search\" while it shows the Ctrl K shortcut as text " +
      '(markup from withastro/starlight#2025); no upstream issue found',
  },
];

// Tool pages whose tables, grammars and nested definitions are the hardest cases; the rest of the
// sample is spread evenly over the agents.
const REQUIRED_TOOLS = [
  '/claude-code/bash/',
  '/claude-code/agent/',
  '/claude-code/askuserquestion/',
  '/claude-code/read/',
  '/codex/exec_command/',
  '/codex/apply_patch/',
  '/codex/write_stdin/',
  '/codex/multi_agent_v1.spawn_agent/',
];
const content = loadContent({ root: ROOT });
// Two tool pages of every agent are always in the sample; the rest is spread evenly.
const PER_AGENT = content.agents.flatMap((a) => toolPages().map((t) => t.url).filter((u) => u.startsWith(`/${a.id}/`)).slice(0, 2));
const TOOL_SAMPLE = sample(
  toolPages().map((t) => t.url),
  [...new Set([...REQUIRED_TOOLS, ...PER_AGENT])],
  30,
);
// Changelogs and the pages of removed tools, from the history files (each agent with a history has
// a changelog; a removed tool's page is named after it in lowercase).
const HISTORY_PAGES = content.removedTools.slice(0, 1).map((t) => `/${t.agent}/${t.slug}/`);
const CHANGELOGS = [...new Set(content.histories.map((h) => `/${h.agent}/changelog/`))];
// Every agent's overview, and the comparison page of the job with the most tools.
const AGENT_PAGES = content.agents.map((a) => `/${a.id}/`);
const busiestJob = [...content.jobs].sort((a, b) => content.tools.filter((t) => t.editorial?.jobs.includes(b.id)).length - content.tools.filter((t) => t.editorial?.jobs.includes(a.id)).length)[0]!;
const PAGES = ['/', '/jobs/', `/jobs/${busiestJob.id}/`, ...AGENT_PAGES, ...CHANGELOGS, ...HISTORY_PAGES, ...TOOL_SAMPLE];
const THEMES: readonly Theme[] = ['light', 'dark'];

interface FoundNode {
  target: string;
  summary: string;
  /** Index into STARLIGHT_ALLOWLIST of the entry that allows it, or -1. */
  allowedBy: number;
}
interface Found {
  id: string;
  impact: string;
  help: string;
  helpUrl: string;
  nodes: FoundNode[];
}

let served: Served;
const contexts = new Map<Theme, BrowserContext>();
/** Allowlist entries that matched at least one node, over all pages and themes. */
const used = new Set<number>();

before(async () => {
  served = await serveAndLaunch();
  for (const theme of THEMES) contexts.set(theme, await newView(served.browser, served.base, { width: 1280, height: 900, theme }));
});
after(async () => {
  await served?.close();
});

test('the sample covers every agent and at least 20 tool pages', () => {
  assert.ok(TOOL_SAMPLE.length >= 20, `${TOOL_SAMPLE.length} tool pages`);
  for (const agent of content.agents.map((a) => a.id)) {
    assert.ok(TOOL_SAMPLE.filter((p) => p.startsWith(`/${agent}/`)).length >= 2, `${agent}: too few pages in ${TOOL_SAMPLE.join(' ')}`);
  }
});

describe('axe-core', { concurrency: 4 }, () => {
  for (const path of PAGES) {
    for (const theme of THEMES) {
      test(`${path} in the ${theme} theme has no violations of ours`, async () => {
        const page = await openPage(contexts.get(theme)!, path, theme);
        try {
          await expandAllDetails(page);
          await page.addScriptTag({ path: AXE_SCRIPT });
          const violations = await page.evaluate(
            async (allow): Promise<Found[]> => {
              const axe = (window as unknown as { axe: typeof Axe }).axe;
              const results = await axe.run(document, { resultTypes: ['violations'] });
              return results.violations.map((v) => ({
                id: v.id,
                impact: v.impact ?? 'unknown',
                help: v.help,
                helpUrl: v.helpUrl,
                nodes: v.nodes.map((n) => {
                  const last = n.target[n.target.length - 1];
                  const el = typeof last === 'string' ? document.querySelector(last) : null;
                  return {
                    target: n.target.map(String).join(' >>> '),
                    summary: (n.failureSummary ?? '').replace(/\s+/g, ' ').trim(),
                    allowedBy: allow.findIndex((a) => a.rule === v.id && el?.matches(a.selector) === true),
                  };
                }),
              }));
            },
            STARLIGHT_ALLOWLIST.map(({ rule, selector }) => ({ rule, selector })),
          );
          const ours: string[] = [];
          for (const v of violations) {
            const unexplained = v.nodes.filter((n) => n.allowedBy < 0);
            for (const n of v.nodes) if (n.allowedBy >= 0) used.add(n.allowedBy);
            if (unexplained.length === 0) continue;
            ours.push(
              `${v.id} (${v.impact}): ${v.help} — ${v.helpUrl}\n` +
                unexplained.map((n) => `    ${n.target}\n      ${n.summary}`).join('\n'),
            );
          }
          assert.equal(ours.length, 0, `${path} (${theme} theme): ${ours.length} axe rule(s) violated by this project's markup or styles:\n  ${ours.join('\n  ')}`);
        } finally {
          await page.close();
        }
      });
    }
  }
});

test('every Starlight allowlist entry still matches a violation (remove entries fixed upstream)', () => {
  const stale = STARLIGHT_ALLOWLIST.filter((_, i) => !used.has(i)).map((a) => `${a.rule} ${a.selector} (${a.reason})`);
  assert.deepEqual(stale, []);
});
