/**
 * What every agent module (src/lib/agents/<agent>.ts) declares: who it is, which
 * npm package and wire format, where its executable sits in the installed
 * package, and how the capture script runs one configuration of it.
 */
import type { WireFormatId } from '../wire/index.ts';
import type { StubReply, WireQuirks, WireRequest } from '../wire/types.ts';
import type { JsonRecord } from '../core/json.ts';

/** A JSON object, as settings files hold. */
export type JsonObject = { [key: string]: unknown };

/** Configuration keys of content/capture-matrix.json that only some agents take. */
export type ConfigurationOption = 'configToml' | 'settings';

/** How a configuration runs the CLI (content/capture-matrix.json `mode`). */
export type Mode = 'exec' | 'print' | 'interactive' | 'sdk';

/** Everything an agent needs to build the invocation of one configuration; placeholders already expanded. */
export interface InvocationContext {
  mode: Mode;
  /** The configuration's extra arguments. */
  args: readonly string[];
  /** The configuration's extra environment variables. */
  env: Readonly<Record<string, string>>;
  /** The configuration's extra config.toml lines (Codex), if any. */
  configToml?: string | undefined;
  /** The configuration's settings, merged over the agent's own (agents with `settingsFile` only). */
  settings?: JsonObject | undefined;
  /** The fixed minimal environment every run starts from (nothing is inherited). */
  baseEnv: Readonly<Record<string, string>>;
  /** The executable inside the installed package (Agent.binary, resolved). */
  binary: string;
  /** The Node.js binary, for agents shipped as scripts. */
  node: string;
  home: string;
  workdir: string;
  /** `http://127.0.0.1:<port>`: the recording stub. */
  stubUrl: string;
  /** The prompt of every run. */
  prompt: string;
  /** The stand-in API key the CLI is given. */
  apiKey: string;
  /** The release being run when it is not the pin (capture history); flags a release predates are left out. */
  release?: string | undefined;
}

/** How the prompt reaches the CLI, and so how the run ends. */
export type PromptInput =
  /** Written to standard input, which is then closed; the CLI exits by itself. */
  | { kind: 'stdin'; text: string }
  /** The prompt is on the command line; standard input is closed at once and the CLI exits by itself. */
  | { kind: 'argument' }
  /**
   * JSON lines written to standard input, which is closed once a JSON line of standard output satisfies `closeWhen`.
   */
  | { kind: 'stream'; lines: string[]; closeWhen(message: unknown): boolean }
  /**
   * The prompt is on the command line of a pseudo-terminal session; the run is ended once the main request was
   * answered.
   */
  | { kind: 'pty' };

export interface Invocation {
  command: string;
  args: string[];
  env: Record<string, string>;
  input: PromptInput;
  /** Files to write before the run (absolute path → text). */
  files: Map<string, string>;
  /**
   * End the run once the turn that answers the prompt has been answered, as interactive runs
   * are, instead of waiting for the CLI to exit: a mode that keeps sending turns of its own
   * after the first (Copilot CLI's autopilot) is captured by its first turn, and a release
   * that loops there is not a failed run. A run that exits by itself first is judged by its
   * exit code as usual.
   */
  endAfterTurn?: boolean;
  /**
   * Fixed replies of the recording stub to requests that are not model turns, by
   * `<METHOD> <path>` (path without its query): what the CLI fetches at start and would fetch
   * from a service its users reach (OpenCode's model catalogue, `GET /api.json`). Asked after
   * `services` and before the wire formats' replies.
   */
  stubReplies?: Readonly<Record<string, StubReply>>;
  /**
   * The services besides its model API that the run points the CLI at, answered by the
   * recording stub: the module's own replies (made up, never copied from a real service) to
   * the requests it knows, undefined for the others, which go on to `stubReplies`, the wire
   * formats and the 404. Asked after the run's scripted replies (payload runs). Pure. Copilot
   * CLI signed in with a stand-in login: its GitHub and Copilot API endpoints.
   */
  services?(request: StubRequest): StubReply | undefined;
}

