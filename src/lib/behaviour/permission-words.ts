/**
 * What a permission rule came to on a real call, said plainly: "Refused; the model read …",
 * "Ran: this deny rule did not stop the call", "Tested nothing: the tool is not offered in
 * this configuration". Also where the rule was written (a flag, or the file that holds it),
 * and the rules of thumb that open an agent's permissions page. Pure.
 */
import type { PermissionRecord } from '../model/model.ts';
import { excerpt } from './outcome-words.ts';
import { clausesOf, warningsOf, type RuleOfThumb } from './rules-of-thumb.ts';

export type PermissionVerdict = 'ran' | 'refused' | 'waited' | 'stopped' | 'removed' | 'not-offered' | 'tested-nothing';

export interface PermissionPlain {
  verdict: PermissionVerdict;
  /** One or two sentences. */
  sentence: string;
  /** Two or three words for a comparison cell. */
  mark: string;
  surprise: string | undefined;
}

type Facts = Pick<PermissionRecord, 'rule' | 'offered' | 'outcome' | 'modelSaw' | 'configuration' | 'cliExit'>;

/**
 * The outcome of one case. `offeredIn`: the configurations whose captures offer the tool (no
 * rule), which tells a rule that took the tool away from a configuration that never had it.
 */
export function permissionPlain(r: Facts, offeredIn: readonly string[]): PermissionPlain {
  const read =
    r.modelSaw.result === null ? 'no result reached the model' : `the model read ${excerpt(r.modelSaw.result)}`;
  const says = r.rule.says;
  if (!r.offered) return notOfferedPlain(r, offeredIn, read);
  if (r.outcome === 'no-result') return noResultPlain(r, read);
  if (r.outcome === 'did-not-run') {
    const surprise = says === 'allow' ? 'This allow rule did not cover the call.' : undefined;
    return { verdict: 'refused', sentence: `Refused; ${read}.`, mark: 'refused', surprise };
  }
  const surprise =
    says === 'deny' || says === 'exclude' || says === 'ask' ? `This ${says} rule did not stop the call.` : undefined;
  return { verdict: 'ran', sentence: `Ran; ${read}.`, mark: 'ran', surprise };
}

/**
 * A case whose tool the model was not offered: the rule took it away when the configuration
 * offers it without one; else the case tested nothing, or an allow rule or mode did not bring it in.
 */
function notOfferedPlain(r: Facts, offeredIn: readonly string[], read: string): PermissionPlain {
  const says = r.rule.says;
  if (offeredIn.includes(r.configuration)) {
    return {
      verdict: 'removed',
      sentence:
        `Taken out of the model's list: the configuration offers the tool without this rule, and with it ` +
        `the tool was not offered; ${read}.`,
      mark: 'taken away',
      surprise: undefined,
    };
  }
  const elsewhere = offeredIn.length > 0 ? ` (it is offered in ${offeredIn.map((c) => `\`${c}\``).join(', ')})` : '';
  if (says === 'none') {
    return {
      verdict: 'not-offered',
      sentence:
        `Not offered: with no rule, this configuration (\`${r.configuration}\`) does not give the model ` +
        `the tool${elsewhere}; ${read}.`,
      mark: 'not offered',
      surprise: undefined,
    };
  }
  if (says === 'allow' || says === 'mode') {
    return {
      verdict: 'not-offered',
      sentence:
        `Still not offered: this configuration (\`${r.configuration}\`) does not give the model the ` +
        `tool${elsewhere}, and this rule did not bring it in; ${read}.`,
      mark: 'still not offered',
      surprise: `This ${says === 'mode' ? 'mode' : 'allow rule'} did not bring the tool into the model's list.`,
    };
  }
  return {
    verdict: 'tested-nothing',
    sentence:
      `Tested nothing: this configuration (\`${r.configuration}\`) does not give the model the tool, rule ` +
      `or not${elsewhere}; ${read}.`,
    mark: 'tested nothing',
    surprise: undefined,
  };
}

/** A case where no result reached the model: the CLI waited until it was killed, or ended the run. */
function noResultPlain(r: Facts, read: string): PermissionPlain {
  const says = r.rule.says;
  if (r.cliExit.killedAfterSeconds !== undefined) {
    return {
      verdict: 'waited',
      sentence: `Waited: ${read}, and the CLI was still waiting after ${r.cliExit.killedAfterSeconds} s.`,
      mark: 'waits for ever',
      surprise: says === 'ask' ? '`ask` waits for ever when no one can be asked.' : 'The CLI waited for ever.',
    };
  }
  const words = r.cliExit.said === undefined ? '' : `; it said ${excerpt(r.cliExit.said)}`;
  return {
    verdict: 'stopped',
    sentence:
      `Stopped the run: the call did not run, and the CLI exited ${r.cliExit.code ?? 'on a signal'} ` +
      `without sending the model a result${words}.`,
    mark: 'run ended',
    surprise:
      says === 'ask'
        ? '`ask` with no one to ask ends the whole run.'
        : "The refusal ended the whole run: the model is never told, only the CLI's own output says why.",
  };
}

/**
 * Where the rule was written: `the --allow-tool flag`, or the configuration file whose text
 * holds it (`$WORKDIR/.claude/settings.json`; `settings`: the agent's settings file, `settingsFile`).
 */
export function ruleWhere(
  r: Pick<PermissionRecord, 'rule' | 'args' | 'configurationFiles'>,
  settingsFile: string | undefined,
): string | undefined {
  const { form, text } = r.rule;
  if (form === 'none') return undefined;
  if (r.args.includes(form)) return `the ${form} flag`;
  if (text === undefined) return undefined;
  const holder = (r.configurationFiles ?? []).find((f) =>
    (typeof f.content === 'string' ? f.content : JSON.stringify(f.content)).includes(text),
  );
  if (holder === undefined) return undefined;
  return holder.where === 'settings'
    ? settingsFile === undefined
      ? 'the settings file'
      : `$HOME/${settingsFile}`
    : holder.where;
}

/** What a rule asks, as a rule of thumb's topic, in page order. */
const TOPICS: readonly [PermissionRecord['rule']['says'], string][] = [
  ['deny', 'Deny rules'],
  ['ask', 'Ask rules'],
  ['allow', 'Allow rules'],
  ['exclude', 'Rules that take a tool away'],
  ['mode', 'Modes'],
  ['none', 'With no rule'],
];

/** The rules of thumb of an agent's permissions page: per kind of rule, the outcomes with their cases. */
export function permissionRulesOfThumb(
  rows: readonly {
    case: string;
    anchor: string;
    tool: string;
    rule: PermissionRecord['rule'];
    plain: PermissionPlain;
  }[],
): RuleOfThumb[] {
  return TOPICS.flatMap(([says, topic]) => {
    const members = rows.filter((r) => r.rule.says === says);
    if (members.length === 0) return [];
    const clauses = clausesOf(
      members.map((row) => ({
        says: CLAUSES[row.plain.verdict],
        case: { case: row.case, anchor: row.anchor, label: `${row.rule.text ?? 'no rule'} on ${row.tool}` },
      })),
    );
    return [{ topic, clauses, warnings: warningsOf(members.map((r) => r.plain.surprise)) }];
  });
}

const CLAUSES: Readonly<Record<PermissionVerdict, string>> = {
  ran: 'the call ran',
  refused: 'the call was refused',
  waited: 'the CLI waited for ever',
  stopped: 'the CLI ended the whole run',
  removed: "the tool was taken out of the model's list",
  'not-offered': "the tool was not in the model's list",
  'tested-nothing': 'tested nothing: the tool is not offered in that configuration',
};
