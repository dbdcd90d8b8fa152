/**
 * Auggie (npm `@augmentcode/auggie`, command `auggie`), a Node program (`augment.mjs`). It has no
 * bring-your-own-key mode that skips its vendor's service: every model turn is a `POST
 * /chat-stream` to the tenant URL of the signed-in session, in the service's own request shape
 * (src/lib/wire/chat-stream-nodes.ts). The run hands it a made-up session in
 * AUGMENT_SESSION_AUTH (`accessToken`, `tenantURL` at the stub, `scopes`: it refuses a session
 * without the three), and the stub answers the few service endpoints it calls before a turn
 * (./auggie-service-stub.ts, the invocation's `services`). One mode: print (`auggie --print
 * <args> <prompt>`); its interactive interface stops at onboarding screens first.
 *
 * Its settings file is ~/.augment/settings.json (`removedTools`, `toolPermissions`,
 * `mcpServers`, `hooks` …), written only when a configuration has settings.
 *
 * The tenant's feature flags (in the model list the service returns) turn some of its features on;
 * the stub's made-up list sets none, so every capture is of the CLI's defaults with no flag set.
 */
import { join } from 'node:path';
import type { WireFormatId } from '../wire/index.ts';
import { wireFormat } from '../wire/index.ts';
import { pathOf } from '../wire/shared.ts';
import type { WireRequest } from '../wire/types.ts';
import { serviceReply } from './auggie-service-stub.ts';
import { settingsText } from './settings.ts';
import { hooksByOrder } from './shared.ts';
import type { Agent, HookMechanism, HookShape, Invocation, InvocationContext, JsonObject } from './types.ts';

/** Its wire formats, the default first. */
const WIRES = ['chat-stream-nodes'] as const satisfies readonly WireFormatId[];

const SETTINGS_FILE = '.augment/settings.json';

/** The session the CLI reads from AUGMENT_SESSION_AUTH: a made-up token, the stub as tenant, one scope. */
export function standInSession(stubUrl: string, token: string): string {
  return JSON.stringify({ accessToken: token, tenantURL: `${stubUrl}/`, scopes: ['email'] });
}

function invoke(c: InvocationContext): Invocation {
  if (c.mode !== 'print') throw new Error(`auggie has no mode ${c.mode}`);
  const files = new Map<string, string>();
  if (c.settings !== undefined) files.set(join(c.home, SETTINGS_FILE), settingsText(c.settings));
  return {
    command: c.node,
    args: [c.binary, '--print', ...c.args, c.prompt],
    env: {
      ...c.baseEnv,
      AUGMENT_SESSION_AUTH: standInSession(c.stubUrl, c.apiKey),
      AUGMENT_DISABLE_AUTO_UPDATE: '1',
      ...c.env,
    },
    input: { kind: 'argument' },
    files,
    services: serviceReply,
  };
}

/** Is `r` a turn that offers tools and whose text node holds the prompt? */
export function answersPrompt(r: WireRequest, prompt: string): boolean {
  const wire = wireFormat(WIRES[0]);
  return (
    wire.isToolRequestPath(pathOf(r.url)) &&
    wire.hasTools(r.json) &&
    (wire.lastUserText(r.json)?.includes(prompt.trim()) ?? false)
  );
}

/** The tool events recorded, in the order they fire. */
export const HOOK_EVENTS = ['PreToolUse', 'PostToolUse'] as const;

/** Its payloads: Claude Code's member names, except that the result is `tool_output` (and an error `tool_error`). */
export const HOOK_SHAPE: HookShape = {
  eventField: 'hook_event_name',
  toolNameField: 'tool_name',
  inputField: 'tool_input',
  inputEncoding: 'object',
  responseField: 'tool_output',
  before: 'PreToolUse',
  after: 'PostToolUse',
};

/** A hook's time limit: its `timeout` is in milliseconds ("Hook execution timed out after 10ms" with 10). */
export const HOOK_TIMEOUT_MS = 10_000;

/**
 * The `hooks` of ~/.augment/settings.json: each event with matcher `.*` (its matchers are regular
 * expressions, and `*` alone is not one: the bundle logs "Invalid regex pattern" and matches nothing)
 * and one command hook.
 */
export function hookSettings(command: string): JsonObject {
  const hooks: JsonObject = {};
  for (const event of HOOK_EVENTS)
    hooks[event] = [{ matcher: '.*', hooks: [{ type: 'command', command, timeout: HOOK_TIMEOUT_MS }] }];
  return { hooks };
}

/**
 * Hooks in the `hooks` key of ~/.augment/settings.json, set up only when the tenant's feature flags
 * turn on enable_hooks (the stub's model list does: ./auggie-service-stub.ts). Print mode runs every
 * tool without asking, so a payload run adds no flag.
 */
const hooks: HookMechanism = {
  outputs: {
    form: 'none',
    why:
      'Its package is one bundled script (augment.mjs) without type declarations; no schema of what a hook may ' +
      'return has been read out of it yet.',
  },
  events: HOOK_EVENTS,
  shape: HOOK_SHAPE,
  runAdditions: (c) => ({
    args: [],
    env: { TMPDIR: c.tmp },
    files: new Map(),
    settings: hookSettings(c.hookCommand),
  }),
  /** A call succeeded when the tool result node it sent back says it was no error. */
  outcome: (result) => {
    const node = result['tool_result_node'];
    return node !== null && typeof node === 'object' && (node as JsonObject)['is_error'] === false
      ? 'success'
      : 'failure';
  },
  callReport: () => ({}),
  /** Its payloads carry no call id: each call gets its PreToolUse and PostToolUse by order, tool name and input. */
  hooksOfCalls: (payloads, calls) => hooksByOrder(HOOK_SHAPE, payloads, calls),
};

/** The tools of the stub MCP server, which it offers as `<tool>_<server>`. */
const isStubServerTool = (fullName: string): boolean =>
  fullName === 'echo_capture' || /^tool_\d+_capture$/.test(fullName);

export const auggie: Agent<'auggie'> = {
  id: 'auggie',
  product: 'Auggie',
  npmPackage: '@augmentcode/auggie',
  wires: WIRES,
  binary: 'node_modules/@augmentcode/auggie/augment.mjs',
  modes: ['print'],
  options: ['settings'],
  settingsFile: SETTINGS_FILE,
  mcpNaming: { configuration: 'mcp-server', family: '<tool>_<server>', isStubServerTool },
  captureHistory: {
    configurations: ['print', 'remove-tool', 'mcp-server'],
    step: 1,
    range: { last: 20 },
  },
  inventory: {
    none:
      'no inventory method reads its bundle yet: augment.mjs logs the tools of each of its hosts at start ' +
      '(with --log-level debug), but the captures are the only list the site shows.',
  },
  publishedTypes: {
    none: 'no package of TypeScript types of its tools is published; their inputs are read from the captures.',
  },
  generatedDeclarations: false,
  hooks,
  invoke,
  mainRequest: (candidates, prompt) =>
    (prompt === undefined ? undefined : candidates.find((r) => answersPrompt(r, prompt))) ?? candidates[0]!,
  answersPrompt,
};