/** A request to the recording stub, as an invocation's `services` sees it. */
export interface StubRequest {
  method: string;
  /** The path without its query. */
  path: string;
  /** Header names in lower case. */
  headers: Readonly<Record<string, string>>;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: unknown;
}

/** The name of the stub MCP server that capture configurations declare (scripts/lib/capture/mcp-server.ts). */
export const STUB_MCP_SERVER = 'capture';

/** How an agent names the tools of an MCP server, for the one page that stands for them all. */
export interface McpNaming {
  /** The name pattern shown on the site: `mcp__<server>__<tool>`. */
  family: string;
  /** The namespace pattern, when the agent groups a server's tools in a namespace: `mcp__<server>`. */
  namespace?: string;
  /** Is a captured tool's full name a tool of the stub MCP server (STUB_MCP_SERVER)? */
  isStubServerTool(fullName: string): boolean;
  /**
   * The capture configuration that offers the stub server's tool by name: what npm run mcp-naming-history captures at
   * earlier releases.
   */
  configuration: string;
  /**
   * The one name of a tool that some wire formats put in a namespace and others not, when its
   * namespaced full name says the same twice (Copilot CLI over Responses: `<server>.<server>-<tool>`
   * for `<server>-<tool>`); undefined otherwise. Both forms then make one page.
   */
  unnamespaced?(tool: { name: string; namespace?: string }): string | undefined;
}

/** Something a script cannot do for an agent yet, and why: scripts say it instead of failing. */
export interface NotCovered {
  /**
   * Why, as a sentence a reader of the agent page can act on (the scripts print it, the page
   * shows it): over 20 characters, so that a placeholder such as "n/a" or "todo" is refused
   * (test/unit/agents.test.ts).
   */
  readonly none: string;
}

/** How scripts/history-captures.ts reads an agent's earlier releases. */
export interface CaptureHistoryPlan {
  /** The configurations of the capture matrix run in every release read. */
  readonly configurations: readonly string[];
  /** Read every step-th release before bisecting. */
  readonly step: number;
  /** The oldest release covered (`from`), or the newest `last` releases up to the pin. */
  readonly range: { readonly from: string } | { readonly last: number };
  /**
   * Why the history starts where it does, when the registry lists releases before that one:
   * what those releases are, as the agent page states it beside the history's range.
   */
  readonly startsAt?: string;
  /**
   * Configurations proposed for `configurations` that this history has not been run with
   * yet: the tools only they advertise are untracked until its next run (scripts/history-coverage.ts).
   */
  readonly proposed?: readonly string[];
  /**
   * Tools with a page that only configurations the history does not follow advertise, each
   * with why it cannot follow one (a login the run cannot stand in for in earlier releases…).
   */
  readonly untracked?: Readonly<Record<string, string>>;
}

/** How scripts/inventory.ts reads the tool inventory from an agent's pinned binary. */
export type InventoryMethod =
  /** Tool-name list and alias tables cut out of JavaScript bundled in the binary (scripts/lib/inventory/parse.ts). */
  (
    | { readonly method: 'bundled-alias-tables' }
    /** A compiled binary: its feature list (a command) and the tool handler source files it names. */
    | {
        readonly method: 'feature-list-and-handlers';
        readonly featuresArgs: readonly string[];
        readonly homeVariable: string;
        readonly handlersPrefix: string;
        /**
         * The text that opens the model catalog the binary embeds as JSON, when it embeds one (its entries decide some
         * tools).
         */
        readonly modelCatalogMarker?: string;
      }
  ) & {
    /** How the lists were found and can be checked again, written into the inventory file. */
    readonly notes: readonly string[];
    /**
     * Gates of inventory names that have no page, where a committed source establishes
     * them; a name missing here shows "gate not established".
     */
    readonly gates?: Readonly<Record<string, { readonly gate: string; readonly source: string }>>;
  };

