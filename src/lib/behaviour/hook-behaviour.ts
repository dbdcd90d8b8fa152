/**
 * What a hook's answer did, read from the recorded cases (content/hook-behaviour/):
 * the outcome of each case (did the tool run, was the result an error, did the hook's own
 * words reach the model), the rows of an agent's behaviour table, the catalog entries,
 * and the cross-agent comparison of `/hooks/`. Pure.
 */
import type { AgentId, CaseOutcome } from '../core/content-types.ts';
import type { HookBehaviourHistory, HookBehaviourRecord, SiteModel, ToolModel } from '../model/model.ts';
import { toolForCall } from '../model/tool-names.ts';
import { toolUrl } from '../site/site.ts';
import { outcomeTerms, plainOutcome, type PlainOutcome } from './outcome-words.ts';

/** What each kind of case makes the hook do, in table order. */
export const KIND_LABELS: Readonly<Record<string, string>> = {
  'pre-silent': 'says nothing (baseline)',
  'pre-deny': 'denies, with a reason',
  'pre-allow': 'allows',
  'pre-ask': 'asks (no one to ask)',
  'pre-rewrite': 'rewrites the input',
  'pre-exit-2': 'exits 2, reason on stderr',
  'pre-malformed': 'prints malformed output',
  'pre-crash': 'crashes',
  'pre-timeout': 'outlives its timeout',
  'post-block': 'blocks, with a reason',
  'post-context': 'adds context',
  'post-replace': 'replaces the output',
  'post-exit-2': 'exits 2, reason on stderr',
  'failure-context': 'adds context to a failure',
};

export const ROLE_LABELS: Readonly<Record<HookBehaviourRecord['toolRole'], string>> = {
  shell: 'the shell tool',
  'file-write': 'a file-writing tool',
  mcp: 'an MCP tool',
};

/** When the hook answers: before the call, after it succeeded, after it failed. */
export function kindPhase(kind: string): 'before' | 'after' | 'after failure' {
  return kind.startsWith('pre-') ? 'before' : kind.startsWith('failure-') ? 'after failure' : 'after';
}

export interface BehaviourOutcome {
  /** The hook was run for the event it answers (false: the CLI decided before asking it). */
  hookRan: boolean;
  /** Whether the tool's side effect happened; null where the case has none to observe (an MCP echo). */
  ran: boolean | null;
  /** The CLI sent the model a result marked as an error. */
  isError: boolean;
  /** No request carried the call's result. */
  noResult: boolean;
  /** The CLI had not finished at the case's limit and was killed (it waited for ever), with the limit. */
  killedAfterSeconds: number | null;
  /** Some words the hook printed (a reason, context, replaced output, standard error) reached the model. */
  hookWordsReached: boolean;
  /** `not run; error`, `ran; the hook's words reached the model` … */
  summary: string;
  /** The same in a hook author's words, with any surprise named. */
  plain: PlainOutcome;
}

/**
 * Words of a hook's answer worth looking for in what the model got: string values of its JSON (not keys or enum-like
 * words), its text, or the quoted sentences of a plugin's script.
 */
export function answerSentences(record: Pick<HookBehaviourRecord, 'hookReturn'>): string[] {
  const { stdout, stderr, crash } = record.hookReturn;
  const words: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === 'string') {
      if (/\s/.test(v.trim())) words.push(v);
    } else if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === 'object') Object.values(v).forEach(walk);
  };
  try {
    walk(JSON.parse(stdout) as unknown);
  } catch {
    if (stdout.trim() !== '') words.push(stdout.trim());
  }
  if (stderr.trim() !== '') words.push(stderr.trim());
  if (crash) words.push(crash);
  // A plugin's script: its quoted sentences (an Error's message, a replaced output), each
  // line of a string apart (`'\nContext from the hook: …'` is appended after a line break).
  for (const m of (record.hookReturn.script ?? '').matchAll(/'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"/g)) {
    const text = (m[1] ?? m[2] ?? '').replace(/\\n/g, '\n').replace(/\\(.)/g, '$1');
    for (const line of text.split('\n')) if (/\s/.test(line.trim())) words.push(line);
  }
  return words;
}

