/**
 * A tool's support facts, in the manner of caniuse and MDN's compat data:
 * when it came or went by each release history that speaks about it, what
 * gates it (editorial gates), the names its hooks and its model give it
 * (recorded payloads, captures), and when one of its fields came. Shared by the
 * support strip of a tool page and the compatibility table of a job page; both
 * say "no history yet" for an agent without a computed history rather than
 * guess a release.
 */
import type { SubagentLine } from '../behaviour/subagents.ts';
import type { EditorialTool } from '../core/content-types.ts';
import { spanText } from '../history/event-span.ts';
import { sinceText } from '../history/history.ts';
import type { HistoryLine, HistorySource, ToolHistory } from '../model/history-facts.ts';
import type { ToolModel } from '../model/model.ts';
import { AGENT_LABELS, toolUrl } from '../site/site.ts';

export type Gate = EditorialTool['availability']['gates'][number];

/** What each history compared, as the strip names it. */
export const SOURCE_LABELS: Record<HistorySource, string> = { sdk: 'SDK types', capture: 'captures' };

/**
 * One gate in a few words, as the words and the setting they name: `on with env` and `X=1`, `off with flag` and
 * `--y`, `needs feature` and `z`; `on by default` names none. A page keeps each word of the setting whole where it
 * can (GateWords.astro), since a break after a flag's `--` reads as two words.
 */
export interface GateParts {
  words: string;
  setting?: string;
}

export function gateParts(gate: Gate): GateParts {
  if (gate.kind === 'always') return { words: gate.effect === 'disables' ? 'always off' : 'on by default' };
  const verb = gate.effect === 'enables' ? 'on with' : gate.effect === 'disables' ? 'off with' : 'needs';
  return { words: `${verb} ${gate.kind}`, setting: `${gate.name}${gate.value !== undefined ? `=${gate.value}` : ''}` };
}

/**
 * The gates that turn the tool on (those that enable it or that it needs), in
 * the editorial file's order; undefined when no editorial file says.
 */
export function turnedOnBy(tool: ToolModel): GateParts[] | undefined {
  const gates = tool.editorial?.availability.gates;
  if (!gates) return undefined;
  return gates.filter((g) => g.effect !== 'disables').map(gateParts);
}

/** `gpt-5-5, default-model and multi-agent-v2`. */
function listed(names: readonly string[]): string {
  return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/** Why no capture history speaks about a tool, in words (the configurations it follows, none advertising the tool). */
export function untrackedText(followed: readonly string[]): string {
  return (
    `the history follows ${followed.length === 1 ? 'the configuration' : 'the configurations'} ` +
    `${listed(followed)}, and ` +
    `${followed.length === 1 ? 'it does not advertise' : 'none of them advertises'} this tool`
  );
}

/** A history line in words: `added in 2.1.304`, `removed between 0.150.0 and 0.152.0`, `already there in 2.0.14`. */
export function historyLineText(line: HistoryLine): string {
  if (line.state === 'before') return `already there in ${line.release}`;
  return spanText(line.state === 'added' ? 'tool-added' : 'tool-removed', {
    exact: line.previous === undefined,
    previous: line.previous ?? line.release,
    release: line.release,
  });
}

/** When a field came, as a compatibility cell says it, with the version note it links to. */
export interface FieldSinceText {
  text: string;
  href?: string;
}

/**
 * The "since" of each field row of a tool, in words: `since 2.1.210` (added
 * after the tool), `since 2.1.304` (with the tool), `already there in 2.0.14`;
 * `no history yet` for an agent without one; `not covered by the history` for a row no
 * history covers.
 */
export function fieldSinceTexts(tool: ToolModel): (rowId: string) => FieldSinceText {
  const since = tool.facts.history.fieldSince;
  const hasHistory = tool.facts.history.place.kind !== 'none';
  return (rowId) => {
    const s = since.get(rowId);
    if (!s) return { text: hasHistory ? 'not covered by the history' : 'no history yet' };
    const out: FieldSinceText = { text: sinceText(s) };
    if (s.kind === 'before') return out;
    if (s.note) out.href = `${toolUrl(tool)}#${s.note}`;
    return out;
  };
}

/** The support strip of a tool page. */
export interface SupportStrip {
  /** Releases: one line per history, or why there is none. */
  history: { lines: (HistoryLine & { label: string; text: string })[] } | { text: string };
  /** Former names the tool still answers to. */
  renamedFrom: string[];
  /** Every gate, in words and the setting they name; undefined when not established. */
  gates: GateParts[] | undefined;
  /** `tool_name`s its recorded hook payloads give it; empty when none was recorded. */
  hookNames: string[];
  /** Its name in what the CLI sends its model; undefined when no configuration was captured advertising it. */
  modelName: string | undefined;
  /**
   * How many recorded hook answers called it: the strip links to the page's "In hooks" section, which shows them
   * (tool-hooks.ts).
   */
  hookAnswers: number;
  /** Which of its agent's built-in subagent types were offered it (subagents.ts); undefined where none are recorded. */
  subagents?: SubagentLine | undefined;
}

export type { HistoryLine, ToolHistory };

/** The strip, from the tool's place in its histories (history/tool-history.ts; a tool page has it in its facts). */
export function supportStrip(tool: ToolModel, h: ToolHistory, hookAnswers = 0, subagents?: SubagentLine): SupportStrip {
  const history: SupportStrip['history'] =
    h.kind === 'lines'
      ? { lines: h.lines.map((l) => ({ ...l, label: SOURCE_LABELS[l.source], text: historyLineText(l) })) }
      : {
          text:
            h.kind === 'none'
              ? `no history for ${AGENT_LABELS[tool.agent]} yet`
              : h.followed.length > 0
                ? `captures: ${h.followed.map(untrackedText).join('; ')}`
                : 'not covered by the release history',
        };
  return {
    history,
    renamedFrom: tool.generated.aliases.filter((a) => a.kind === 'former-name').map((a) => a.name),
    gates: tool.editorial?.availability.gates.map(gateParts),
    hookNames: tool.facts.hooks.names,
    modelName: tool.captured?.fullName,
    hookAnswers,
    subagents,
  };
}
