/**
 * Availability claims checked against the captures. An editorial gate with a
 * `when` is a condition on a captured configuration (model, wire format, mode,
 * environment, arguments, settings); each is checked both ways:
 * - necessity: every configuration that advertises the tool satisfies each
 *   gate that `requires` it, no gate that `disables` it, and, when the tool
 *   has gates that `enable` it, at least one of them (or a `requires` gate
 *   that holds: what enables it may be unchecked);
 * - sufficiency: no configuration in which the checked gates say the tool is
 *   on (every `requires` holds, no `disables` holds, and an `enables` holds,
 *   or there is none and some `requires` does) lacks the tool, unless
 *   `notAdvertisedIn` names it with a reason, or a gate that might disable it
 *   has no condition the captures can check.
 * A gate naming models must list in `modelsCompared` the models the captures
 * ask for: it is established for those only.
 * Pure: the loader stage (src/lib/content/stages/gates.ts) gathers the facts.
 */
import type { Gate, GateCondition } from '../core/content-types.ts';

/** What a captured configuration was: the facts a gate's condition is checked against. */
export interface ConfigurationFacts {
  id: string;
  /** The model the captured request names. */
  model?: string;
  /** The wire format id of the captured request. */
  wire: string;
  mode: string;
  /** The run's environment variables that the configuration and the agent module set. */
  env: Readonly<Record<string, string>>;
  args: readonly string[];
  settings?: unknown;
  configToml?: string;
  /**
   * The entry of `model` in the model catalog the agent's binary embeds (null: the model has
   * none); absent when the agent has no catalog, where no catalog condition holds.
   */
  catalog?: Readonly<Record<string, unknown>> | null;
}

export interface GateProblem {
  /** JSON pointer inside the editorial file. */
  pointer: string;
  rule: 'gate-necessary' | 'gate-sufficient' | 'gate-models-compared' | 'gate-exception-known';
  message: string;
}

import type { GateStatus } from '../model/model.ts';
export type { GateStatus } from '../model/model.ts';

export interface GateCheck {
  problems: GateProblem[];
  statuses: GateStatus[];
}

/** Does `facts` satisfy `when`? Every member given must hold. */
export function satisfies(when: GateCondition, facts: ConfigurationFacts): boolean {
  if (when.model && (facts.model === undefined || !when.model.includes(facts.model))) return false;
  if (when.wire && !(when.wire as string[]).includes(facts.wire)) return false;
  if (when.mode && !(when.mode as string[]).includes(facts.mode)) return false;
  for (const [name, value] of Object.entries(when.env ?? {})) {
    const actual = Object.hasOwn(facts.env, name) ? facts.env[name] : null;
    if (actual !== value) return false;
  }
  if (when.args && !containsRun(facts.args, when.args)) return false;
  if (when.withoutArgs && containsRun(facts.args, when.withoutArgs)) return false;
  if (when.argsListing && !listsItem(facts.args, when.argsListing.flag, when.argsListing.item)) return false;
  if (when.argsMention !== undefined && !facts.args.some((a) => a.includes(when.argsMention!))) return false;
  for (const [path, value] of Object.entries(when.settings ?? {})) {
    const actual = atPath(facts.settings, path);
    if (value === null ? actual !== undefined : !sameJson(actual, value)) return false;
  }
  if (when.configToml !== undefined && !(facts.configToml ?? '').includes(when.configToml)) return false;
  if (
    when.catalogEntry !== undefined &&
    (facts.catalog === undefined || (facts.catalog !== null) !== when.catalogEntry)
  )
    return false;
  for (const [path, value] of Object.entries(when.catalog ?? {})) {
    if (!facts.catalog) return false;
    const actual = atPath(facts.catalog, path);
    if (value === null ? actual !== undefined && actual !== null : !sameJson(actual, value)) return false;
  }
  for (const [path, items] of Object.entries(when.catalogLists ?? {})) {
    const list = facts.catalog ? atPath(facts.catalog, path) : undefined;
    const anyOf: readonly string[] = typeof items === 'string' ? [items] : (items ?? []);
    if (!Array.isArray(list) || !anyOf.some((item) => list.includes(item))) return false;
  }
  if (when.anyOf && !when.anyOf.some((alternative) => satisfies(alternative, facts))) return false;
  return true;
}