/** A package of published TypeScript types of an agent's tools, pinned in scripts/pins.json under the agent's id. */
export interface PublishedTypes {
  /** The script that regenerates the agent's tool files from the pinned release. */
  readonly ingest: string;
  /** The script that extends content/history/<agent>.sdk.json over the package's releases, if there is one. */
  readonly history?: string;
  /** Released with the CLI: the pin follows the CLI's release in the capture matrix (the ingest compares the two). */
  readonly withCli?: boolean;
}

/** Where a payload run happens, and the command every hook runs. */
export interface HookRunContext {
  home: string;
  /** The run's own temporary folder. */
  tmp: string;
  /** The shell command each hook runs: it appends its standard input (the hook payload) to the run's hook log. */
  hookCommand: string;
  /**
   * The same command for a hook configured for one `event`, for agents whose payloads do not
   * name their event (Copilot CLI's camelCase hooks): it first appends a tag record
   * (`{"$hookEvent": event}`, HOOK_EVENT_TAG) that the recorder reads and removes, then the payload
   * exactly as the CLI sent it.
   */
  taggedHookCommand(event: string): string;
  /** The hook log itself, for hooks that are not commands (OpenCode's plugin functions write to it directly). */
  hookLog: string;
  /** The tools the scenario calls, as the model calls them. */
  allowedTools: readonly string[];
  /**
   * Plugin hooks only (`kind: 'plugin'`): what the hook function of `event` does after it
   * records its arguments, as JavaScript with `input` and `output` in scope (a hook behaviour
   * case's answer: throw, change the arguments, change the result). It appends the event to
   * `<hookLog>.answered` first.
   */
  pluginAnswer?: { event: string; script: string };
}

/** What a payload run adds to the invocation of its configuration. */
export interface HookRunAdditions {
  args: string[];
  env: Record<string, string>;
  /** Absolute path → text, written before the run: the hook configuration among them. */
  files: Map<string, string>;
  /**
   * Settings merged over the configuration's (agents with `settingsFile`, whose hooks
   * live in that file beside what points the CLI at the stub), if any.
   */
  settings?: JsonObject;
}

/** What a finished payload run left besides the requests and the hook log, as JSON lines. */
export interface HookRunOutput {
  /** The JSON lines of standard output. */
  stdout: readonly unknown[];
  /** The JSON lines of the files under HookMechanism.logDir, in file-name order. */
  logs: readonly unknown[];
}

/** The CLI's own structured report of one call (payload file fields; absent ones are left out). */
export interface CallReport {
  toolUseResult?: unknown;
  toolResultMeta?: JsonRecord;
  sessionLog?: JsonRecord[];
}

/**
 * Where an agent's hook payloads carry what the site reads of them (examples, the
 * payload checker, hooks pages, hook schemas): member names differ between agents
 * (`tool_input` against Copilot's `toolArgs`).
 */
export interface HookShape {
  /**
   * The member naming the event (`hook_event_name`); absent when the payloads do not name
   * their event (Copilot CLI's camelCase hooks, OpenCode's plugin functions): the recorder
   * then keeps each payload's event in the call's `hookEvents`, known from the hook
   * configuration entry that received it (hookEventOf).
   *
   * This and the other members name a top-level member, or a nested one as a dotted path
   * (`input.tool`): read them with hookMember.
   */
  readonly eventField?: string;
  /** The member naming the tool as hooks see it (`tool_name`). */
  readonly toolNameField: string;
  /**
   * The member naming the tool on the after-events, when it is another than on the before-event (Cline:
   * `tool_call.name` before, `tool_result.name` after).
   */
  readonly afterToolNameField?: string;
  /** The member holding the call's input (`tool_input`). */
  readonly inputField: string;
  /**
   * The member holding the call's input on the after-events, when it is another than on the before-event (OpenCode:
   * `output.args` before, `input.args` after).
   */
  readonly afterInputField?: string;
  /** `json-string`: the input arrives as a JSON text, not an object (Copilot's `toolArgs`). */
  readonly inputEncoding: 'object' | 'json-string';
  /** The member holding what the tool returned (`tool_response`), on the after-event. */
  readonly responseField: string;
  /** The event fired before a tool runs (`PreToolUse`). */
  readonly before: string;
  /** The event fired after a tool succeeded (`PostToolUse`). */
  readonly after: string;
  /** The event fired after a tool failed, when the agent has one (`PostToolUseFailure`). */
  readonly afterFailure?: string;
}

