/**
 * `agent-tools`: the reference's data in a terminal, a CI job or an agent. One verb per question
 * (show, search, names, diff, check, changes) and `mcp`, which serves the same over stdio. Text for
 * people by default, `--json` for programs; nothing leaves the machine: the data is the snapshot
 * the package was built with.
 *
 * Exit codes (EXIT below): 0 answered (and, for check, valid); 1 check refused the payload or
 * answer; 2 the command line is wrong; 3 the agent, tool, event, job or release is not in the
 * snapshot; 4 the input could not be read (no such file, not JSON).
 */
import { readFileSync } from 'node:fs';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { changes, type ChangesOptions } from './changes.ts';
import { checkAgainst, checkTarget, UnreadableInput } from './check.ts';
import { diff } from './diff.ts';
import { changesText, checkText, diffAnswerText, namesText, searchText, showText, type Style } from './format.ts';
import { NotFound } from './lookup.ts';
import { names } from './names.ts';
import { search } from './search.ts';
import { show } from './show.ts';
import type { Snapshot } from './snapshot.ts';

export const EXIT = { ok: 0, refused: 1, usage: 2, notFound: 3, unreadable: 4 } as const;

/** What a run reads and writes: the process's streams, or a test's. */
export interface Io {
  out(text: string): void;
  err(text: string): void;
  /** Standard input, read whole (for `check … -`). */
  readStdin(): Promise<string>;
  colour: boolean;
  /** Serves `agent-tools mcp` until its input ends. */
  serveMcp(snapshot: Snapshot): Promise<void>;
}

class UsageError extends Error {}

type Options = NonNullable<ParseArgsConfig['options']>;

interface Verb {
  usage: string;
  about: string;
  options: Options;
  /** Lines that explain the options and arguments. */
  details: string[];
  run(snapshot: Snapshot, args: string[], values: Record<string, unknown>, io: Io): Promise<[unknown, string, number]>;
}

const JSON_OPTION: Options = { json: { type: 'boolean' } };

function need(args: string[], count: number, usage: string): void {
  if (args.length < count) throw new UsageError(`missing arguments: agent-tools ${usage}`);
  if (args.length > count) throw new UsageError(`too many arguments: agent-tools ${usage}`);
}