export function behaviourOutcome(
  record: Pick<
    HookBehaviourRecord,
    'kind' | 'toolRole' | 'hookReturn' | 'sideEffect' | 'modelSaw' | 'answered' | 'event' | 'cliExit'
  >,
): BehaviourOutcome {
  const ran = record.sideEffect === undefined ? null : record.sideEffect.happened;
  const { result, isError, otherTexts } = record.modelSaw;
  const seen = [result ?? '', ...otherTexts].join('\n');
  const hookWordsReached = answerSentences(record).some((w) => seen.includes(w));
  const noResult = result === null;
  const hookRan = record.answered.includes(record.event);
  const killedAfterSeconds = record.cliExit.killedAfterSeconds ?? null;
  const parts = [
    hookRan ? undefined : 'hook never asked',
    ran === null ? undefined : ran ? 'ran' : 'did not run',
    noResult ? 'no result sent' : isError ? 'error result' : 'result',
    hookWordsReached ? "hook's words reached the model" : undefined,
    killedAfterSeconds === null ? undefined : `the CLI was still waiting after ${killedAfterSeconds} s`,
  ];
  const plain = plainOutcome({
    kind: record.kind,
    toolRole: record.toolRole,
    event: record.event,
    answered: record.answered,
    ran,
    modelSaw: record.modelSaw,
    killedAfterSeconds,
    hookWords: answerSentences(record),
    said: record.cliExit.said,
  });
  return {
    hookRan,
    ran,
    isError,
    noResult,
    killedAfterSeconds,
    hookWordsReached,
    summary: parts.filter((p) => p !== undefined).join('; '),
    plain,
  };
}

export interface BehaviourRow {
  /** `case-<id>`: the row's anchor on the agent's hooks page. */
  anchor: string;
  case: string;
  kind: string;
  kindLabel: string;
  role: string;
  description: string;
  event: string;
  tool: string;
  toolUrl: string | undefined;
  hook: HookBehaviourRecord['hookReturn'];
  outcome: BehaviourOutcome;
  modelSaw: HookBehaviourRecord['modelSaw'];
  /** The payload the hook answered (the first of its event), as JSON text. */
  answeredPayload: string | undefined;
  /** The result block as the CLI sent it, as JSON text. */
  resultBlock: string | undefined;
  file: string;
  release: string;
  /** The case over the agent's earlier releases, where its behaviour history ran it. */
  overReleases: CaseOverReleases | undefined;
}

/** One span of releases read with the same outcome, newest first in CaseOverReleases. */
export interface OutcomeSpanView {
  from: string;
  to: string;
  read: number;
  /** behaviourOutcome's summary, or `could not run: …` with the reason. */
  summary: string;
  failed: boolean;
}

export interface CaseOverReleases {
  /** `The same at each of the 20 releases read, 2.1.316 to 2.1.335.`, or which changes there were. */
  sentence: string;
  /** Newest first. */
  spans: OutcomeSpanView[];
  /** Each change, newest first: the last release read before it and the first after. */
  changes: { between: [string, string]; unread: number }[];
  /** Where the history is. */
  file: string;
}

function spanSummary(record: HookBehaviourRecord, outcome: CaseOutcome): { summary: string; failed: boolean } {
  if ('failed' in outcome) return { summary: `could not run: ${outcome.failed}`, failed: true };
  const { ran, ...rest } = outcome;
  return {
    summary: behaviourOutcome({
      ...rest,
      kind: record.kind,
      toolRole: record.toolRole,
      hookReturn: record.hookReturn,
      event: record.event,
      ...(ran === undefined ? {} : { sideEffect: { path: record.sideEffect?.path ?? '', happened: ran } }),
    }).plain.sentence,
    failed: false,
  };
}

/** A case over the releases its agent's behaviour history read, or undefined where the history has no such case. */
export function caseOverReleases(
  record: HookBehaviourRecord,
  history: HookBehaviourHistory | undefined,
): CaseOverReleases | undefined {
  const spans = history?.cases[record.case];
  if (history === undefined || spans === undefined) return undefined;
  const read = spans.reduce((n, s) => n + s.read.length, 0);
  const changes = history.changes
    .filter((c) => c.case === record.case)
    .map((c) => ({ between: [c.between[0]!, c.between[1]!] as [string, string], unread: c.unread.length }))
    .reverse();
  const range = `${spans[0]!.from} to ${spans.at(-1)!.to}`;
  const sentence =
    spans.length === 1
      ? `The same at each of the ${read} releases read, ${range}.`
      : `Changed ${changes.length} time${changes.length === 1 ? '' : 's'} over the ${read} releases read, ` +
        `${range}: ${changes.map((c) => `between ${c.between[0]} and ${c.between[1]}`).join(', ')}.`;
  return {
    sentence,
    spans: spans
      .map((s) => ({ from: s.from, to: s.to, read: s.read.length, ...spanSummary(record, s.outcome) }))
      .reverse(),
    changes,
    file: history.file,
  };
}

