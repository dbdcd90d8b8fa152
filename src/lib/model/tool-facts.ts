/**
 * What the evidence says of one tool beyond its own files, computed once when content is loaded
 * (content/tool-facts.ts) and kept on its model as plain data: the pages arrange and word these facts, and compute
 * none of them.
 */
import type { ToolHistoryFacts } from './history-facts.ts';
import type { PayloadCheckRecord } from './payload-check-record.ts';

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
}

/** The facts of a tool before the loader's last stage computes them. */
export function noToolFacts(): ToolFacts {
  return {
    callableNames: [],
    everyName: [],
    examplesRelease: undefined,
    payloadCheck: undefined,
    history: { formerNames: [], fieldSince: new Map(), place: { kind: 'none' }, notes: [], untracked: [] },
  };
}