async function readInput(path: string | undefined, io: Io): Promise<string> {
  if (path === undefined || path === '-') return io.readStdin();
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new UnreadableInput(
      `Cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
}

const VERBS: Record<string, Verb> = {
  show: {
    usage: 'show <agent> <tool> [--release R] [--json]',
    about: "a tool's summary, where it is turned on, its input and result fields, its page",
    options: { ...JSON_OPTION, release: { type: 'string' } },
    details: [
      '<agent>      an agent id or product name, any letter case (`agent-tools --version` lists them)',
      '<tool>       the tool by name, URL name or alias, any letter case: Bash, exec_command',
      '--release R  the fields of an earlier release whose schemas the site publishes',
    ],
    async run(snapshot, args, values, io) {
      need(args, 2, this.usage);
      const a = show(snapshot, args[0]!, args[1]!, values.release as string | undefined);
      return [a, showText(a, style(io)), EXIT.ok];
    },
  },
  search: {
    usage: 'search <text> [--limit N] [--json]',
    about: 'tools, hook events, jobs and fields by name, exact spelling first',
    options: { ...JSON_OPTION, limit: { type: 'string' } },
    details: ['--limit N    list at most N (50)'],
    async run(snapshot, args, values, io) {
      need(args, 1, this.usage);
      const limit = values.limit === undefined ? 50 : Number(values.limit);
      if (!Number.isInteger(limit) || limit < 1) throw new UsageError('--limit takes a whole number above 0');
      const a = search(snapshot, args[0]!, limit);
      return [a, searchText(a, style(io)), EXIT.ok];
    },
  },
  names: {
    usage: 'names <tool-or-job> [--json]',
    about: 'the same job in every agent, with the names hooks and permission rules use',
    options: { ...JSON_OPTION },
    details: ['<tool-or-job>  a job (run-shell-command, "Read a file") or a tool name (Bash, apply_patch)'],
    async run(snapshot, args, _values, io) {
      need(args, 1, this.usage);
      const a = names(snapshot, args[0]!);
      return [a, namesText(a, style(io)), EXIT.ok];
    },
  },
  diff: {
    usage: 'diff <agent> <tool> <from> <to> [--source capture|sdk] [--json]',
    about: "a tool's definition change between two releases read, texts word for word",
    options: { ...JSON_OPTION, source: { type: 'string' } },
    details: [
      '<from> <to>  two releases the site read (`show` and the tool page list them)',
      '--source S   the history to read: capture (what the CLI tells its model) or sdk (published types)',
    ],
    async run(snapshot, args, values, io) {
      need(args, 4, this.usage);
      const a = diff(snapshot, args[0]!, args[1]!, args[2]!, args[3]!, values.source as string | undefined);
      return [a, diffAnswerText(a, style(io)), EXIT.ok];
    },
  },
  check: {
    usage: 'check <agent> <event> [file|-] [--answer] [--tool T] [--json]',
    about: "validates a hook's payload, or its answer, against the recorded schemas",
    options: { ...JSON_OPTION, answer: { type: 'boolean' }, tool: { type: 'string' } },
    details: [
      '[file|-]     the JSON to check; standard input when - or left out',
      "--answer     check what a hook printed (its answer) against the event's output schema",
      "--tool T     check against tool T's hook schema; by default, the tool the payload names, if its",
      "             hooks were recorded for the event, else the event's payload schema",
      'Exit 0 when valid, 1 when not, with each error as path, words, JSON Pointer and rule.',
    ],
    async run(snapshot, args, values, io) {
      if (args.length < 2 || args.length > 3) throw new UsageError(`agent-tools ${this.usage}`);
      const options = { answer: values.answer === true, ...(values.tool ? { tool: values.tool as string } : {}) };
      const target = checkTarget(snapshot, args[0]!, args[1]!, options);
      const a = checkAgainst(snapshot, target, await readInput(args[2], io));
      return [a, checkText(a, style(io)), a.valid ? EXIT.ok : EXIT.refused];
    },
  },
  changes: {
    usage: 'changes [--since DATE] [--agent A] [--breaking] [--json]',
    about: 'what changed, release by release, newest first',
    options: { ...JSON_OPTION, since: { type: 'string' }, agent: { type: 'string' }, breaking: { type: 'boolean' } },
    details: [
      '--since DATE  releases published on or after a day (2026-11-01) or time',
      '--agent A     one agent only',
      '--breaking    only the changes that break callers',
    ],
    async run(snapshot, args, values, io) {
      need(args, 0, this.usage);
      const options: ChangesOptions = {
        ...(values.since === undefined ? {} : { since: values.since as string }),
        ...(values.agent === undefined ? {} : { agent: values.agent as string }),
        breaking: values.breaking === true,
      };
      let a: ReturnType<typeof changes>;
      try {
        a = changes(snapshot, options);
      } catch (error) {
        if (error instanceof RangeError) throw new UsageError(error.message);
        throw error;
      }
      return [a, changesText(a, style(io)), EXIT.ok];
    },
  },
  mcp: {
    usage: 'mcp',
    about: 'an MCP server over stdio with the same lookups, and each tool schema as a resource',
    options: {},
    details: ['Add it to an agent as a stdio server whose command is `agent-tools mcp` (see the README).'],
    async run(snapshot, args, _values, io) {
      need(args, 0, this.usage);
      await io.serveMcp(snapshot);
      return [undefined, '', EXIT.ok];
    },
  },
};

const style = (io: Io): Style => ({ colour: io.colour });

function versionText(snapshot: Snapshot): string {
  const { info } = snapshot;
  return (
    `agent-tools ${info.version}\n` +
    `data: ${info.site}, built from\n` +
    `${info.agents.map((a) => `  ${a.product} ${a.version} (checked ${a.checked})`).join('\n')}\n`
  );
}

function helpText(): string {
  const width = Math.max(...Object.values(VERBS).map((v) => v.usage.length));
  return [
    'agent-tools: the built-in tools of coding-agent CLIs, from a snapshot of the reference site.',
    '',
    'Usage:',
    ...Object.values(VERBS).map((v) => `  agent-tools ${v.usage.padEnd(width)}  ${v.about}`),
    '  agent-tools --version',
    '',
    '`agent-tools <verb> --help` explains a verb. Exit codes: 0 answered (check: valid), 1 check refused,',
    '2 wrong command line, 3 not in the snapshot, 4 input unreadable.',
    '',
  ].join('\n');
}

function verbHelp(verb: Verb): string {
  return [
    `agent-tools ${verb.usage}`,
    '',
    `${verb.about[0]!.toUpperCase()}${verb.about.slice(1)}.`,
    '',
    ...verb.details,
    '--json       the answer as JSON, for programs',
    '',
  ].join('\n');
}

/** Runs one command line; resolves to the exit code. */
export async function main(argv: readonly string[], snapshot: () => Snapshot, io: Io): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.out(helpText());
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  if (name === '--version' || name === '-v') {
    io.out(versionText(snapshot()));
    return EXIT.ok;
  }
  const verb = VERBS[name];
  if (!verb) {
    io.err(`agent-tools: no verb ${JSON.stringify(name)}.\n\n${helpText()}`);
    return EXIT.usage;
  }
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: [...rest],
      options: { ...verb.options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    io.err(`agent-tools ${name}: ${(error as Error).message}\n\n${verbHelp(verb)}`);
    return EXIT.usage;
  }
  if (parsed.values.help) {
    io.out(verbHelp(verb));
    return EXIT.ok;
  }
  const json = parsed.values.json === true;
  try {
    const [answer, text, code] = await verb.run(snapshot(), parsed.positionals, parsed.values, io);
    if (name !== 'mcp') io.out(json ? `${JSON.stringify(answer, null, 2)}\n` : text);
    return code;
  } catch (error) {
    const code =
      error instanceof UsageError
        ? EXIT.usage
        : error instanceof NotFound
          ? EXIT.notFound
          : error instanceof UnreadableInput
            ? EXIT.unreadable
            : undefined;
    if (code === undefined) throw error;
    if (json) io.out(`${JSON.stringify({ error: (error as Error).message, exitCode: code }, null, 2)}\n`);
    io.err(`agent-tools ${name}: ${(error as Error).message}\n`);
    if (code === EXIT.usage) io.err(`\n${verbHelp(verb)}`);
    return code;
  }
}