/** A gate on the model holds only for the models the captures asked for: its modelsCompared must list exactly those. */
function modelGateProblems(gates: readonly Gate[], capturedModels: readonly string[]): GateProblem[] {
  const problems: GateProblem[] = [];
  gates.forEach((g, i) => {
    if (!g.when?.model) {
      if (g.modelsCompared)
        problems.push({
          pointer: `/availability/gates/${i}/modelsCompared`,
          rule: 'gate-models-compared',
          message: 'modelsCompared goes with a `when` that names models',
        });
      return;
    }
    const listed = [...(g.modelsCompared ?? [])].sort();
    if (JSON.stringify(listed) !== JSON.stringify(capturedModels)) {
      problems.push({
        pointer: `/availability/gates/${i}${g.modelsCompared ? '/modelsCompared' : ''}`,
        rule: 'gate-models-compared',
        message:
          `a gate on the model is established only for the models the captures ask for: modelsCompared must ` +
          `be ${JSON.stringify(capturedModels)}${g.modelsCompared ? `, not ${JSON.stringify(listed)}` : ''}`,
      });
    }
  });
  return problems;
}

/** A gate with its index in the editorial file's `availability.gates`, for pointers. */
type IndexedGate = { g: Gate; i: number };

/** A tool's gates by what they say of it. */
interface GatesByEffect {
  requires: IndexedGate[];
  enables: IndexedGate[];
  disables: IndexedGate[];
}

/** Does gate `i` hold in the configuration at hand (undefined: it has no condition the captures can check)? */
type Holds = (i: number) => boolean | undefined;

function byEffect(gates: readonly Gate[]): GatesByEffect {
  const of = (effect: Gate['effect']) => gates.map((g, i) => ({ g, i })).filter(({ g }) => g.effect === effect);
  return { requires: of('requires'), enables: of('enables'), disables: of('disables') };
}

function describe(g: Gate): string {
  return `${g.kind} ${g.name}${g.value !== undefined ? ` = ${g.value}` : ''}`;
}

/** What a page says of each gate: unchecked, or the configurations that satisfy it (and the models compared). */
function gateStatuses(
  gates: readonly Gate[],
  truth: readonly (boolean[] | undefined)[],
  configurations: readonly ConfigurationFacts[],
  capturedModels: string[],
): GateStatus[] {
  return gates.map((g, i) => {
    const row = truth[i];
    if (!row) return { kind: 'unchecked' };
    const status: GateStatus = {
      kind: 'checked',
      satisfiedBy: configurations.filter((_, k) => row[k]).map((c) => c.id),
      total: configurations.length,
    };
    if (g.when?.model) status.modelsCompared = capturedModels;
    return status;
  });
}

/** An exception (`notAdvertisedIn`) must name a captured configuration that indeed lacks the tool. */
function exceptionProblems(
  notAdvertisedIn: readonly { configuration: string; reason: string }[],
  configurations: readonly ConfigurationFacts[],
  advertisedIn: ReadonlySet<string>,
): GateProblem[] {
  const known = new Set(configurations.map((c) => c.id));
  const problems: GateProblem[] = [];
  notAdvertisedIn.forEach((n, i) => {
    const pointer = `/availability/notAdvertisedIn/${i}/configuration`;
    if (!known.has(n.configuration))
      problems.push({ pointer, rule: 'gate-exception-known', message: `no captured configuration ${n.configuration}` });
    else if (advertisedIn.has(n.configuration))
      problems.push({
        pointer,
        rule: 'gate-exception-known',
        message: `${n.configuration} advertises the tool after all`,
      });
  });
  return problems;
}

/** Necessity, in configuration `c` that advertises the tool: what the gates say it needs holds there. */
function necessityProblems(
  c: ConfigurationFacts,
  holds: Holds,
  { requires, enables, disables }: GatesByEffect,
): GateProblem[] {
  const problems: GateProblem[] = [];
  for (const { g, i } of requires) {
    if (holds(i) === false)
      problems.push({
        pointer: `/availability/gates/${i}`,
        rule: 'gate-necessary',
        message:
          `the gate says the tool requires ${describe(g)}, but configuration ${c.id} advertises it without ` +
          `that${c.model ? ` (model ${c.model}, ${c.wire})` : ''}`,
      });
  }
  for (const { g, i } of disables) {
    if (holds(i) === true)
      problems.push({
        pointer: `/availability/gates/${i}`,
        rule: 'gate-necessary',
        message:
          `the gate says ${describe(g)} disables the tool, but configuration ${c.id} satisfies it and ` +
          `advertises the tool`,
      });
  }
  // A `requires` gate that holds may stand for an enabling condition the captures cannot check.
  if (
    enables.length > 0 &&
    enables.every(({ i }) => holds(i) === false) &&
    !requires.some(({ i }) => holds(i) === true)
  )
    problems.push({
      pointer: `/availability/gates/${enables[0]!.i}`,
      rule: 'gate-necessary',
      message:
        `configuration ${c.id} advertises the tool, but none of the gates that enable it ` +
        `(${enables.map(({ g }) => describe(g)).join('; ')}) holds there`,
    });
  return problems;
}