/** The value of `field` (a member name or a dotted path, see HookShape) in a hook payload; undefined when absent. */
export function hookMember(payload: unknown, field: string): unknown {
  let v: unknown = payload;
  for (const key of field.split('.')) {
    if (v === null || typeof v !== 'object' || Array.isArray(v) || !Object.hasOwn(v, key)) return undefined;
    v = (v as Record<string, unknown>)[key];
  }
  return v;
}

/**
 * The event of the `index`-th hook payload of a recorded call: its recorded `hookEvents` entry, else the payload's own
 * event member.
 */
export function hookEventOf(
  call: { hooks: readonly unknown[]; hookEvents?: readonly string[] | undefined },
  index: number,
  shape: HookShape,
): string | undefined {
  const recorded = call.hookEvents?.[index];
  if (recorded !== undefined) return recorded;
  const own = shape.eventField === undefined ? undefined : hookMember(call.hooks[index], shape.eventField);
  return typeof own === 'string' ? own : undefined;
}

/**
 * The shape of a hook payload sent for `event`: the mechanism's own, or the one of `otherShapes` whose events name it.
 */
export function shapeOfEvent(
  hooks: Pick<HookMechanism, 'shape' | 'otherShapes'>,
  event: string | undefined,
): HookShape {
  const names = (s: HookShape): (string | undefined)[] => [s.before, s.after, s.afterFailure];
  return [hooks.shape, ...(hooks.otherShapes ?? [])].find((s) => names(s).includes(event)) ?? hooks.shape;
}

/** The shape Claude Code's hooks have and Codex's share: PreToolUse / PostToolUse with snake_case members. */
export const CLAUDE_STYLE_HOOKS: HookShape = {
  eventField: 'hook_event_name',
  toolNameField: 'tool_name',
  inputField: 'tool_input',
  inputEncoding: 'object',
  responseField: 'tool_response',
  before: 'PreToolUse',
  after: 'PostToolUse',
};

/**
 * Where the agent's published package declares the names of its hook events, for
 * `npm run hook-events` (scripts/hook-events.ts), which writes what it finds to
 * content/hook-events/<agent>.json.
 */
export interface HookEventSource {
  /** The package holding it, when not the agent's own (`@github/copilot-linux-x64`): fetched at the pinned version. */
  readonly package?: string;
  /**
   * A binary of the package that writes the files out when it runs (Copilot CLI unpacks its
   * JavaScript under ~/.cache/copilot): run with `args` and a fresh HOME, without network; the
   * declaration is then searched in `into` (relative to that HOME, `{version}` the pinned version).
   */
  readonly unpack?: { readonly binary: string; readonly args: readonly string[]; readonly into: string };
  /**
   * The folder searched (relative to the package, or to `into`); exactly one .js or .d.ts file under it must hold the
   * declaration.
   */
  readonly under: string;
  /**
   * How the list is written: `compiled-enum`, a TypeScript enum as a bundler compiles it
   * (`var HookEventName = …; HookEventName2["PreToolUse"] = "PreToolUse";`); `union-type`, a
   * union of string literals (`export type HookType = "preToolUse" | …;`), each with the doc
   * comment before it.
   */
  readonly form: 'compiled-enum' | 'union-type';
  /** The declared name (`HookEventName`, `HookType`). */
  readonly name: string;
}

/**
 * Every hook event the agent's published code names (content/hook-events/<agent>.json),
 * sorted: recorded (HookMechanism.events), about a tool call but not recorded (with why), or
 * about no single tool call. The build refuses a named event that is in none of these.
 */
