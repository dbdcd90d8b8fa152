/**
 * What the evidence says of one tool beyond its own files, computed once when content is loaded
 * (content/tool-facts.ts) and kept on its model as plain data: the pages arrange and word these facts, and compute
 * none of them.
 */
import type { ToolHistoryFacts } from './history-facts.ts';
import type { PayloadCheckRecord } from './payload-check-record.ts';
import type { SubagentLine, SubagentTable } from './subagent-facts.ts';

export interface ToolFacts {
  /** Its name, then its accepted aliases and former names: every name a call may use (tool-names.ts). */
  callableNames: string[];
  /** Every name it is known by, SDK type names too: what search matches. */
  everyName: string[];
  /** `<product> <version>`s that recorded its examples, oldest first; undefined without examples. */
  examplesRelease: string | undefined;
  /** What its "Check a payload" form checks; undefined for a tool without a schema to check (a grammar). */
  payloadCheck: PayloadCheckRecord | undefined;
  /** What its agent's release histories say of it. */
  history: ToolHistoryFacts;
  /** What its own recorded hook payloads say: the names hooks gave it, the first payload before a call of it. */
  hooks: { names: string[]; firstPayload: FirstHookPayload | undefined };
  /**
   * Its place in its agent's subagent tool sets: the table, on the tool that starts the subagents; which types were
   * offered it, where tool sets are recorded.
   */
  subagents: { table: SubagentTable | undefined; line: SubagentLine | undefined };
  /** The permission cases that called it (by any name it answers to), in case-file order. */
  permissionCases: string[];
}

/** The first payload a hook received before a main-thread call of the tool, as recorded. */
export interface FirstHookPayload {
  /** Its event: the one before the call. */
  event: string;
  payload: unknown;
  /** `<product> <version>` that recorded it. */
  release: string;
  /** The scenario it comes from: its block under Examples. */
  scenario: string;
  /** The events the call's recorded payloads came on, in the order first seen. */
  events: string[];
}

/** The facts of a tool before the loader's last stage computes them. */
export function noToolFacts(): ToolFacts {
  return {
    callableNames: [],
    everyName: [],
    examplesRelease: undefined,
    payloadCheck: undefined,
    history: { formerNames: [], fieldSince: new Map(), place: { kind: 'none' }, notes: [], untracked: [] },
    hooks: { names: [], firstPayload: undefined },
    subagents: { table: undefined, line: undefined },
    permissionCases: [],
  };
}