/**
 * Sufficiency, in configuration `c` that lacks the tool and is not excused: the checked gates must not say it is on.
 * A gate with no checkable condition that might disable it leaves the question open.
 */
function sufficiencyProblem(
  c: ConfigurationFacts,
  holds: Holds,
  { requires, enables, disables }: GatesByEffect,
): GateProblem | undefined {
  if (requires.some(({ i }) => holds(i) !== true)) return undefined;
  if (disables.some(({ i }) => holds(i) !== false)) return undefined;
  const enabling = enables.find(({ i }) => holds(i) === true);
  const cause = enabling ?? (enables.length === 0 ? requires[0] : undefined);
  if (!cause) return undefined;
  return {
    pointer: `/availability/gates/${cause.i}`,
    rule: 'gate-sufficient',
    message:
      `configuration ${c.id} satisfies every checked gate ` +
      `(${[...requires, ...(enabling ? [enabling] : [])].map(({ g }) => describe(g)).join('; ')}) and no ` +
      `gate that disables the tool, yet does not advertise it; name it in availability.notAdvertisedIn with ` +
      `the reason, or correct the gate`,
  };
}

/** Checks a tool's gates against every captured configuration of its agent. */
export function checkGates(
  gates: readonly Gate[],
  configurations: readonly ConfigurationFacts[],
  advertisedIn: ReadonlySet<string>,
  notAdvertisedIn: readonly { configuration: string; reason: string }[] = [],
): GateCheck {
  const capturedModels = [
    ...new Set(configurations.map((c) => c.model).filter((m): m is string => m !== undefined)),
  ].sort();
  // truth[i][k]: does gate i hold in configuration k (undefined row: the gate has no condition to check).
  const truth = gates.map((g) => (g.when ? configurations.map((c) => satisfies(g.when!, c)) : undefined));
  const effects = byEffect(gates);
  const excused = new Set(notAdvertisedIn.map((n) => n.configuration));
  const problems = [
    ...modelGateProblems(gates, capturedModels),
    ...exceptionProblems(notAdvertisedIn, configurations, advertisedIn),
  ];
  configurations.forEach((c, k) => {
    const holds: Holds = (i) => truth[i]?.[k];
    if (advertisedIn.has(c.id)) problems.push(...necessityProblems(c, holds, effects));
    else if (!excused.has(c.id)) {
      const problem = sufficiencyProblem(c, holds, effects);
      if (problem) problems.push(problem);
    }
  });
  return { problems, statuses: gateStatuses(gates, truth, configurations, capturedModels) };
}

/** Is `item` among the list given after `flag` (`--flag a,b`, `--flag "a b"` or `--flag=a,b`)? */
function listsItem(args: readonly string[], flag: string, item: string): boolean {
  return args.some((a, i) => {
    const list = a === flag ? args[i + 1] : a.startsWith(`${flag}=`) ? a.slice(flag.length + 1) : undefined;
    return list?.split(/[\s,]+/).includes(item);
  });
}

/** Does `list` contain `run` as consecutive elements? */
function containsRun(list: readonly string[], run: readonly string[]): boolean {
  for (let i = 0; i + run.length <= list.length; i++) if (run.every((a, k) => list[i + k] === a)) return true;
  return false;
}

/** The value at a dotted path of plain objects; undefined when a step is missing. */
export function atPath(value: unknown, path: string): unknown {
  let here = value;
  for (const key of path.split('.')) {
    if (here === null || typeof here !== 'object' || Array.isArray(here) || !Object.hasOwn(here, key)) return undefined;
    here = (here as Record<string, unknown>)[key];
  }
  return here;
}

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a).sort();
  const kb = Object.keys(b).sort();
  return (
    JSON.stringify(ka) === JSON.stringify(kb) &&
    ka.every((k) => sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  );
}

/** What a tool page says beside a gate about its check against the captures. */
export function gateStatusText(status: GateStatus | undefined): string {
  if (!status || status.kind === 'unchecked') return 'not checked against the captures';
  const held = status.satisfiedBy.length;
  const where =
    held === 0
      ? 'no captured configuration satisfies it'
      : `holds in ${held} of ${status.total} captured configurations`;
  const models = status.modelsCompared
    ? `; established for the captured models only (${status.modelsCompared.join(', ')})`
    : '';
  return `checked against the captures: ${where}${models}`;
}