export interface NamedHookEvents {
  readonly source: HookEventSource;
  /**
   * Events about tool calls that the recordings do not give, each with why (the hooks page lists them as not recorded).
   */
  readonly notRecorded: Readonly<Record<string, string>>;
  /** Events that concern no single tool call (session, prompt, compaction, notification …). */
  readonly noToolCall: readonly string[];
}

/**
 * Where the agent's own published code declares what a hook may return, for
 * `npm run hook-outputs` (scripts/hook-outputs.ts, scripts/lib/hook-outputs.ts), which
 * writes one JSON Schema per event to content/hook-outputs/<agent>.json. `version` says
 * which pin the package is read at: the capture pin (content/capture-matrix.json) or the
 * package's own (scripts/pins.json, under the agent's id).
 */
export type HookOutputSource =
  | {
      /**
       * TypeScript declarations: every type named like `pattern` (`{event}HookSpecificOutput`) is an event's output.
       */
      readonly form: 'typescript';
      readonly package: string;
      readonly version: 'capture-pin' | 'ingest-pin';
      readonly unpack?: HookEventSource['unpack'];
      /** Declaration files, relative to the package (or to `unpack.into`), read as one text. */
      readonly files: readonly string[];
      readonly pattern: string;
      /**
       * How the name part becomes the event's name: kept, or its first letter lowered (Copilot CLI's camelCase events).
       */
      readonly naming: 'as-is' | 'lower-first';
      /** The type every event's output is, with `member` narrowed to the event's own type. */
      readonly base?: { readonly type: string; readonly member: string };
      /** Only the agent's named events (content/hook-events/<agent>.json) are taken, not every type that matches. */
      readonly namedEventsOnly?: boolean;
      /**
       * What a reader must know about these declarations (what they are the types of), said on the page and in each
       * schema.
       */
      readonly note?: string;
    }
  | {
      /** A plugin function's parameter that the function changes in place (OpenCode's `output`). */
      readonly form: 'plugin-output';
      readonly package: string;
      readonly version: 'capture-pin';
      readonly file: string;
      readonly interface: string;
      readonly events: readonly string[];
      /** Which parameter (0-based). */
      readonly parameter: number;
    }
  | {
      /** JSON Schemas compiled into the pinned program, titled like `pattern` (`{event}.command.output`). */
      readonly form: 'embedded-json-schema';
      readonly pattern: string;
      readonly naming: 'kebab-to-pascal';
    }
  | {
      /** Nothing published declares it: why, with what shows that. */
      readonly form: 'none';
      readonly why: string;
    };

/** The nouns of plugin hooks on the pages (HookMechanism.pluginWords). */
export interface PluginWords {
  /** What holds the hooks, with its article: `a plugin`, `an extension`. */
  readonly host: string;
  /** One hook of it: `function`, `handler`. */
  readonly handler: string;
  /** What each hook is handed, as the object of "write … to a file": `their arguments`. */
  readonly given: string;
  /** One record of a recording: `plugin call record`. */
  readonly record: string;
  /** What the JSON Schemas describe: `the arguments of the plugin functions`. */
  readonly schemaOf: string;
}

