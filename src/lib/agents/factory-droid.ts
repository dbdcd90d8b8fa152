/**
 * Factory's Droid command line (`droid`, npm `@factory/cli`): a bring-your-own-key model
 * declared under `customModels` in ~/.factory/settings.json, which `droid exec -m
 * custom:<model>` selects. The provider of the model decides the wire format:
 * `generic-chat-completion-api` speaks OpenAI Chat Completions, `anthropic` Anthropic
 * Messages. The module declares one model per provider, all at the stub; a configuration
 * picks one with `-m` (default: the Chat Completions one). One mode: print (`droid exec
 * <args> <prompt>`, read-only unless `--auto <level>` says otherwise). MCP servers are
 * read from ~/.factory/mcp.json (`mcpServers`), the settings file configurations'
 * `settings` merge over.
 *
 * The npm package is a launcher that an install script completes; capture installs
 * without scripts and runs the platform package's program (`@factory/cli-linux-x64`),
 * which also holds releases on its own (the pin among them).
 *
 * The capture history covers every release listed, but 0.99.0 to 0.117.0 stop before any
 * request: "Authentication failed. Please log in using /login or set a valid FACTORY_API_KEY
 * environment variable." Their `exec` asks for a Factory organisation first, whatever model is
 * chosen: 0.117.0 given a custom model in its own format (~/.factory/config.json
 * `custom_models`) stops with the same words.
 */
import { join } from 'node:path';
import type { WireFormatId } from '../wire/index.ts';
import type { Announcement, WireRequest } from '../wire/types.ts';
import { mergeSettings, settingsText } from './settings.ts';
import { holdsPromptWithTools, hooksByOrder, matcherHooks, requestHoldingPrompt } from './shared.ts';
import {
  CLAUDE_STYLE_HOOKS,
  type Agent,
  type HookMechanism,
  type Invocation,
  type InvocationContext,
  type JsonObject,
} from './types.ts';

/** Its wire formats, the default first. */
const WIRES = ['openai-chat-completions', 'anthropic-messages'] as const satisfies readonly WireFormatId[];

const SETTINGS_FILE = '.factory/settings.json';
const MCP_FILE = '.factory/mcp.json';

/** The custom model of each provider, as `-m custom:<model>` selects it. */
export const STUB_MODELS = { chatCompletions: 'stub-model', anthropic: 'stub-model-anthropic' } as const;

/** ~/.factory/settings.json: one custom model per wire format, each at the stub. */
export function droidSettings(stubUrl: string, apiKey: string): JsonObject {
  const model = (model: string, provider: string, baseUrl: string) => ({
    model,
    displayName: model,
    baseUrl,
    apiKey,
    provider,
    maxOutputTokens: 1000,
  });
  return {
    customModels: [
      model(STUB_MODELS.chatCompletions, 'generic-chat-completion-api', `${stubUrl}/v1`),
      model(STUB_MODELS.anthropic, 'anthropic', stubUrl),
    ],
  };
}

function invoke(c: InvocationContext): Invocation {
  if (c.mode !== 'print') throw new Error(`factory-droid has no mode ${c.mode}`);
  const files = new Map<string, string>([
    [join(c.home, SETTINGS_FILE), settingsText(droidSettings(c.stubUrl, c.apiKey))],
    [join(c.home, MCP_FILE), settingsText(mergeSettings({ mcpServers: {} }, c.settings))],
  ]);
  const model = c.args.includes('-m') ? [] : ['-m', `custom:${STUB_MODELS.chatCompletions}`];
  return {
    command: c.binary,
    args: ['exec', ...model, ...c.args, c.prompt],
    env: { ...c.baseEnv, ...c.env },
    input: { kind: 'argument' },
    files,
  };
}

/**
 * The reminder in which it names the tools it defers to ToolSearch (a text of the first user
 * message): `Deferred tools:`, then one name a line, up to the reminder's end.
 */
const DEFERRED_LIST = /Deferred tools:\n([\s\S]*?)\n?<\/system-reminder>/;
/** The whole reminder that holds that list, verbatim. */
const DEFERRED_REMINDER =
  /<system-reminder>\nThe tools listed below are available in this environment[\s\S]*?Deferred tools:\n[\s\S]*?<\/system-reminder>/;