/** What an agent's behaviour history covers, in one sentence, with the cases that changed. */
export function behaviourHistorySummary(history: HookBehaviourHistory): {
  sentence: string;
  changed: string[];
  file: string;
} {
  const cases = Object.keys(history.cases).length;
  const changed = [...new Set(history.changes.map((c) => c.case))];
  const range = `${history.releases[0]} to ${history.releases.at(-1)}`;
  const read =
    history.read.length === history.releases.length
      ? `each of its ${history.releases.length} stable releases from ${range}`
      : `${history.read.length} of its ${history.releases.length} stable releases from ${range}`;
  const sentence =
    `The ${cases} cases were also run at ${read}. ` +
    (changed.length === 0
      ? 'Every case behaved the same at every release read.'
      : `${changed.length} case${changed.length === 1 ? '' : 's'} ` +
        `behaved differently at some release; ` +
        `the rows say between which releases.`);
  return { sentence, changed, file: history.file };
}

/**
 * What an agent's changelog says of its hook behaviour over releases: what was run, and each change with both outcomes.
 */
export interface BehaviourChangelog {
  sentence: string;
  /** The hooks page's behaviour section. */
  url: string;
  changes: { between: [string, string]; case: string; url: string; label: string; before: string; after: string }[];
}

export function behaviourChangelog(
  site: Pick<SiteModel, 'hookBehaviour' | 'hookBehaviourHistories'>,
  agent: AgentId,
  hooksUrl: string,
): BehaviourChangelog | undefined {
  const history = site.hookBehaviourHistories.find((h) => h.agent === agent);
  if (history === undefined) return undefined;
  const records = site.hookBehaviour.filter((r) => r.agent === agent);
  const changes = history.changes
    .map((c) => {
      const record = records.find((r) => r.case === c.case);
      if (record === undefined) return undefined;
      return {
        between: [c.between[0]!, c.between[1]!] as [string, string],
        case: c.case,
        url: `${hooksUrl}#case-${c.case}`,
        label: `${record.event} ${KIND_LABELS[record.kind] ?? record.kind} on ${record.tool}`,
        before: spanSummary(record, c.before).summary,
        after: spanSummary(record, c.after).summary,
      };
    })
    .filter((c) => c !== undefined)
    .reverse();
  return { sentence: behaviourHistorySummary(history).sentence, url: `${hooksUrl}#behaviour`, changes };
}

/** The rows of an agent's behaviour table, in case-file order. */
export function behaviourRows(
  site: Pick<SiteModel, 'hookBehaviour' | 'tools'> & Partial<Pick<SiteModel, 'hookBehaviourHistories'>>,
  agent: AgentId,
): BehaviourRow[] {
  const history = site.hookBehaviourHistories?.find((h) => h.agent === agent);
  return site.hookBehaviour
    .filter((r) => r.agent === agent)
    .map((r) => {
      const tool: ToolModel | undefined = toolForCall(site.tools, agent, r.tool);
      const index = r.call.hooks.findIndex(
        (h, i) => (r.call.hookEvents?.[i] ?? (h as Record<string, unknown>)['hook_event_name']) === r.event,
      );
      return {
        anchor: `case-${r.case}`,
        case: r.case,
        kind: r.kind,
        kindLabel: KIND_LABELS[r.kind] ?? r.kind,
        role: ROLE_LABELS[r.toolRole],
        description: r.description,
        event: r.event,
        tool: r.tool,
        toolUrl: tool && toolUrl(tool),
        hook: r.hookReturn,
        outcome: behaviourOutcome(r),
        modelSaw: r.modelSaw,
        answeredPayload: index >= 0 ? JSON.stringify(r.call.hooks[index], null, 2) : undefined,
        resultBlock: r.call.result === undefined ? undefined : JSON.stringify(r.call.result, null, 2),
        file: r.file,
        release: `${r.cli.package}@${r.cli.version}`,
        overReleases: caseOverReleases(r, history),
      };
    });
}

