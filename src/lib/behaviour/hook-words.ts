/**
 * How the pages word an agent's hooks, from how its registry module says they are
 * written (HookMechanism.kind): commands that get the payload on their standard input,
 * chosen by a matcher (Claude Code, Copilot CLI …), or plugin functions that the CLI
 * calls for every tool with its arguments, with no matcher (OpenCode). Pure.
 */
import type { AgentId } from '../core/content-types.ts';
import { hookMechanismOf } from '../agents/hook-shape.ts';
import type { PluginWords } from '../agents/types.ts';

export interface HookWords {
  kind: 'command' | 'plugin';
  /** How the recordings were made: `with hooks that copy their standard input to a file`. */
  recorder: string;
  /** What one record is: `hook payload(s)`, `plugin call record(s)`. */
  record: (count: number) => string;
  /** What a tool's name in the records is used for. */
  namesUse: string;
  /** What the JSON Schemas describe: `the standard input`, `the arguments`. */
  schemaOf: string;
  /** The section of how a hook picks its tools. */
  choosingTitle: string;
  /** The hooks as things a tool call runs: `plugin functions`, `extension handlers`, `hook events`. */
  handlers: string;
  /** One of them: `plugin function`, `hook entry`. */
  handler: string;
}

const plural = (count: number, one: string, many: string) => (count === 1 ? one : many);

/** The plugin words unless the agent's module says others: OpenCode's plugin functions, handed their arguments. */
const OPENCODE_WORDS: PluginWords = {
  host: 'a plugin',
  handler: 'function',
  given: 'their arguments',
  record: 'plugin call record',
  schemaOf: 'the arguments of the plugin functions',
};

/** The words for an agent's hooks; an agent without a mechanism gets the command words. */
export function hookWords(agent: AgentId): HookWords {
  const mechanism = hookMechanismOf(agent);
  if (mechanism?.kind === 'plugin') {
    const { before, after } = mechanism.shape;
    const w = mechanism.pluginWords ?? OPENCODE_WORDS;
    return {
      kind: 'plugin',
      recorder: `with ${w.host} whose \`${before}\` and \`${after}\` ${w.handler}s write ${w.given} to a file`,
      record: (n) => plural(n, w.record, `${w.record}s`),
      namesUse:
        `what ${w.host} ${w.handler} reads to tell the tools apart, since every ${w.handler} is ` +
        `called for every tool`,
      schemaOf: w.schemaOf,
      choosingTitle: 'Choosing tools',
      handler: `${w.host.replace(/^an? /, '')} ${w.handler}`,
      handlers: `${w.host.replace(/^an? /, '')} ${w.handler}s`,
    };
  }
  return {
    kind: 'command',
    recorder: 'with hooks that copy their standard input to a file',
    record: (n) => plural(n, 'hook payload', 'hook payloads'),
    namesUse: 'what a matcher is compared with',
    schemaOf: 'the standard input',
    choosingTitle: 'Matchers',
    handler: 'hook entry',
    handlers: 'hook events',
  };
}