/** How the payload script (scripts/payloads.ts) records what an agent's hooks receive. */
export interface HookMechanism {
  /** Where the published package names its hook events, and how each is sorted, when that is read. */
  readonly named?: NamedHookEvents;
  /** Where the agent's published code declares what a hook may return. */
  readonly outputs?: HookOutputSource;
  /**
   * How a hook is written: `command` (the default), a command configured per event, optionally
   * with a matcher, that gets the payload on its standard input; `plugin`, a function of a plugin
   * that the CLI calls for every tool with its arguments (OpenCode), with no matcher. The pages
   * word what they say of the hooks by it.
   */
  readonly kind?: 'command' | 'plugin';
  /**
   * Plugin hooks only: how the pages name them, when not as OpenCode's (a plugin whose functions
   * are handed their arguments). Pi: an extension whose handlers are handed an event.
   */
  readonly pluginWords?: PluginWords;
  /** The hook events recorded, in the order they fire. */
  readonly events: readonly string[];
  /** Where its payloads carry the event, tool name, input and response. */
  readonly shape: HookShape;
  /**
   * Other forms of the same hooks recorded in the same runs, told apart by their event names
   * (Copilot CLI's VS Code-compatible PascalCase events, whose payloads are snake_case): see shapeOfEvent.
   */
  readonly otherShapes?: readonly HookShape[];
  /**
   * How a page titles one recorded payload, `{event}` standing for its event; default
   * `{event} hook, standard input` (OpenCode's records are the arguments of a plugin function).
   */
  readonly recordTitle?: string;
  /** A folder (relative to HOME) of JSON-lines logs the recording reads, if any. */
  readonly logDir?: string;
  /** Arguments, environment and files (the hook configuration among them) of a payload run. Pure. */
  runAdditions(context: HookRunContext): HookRunAdditions;
  /**
   * The argument sequences of runAdditions (given no allowed tools) that let every call run
   * without asking; permission cases (npm run permissions) leave them out, so that the
   * agent's own rules decide.
   */
  readonly bypass?: readonly (readonly string[])[];
  /** Did the call succeed, as the CLI reported it: its result (and that result's text) and its hook payloads. */
  outcome(result: JsonRecord, resultText: string, hooks: readonly JsonRecord[]): 'success' | 'failure';
  /** The CLI's structured report of call `id`, beside its hook payloads. */
  callReport(output: HookRunOutput, id: string): CallReport;
  /** Events of the whole run recorded beside the calls (payload `execEvents`), if the agent reports any. */
  runEvents?(output: HookRunOutput): JsonRecord[];
  /**
   * The hook payloads of each call, by call index, when the payloads carry no
   * `tool_use_id` to match them by (the default): by order, tool name and input.
   * `events[i]` is the event a tag record named for `payloads[i]`, if any (HookRunContext.taggedHookCommand).
   */
  hooksOfCalls?(
    payloads: readonly JsonRecord[],
    calls: readonly HookedCall[],
    events?: readonly (string | undefined)[],
  ): JsonRecord[][];
}

/** One call of a payload run, as hooksOfCalls sees it. */
export interface HookedCall {
  /** The id the stub gave the call. */
  id: string;
  /** The tool as the model called it. */
  tool: string;
  /** The input as sent, when it was. */
  input: unknown;
}

/** A program a CLI needs on its PATH to offer what it offers (Agent.requiresCommands). */
export interface RequiredCommand {
  /** The command as it is looked up on PATH: `rg`. */
  readonly command: string;
  /** Why, and how to get it: what the CLI leaves out without it, and the package that installs it. */
  readonly why: string;
}