const deferredTools: Announcement = {
  passages: (text) => DEFERRED_REMINDER.exec(text)?.slice(0, 1) ?? [],
  names: (text) =>
    (DEFERRED_LIST.exec(text)?.[1]?.split('\n') ?? [])
      .map((line) => line.trim())
      .filter((name) => /^[A-Za-z_][\w.-]*$/.test(name)),
  reason: () =>
    'Deferred in this configuration: the model is told only the name, and loads the schema through ToolSearch when ' +
    'it needs the tool.',
};

/** The turn that answers the prompt: its last user message holds the prompt among texts of its own. */
export const answersPrompt = (r: WireRequest, prompt: string): boolean => holdsPromptWithTools(WIRES, r, prompt);

/** The tool events recorded, in the order they fire. */
export const HOOK_EVENTS = ['PreToolUse', 'PostToolUse'] as const;

/**
 * Hooks in ~/.factory/hooks.json, whose top level is the events object in the form Claude
 * Code's settings.json gives under `hooks` (matcher `*`, one command hook); 0.225.2 ran a
 * SessionStart hook written so, and none written under a `hooks` member. Payload runs skip
 * every permission check (`--skip-permissions-unsafe`): `droid exec` is read-only otherwise.
 */
const hooks: HookMechanism = {
  outputs: {
    form: 'none',
    why:
      'Its package is one compiled program without type declarations, and no declaration of what a hook may ' +
      "return has been located inside it: the program reads a PreToolUse answer's " +
      '`hookSpecificOutput.permissionDecision` and `updatedInput`, `continue`, and exit codes 2 and 3 (the ' +
      'cases recorded on this page), but declares no schema of them that was found.',
  },
  events: HOOK_EVENTS,
  shape: CLAUDE_STYLE_HOOKS,
  bypass: [['--skip-permissions-unsafe']],
  runAdditions: (c) => ({
    args: ['--skip-permissions-unsafe'],
    env: { TMPDIR: c.tmp },
    files: new Map([
      [join(c.home, '.factory/hooks.json'), settingsText(matcherHooks(HOOK_EVENTS, c.hookCommand).hooks as JsonObject)],
    ]),
  }),
  /** A call succeeded when its PostToolUse payload was sent. */
  outcome: (_result, _text, recorded) =>
    recorded.some((h) => h['hook_event_name'] === 'PostToolUse') ? 'success' : 'failure',
  callReport: () => ({}),
  /** Its payloads carry no call id: each call gets its PreToolUse and PostToolUse by order, tool name and input. */
  hooksOfCalls: (payloads, calls) => hooksByOrder(CLAUDE_STYLE_HOOKS, payloads, calls),
};

export const factoryDroid: Agent<'factory-droid'> = {
  id: 'factory-droid',
  product: 'Factory Droid',
  npmPackage: '@factory/cli',
  standalonePackages: ['@factory/cli-linux-x64'],
  wires: WIRES,
  wireQuirks: { deferredTools },
  binary: 'node_modules/@factory/cli-linux-x64/bin/droid',
  modes: ['print'],
  options: ['settings'],
  settingsFile: MCP_FILE,
  mcpNaming: {
    none:
      'no capture shows it: with the stub server declared in ~/.factory/mcp.json and connected (its log ' +
      'records "Registered MCP tool", and `droid exec --list-tools` lists `capture___echo`), the request ' +
      "`droid exec` sends holds the same tools as without it and names none of the server's tools (the " +
      'mcp-server capture).',
  },
  captureHistory: {
    configurations: ['exec', 'auto-high', 'skip-permissions', 'spec'],
    step: 1,
    range: { from: '0.99.0' },
  },
  inventory: {
    none:
      'nobody has located its tool registry inside the compiled program yet; `droid exec --list-tools` lists ' +
      'the tools of a model, and its captures are the list the site shows.',
  },
  publishedTypes: {
    none: 'no package of TypeScript types of its tools is read yet; their inputs are read from the captures.',
  },
  generatedDeclarations: false,
  hooks,
  invoke,
  mainRequest: (candidates, prompt) => requestHoldingPrompt(WIRES, candidates, prompt),
  answersPrompt,
};