/**
 * The hook configuration every case of the agent ran with, when it is one and the same (else undefined: each record has
 * its own).
 */
export function sharedHookConfiguration(records: readonly HookBehaviourRecord[]): string | undefined {
  const texts = new Set(records.map((r) => JSON.stringify(r.hookConfiguration, null, 2)));
  return texts.size === 1 ? [...texts][0] : undefined;
}

/** catalog.json's `behaviour` entry of one record. */
export interface BehaviourEntry {
  case: string;
  kind: string;
  tool: string;
  event: string;
  hookReturn: HookBehaviourRecord['hookReturn'];
  /** The facts of the outcome, what it came to in words (`says`), and what surprises a hook author in it. */
  outcome: Omit<BehaviourOutcome, 'summary' | 'plain'> & { says: string; surprise?: string };
  modelSaw: HookBehaviourRecord['modelSaw'];
  release: string;
  evidence: string;
  /** The case at earlier releases, where the agent's behaviour history ran it. */
  overReleases?: { from: string; to: string; read: number; changes: [string, string][]; evidence: string };
}

export function behaviourEntries(
  records: readonly HookBehaviourRecord[],
  history?: HookBehaviourHistory,
): BehaviourEntry[] {
  return records.map((r) => {
    const { summary: _summary, plain, ...facts } = behaviourOutcome(r);
    const outcome = {
      ...facts,
      says: plain.sentence,
      ...(plain.surprise === undefined ? {} : { surprise: plain.surprise }),
    };
    const over = caseOverReleases(r, history);
    const overReleases = over && {
      from: over.spans.at(-1)!.from,
      to: over.spans[0]!.to,
      read: over.spans.reduce((n, s) => n + s.read, 0),
      changes: over.changes.map((c) => c.between).reverse(),
      evidence: over.file,
    };
    return {
      case: r.case,
      kind: r.kind,
      tool: r.tool,
      event: r.event,
      hookReturn: r.hookReturn,
      outcome,
      modelSaw: r.modelSaw,
      release: `${r.cli.package}@${r.cli.version}`,
      evidence: r.file,
      ...(overReleases ? { overReleases } : {}),
    };
  });
}

export interface BehaviourComparisonCell {
  agent: AgentId;
  /** The agent's cases of this kind and tool role (several: variants such as a string and an object output). */
  /**
   * `summary`: the outcome in two or three words (outcomeTerms' mark); `sentence`: in full, as the agent's hooks page
   * says it.
   */
  cases: {
    case: string;
    tool: string;
    url: string;
    summary: string;
    sentence: string;
    verdict: PlainOutcome['verdict'];
    surprise: string | undefined;
  }[];
}

export interface BehaviourComparisonRow {
  kind: string;
  kindLabel: string;
  phase: string;
  role: string;
  cells: BehaviourComparisonCell[];
}

/** `/hooks/`: one row per kind and tool role, one cell per agent (empty where no case of it was recorded). */
export function behaviourComparison(
  site: Pick<SiteModel, 'hookBehaviour'>,
  agents: readonly AgentId[],
  hooksPath: (agent: AgentId) => string,
): BehaviourComparisonRow[] {
  const kinds = Object.keys(KIND_LABELS);
  const roles = Object.keys(ROLE_LABELS) as HookBehaviourRecord['toolRole'][];
  const rows: BehaviourComparisonRow[] = [];
  for (const kind of kinds) {
    for (const role of roles) {
      const records = site.hookBehaviour.filter((r) => r.kind === kind && r.toolRole === role);
      if (records.length === 0) continue;
      rows.push({
        kind,
        kindLabel: KIND_LABELS[kind]!,
        phase: kindPhase(kind),
        role: ROLE_LABELS[role],
        cells: agents.map((agent) => ({
          agent,
          cases: records
            .filter((r) => r.agent === agent)
            .map((r) => {
              const { plain, hookWordsReached } = behaviourOutcome(r);
              return {
                case: r.case,
                tool: r.tool,
                url: `${hooksPath(agent)}#case-${r.case}`,
                summary: outcomeTerms(r.kind, plain, hookWordsReached).mark,
                sentence: plain.sentence,
                verdict: plain.verdict,
                surprise: plain.surprise,
              };
            }),
        })),
      });
    }
  }
  return rows;
}