export interface Agent<Id extends string = string> {
  readonly id: Id;
  /** Product name shown on the site: `Claude Code`. */
  readonly product: string;
  /** The npm package the pinned release is installed from (content/capture-matrix.json pins its version). */
  readonly npmPackage: string;
  /**
   * Packages that hold a runnable release on their own, without `npmPackage` (a platform
   * package with the native program, which `binary` lies in): a release `npmPackage` lacks is
   * installed from the first of them that has it, and is published (scripts/lib/releases/runnable-release.ts).
   */
  readonly standalonePackages?: readonly string[];
  /**
   * The wire formats its model requests may use (src/lib/wire), the default first.
   * A configuration may switch to another (Copilot CLI: by environment variable);
   * each capture's format is read from the path of its request.
   */
  readonly wires: readonly [WireFormatId, ...WireFormatId[]];
  /**
   * The executable, relative to the folder the package was installed into with npm (linux x64, the only platform
   * capture runs on).
   */
  readonly binary: string;
  /** The modes a configuration of this agent may use. */
  readonly modes: readonly Mode[];
  /** The configuration options (content/capture-matrix.json) this agent understands besides args and env. */
  readonly options: readonly ConfigurationOption[];
  /**
   * The JSON settings file the agent module writes (relative to HOME), for messages
   * and the agent page: `.gemini/settings.json`. Configurations' `settings` merge over it.
   */
  readonly settingsFile?: string;
  /**
   * How it names an MCP server's tools, as a capture showed them, or why no capture shows that
   * (an agent without MCP, or one that sends no MCP tool by name).
   */
  readonly mcpNaming: McpNaming | NotCovered;
  /**
   * What it does on its wire formats that the formats do not define (src/lib/wire/types.ts):
   * the words that announce deferred tools or namespaces in a message, its code-mode layout.
   * The formats apply these to its captures; absent: it does none of that.
   */
  readonly wireQuirks?: WireQuirks;
  /**
   * Definitions our own stubs made up (a server the CLI fetches tools from, answered by the
   * capture stub): a captured description that starts with `descriptionPrefix` is ours, so the
   * tool's page shows its input and result as unknown, for `reason`, and marks the description.
   */
  readonly standInDefinitions?: { readonly descriptionPrefix: string; readonly reason: string };
  /**
   * Programs the CLI needs on the PATH of its runs, checked before every run
   * (scripts/lib/capture/required-commands.ts):
   * without one the run stops with the command and its reason, and nothing is recorded, since a capture made without
   * it would lack what the CLI offers only when the program is there. Absent: it needs none.
   */
  readonly requiresCommands?: readonly RequiredCommand[];
  /** Capture history over earlier releases (npm run history:captures), or why there is none yet. */
  readonly captureHistory: CaptureHistoryPlan | NotCovered;
  /**
   * The built-in subagent types `npm run subagents` starts (scripts/subagents.ts), each with the
   * tool that starts one, the input field naming the type, the rest of the input, and the
   * capture configuration the run uses; absent where the tool sets are not recorded.
   */
  readonly subagents?: {
    readonly tool: string;
    /**
     * The input field naming the type; absent when the tool takes none (Codex's spawn_agent), and `types` then holds
     * one label for the one kind it starts.
     */
    readonly field?: string;
    readonly types: readonly string[];
    readonly input: Readonly<Record<string, string>>;
    readonly configuration: string;
    /**
     * Where the main thread's request says which tools a type gets, as a regular expression whose `{type}` is the type
     * and whose group 1 is the words.
     */
    readonly declaredPattern?: string;
  };
  /** Tool inventory from the pinned binary (scripts/inventory.ts), or why there is none. */
  readonly inventory: InventoryMethod | NotCovered;
  /** Published types of its tools (npm run refresh moves their pin), or why there are none. */
  readonly publishedTypes: PublishedTypes | NotCovered;
  /** Do its JSON Schema inputs get a generated `input.d.ts` (it publishes no TypeScript types of its own)? */
  readonly generatedDeclarations: boolean;
  /** Hook payload recording (npm run payloads), or why there is none yet. */
  readonly hooks: HookMechanism | NotCovered;
  /**
   * For an agent with no permission cases (content/permission-cases.json): why, with its evidence,
   * said on its permissions page instead of nothing (Pi has no rules to write).
   */
  readonly permissions?: NotCovered;
  /** The command line, environment, files and prompt input of one run. Pure; throws for a mode not in `modes`. */
  invoke(context: InvocationContext): Invocation;
  /**
   * The main request of a run among `candidates` (at least one: every POST to the
   * wire format's tool path, in order of arrival); `prompt` recognises the user's turn.
   */
  mainRequest<R extends WireRequest>(candidates: readonly R[], prompt?: string): R;
  /**
   * The agent's own test of the request that answers the prompt, for runs ended once it is
   * answered (interactive, Invocation.endAfterTurn), where the shared test (a streaming
   * request with tools whose last user text ends with the prompt) misses it: a CLI that wraps
   * the prompt in a tag or puts text of its own after it (Cline's `<user_input>`, Copilot
   * CLI's reminders).
   */
  answersPrompt?(request: WireRequest, prompt: string): boolean;
}
