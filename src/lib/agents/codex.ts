/**
 * Codex CLI (`@openai/codex`): OpenAI Responses against a model provider that
 * $CODEX_HOME/config.toml points at the stub. Mode: exec (`codex exec`, the
 * prompt on standard input).
 */
import { join } from 'node:path';
import { openaiResponses } from '../wire/openai-responses.ts';
import type { Json, WireRequest } from '../wire/types.ts';
import { STUB_MCP_SERVER, type Agent, type Invocation, type InvocationContext } from './types.ts';

/** The parsed `x-codex-turn-metadata` header, when there is one and it is a JSON object. */
export function turnMetadata(request: WireRequest): Json | undefined {
  const raw = request.headers['x-codex-turn-metadata'];
  if (raw === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(raw);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Json) : undefined;
  } catch {
    return undefined;
  }
}

function invoke(c: InvocationContext): Invocation {
  if (c.mode !== 'exec') throw new Error(`codex has no mode ${c.mode}`);
  const codexHome = join(c.home, '.codex');
  const extraToml = c.configToml ? [c.configToml.replace(/\n+$/, '')] : [];
  const files = new Map<string, string>();
  files.set(join(codexHome, 'config.toml'), [
    'model_provider = "capture_stub"',
    'check_for_update_on_startup = false',
    ...extraToml,
    '[model_providers.capture_stub]',
    'name = "capture stub"',
    `base_url = "${c.stubUrl}/v1"`,
    'env_key = "CAPTURE_STUB_API_KEY"',
    'wire_api = "responses"',
    '',
  ].join('\n'));
  const env: Record<string, string> = { ...c.baseEnv, CODEX_HOME: codexHome, CAPTURE_STUB_API_KEY: c.apiKey, ...c.env };
  return { command: c.binary, args: ['exec', '--skip-git-repo-check', '--json', ...c.args], env, input: { kind: 'stdin', text: c.prompt + '\n' }, files };
}

/**
 * The only request; when there are several (features such as memories run their own
 * turns, concurrently), the first whose `x-codex-turn-metadata` header says
 * `request_kind: "turn"` and `thread_source: "user"`, then the first whose last user
 * text is the prompt, then the first tagged as a turn, then the first that carries
 * the header at all, then the first.
 */
function mainRequest<R extends WireRequest>(candidates: readonly R[], prompt?: string): R {
  if (candidates.length === 1) return candidates[0]!;
  const isTurn = (r: R): boolean => turnMetadata(r)?.['request_kind'] === 'turn';
  return candidates.find((r) => isTurn(r) && turnMetadata(r)?.['thread_source'] === 'user')
    ?? (prompt === undefined ? undefined : candidates.find((r) => openaiResponses.lastUserText(r.json)?.trim() === prompt.trim()))
    ?? candidates.find(isTurn)
    ?? candidates.find((r) => turnMetadata(r) !== undefined)
    ?? candidates[0]!;
}

export const codex: Agent<'codex'> = {
  id: 'codex',
  product: 'Codex CLI',
  npmPackage: '@openai/codex',
  wires: ['openai-responses'],
  binary: 'node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex',
  modes: ['exec'],
  options: ['configToml'],
  mcpNaming: { family: 'mcp__<server>.<tool>', namespace: 'mcp__<server>', isStubServerTool: (fullName) => fullName.startsWith(`mcp__${STUB_MCP_SERVER}.`) },
  captureHistory: { configurations: ['gpt-5-5', 'default-model', 'multi-agent-v2'], step: 4, range: { from: '0.150.0' } },
  inventory: {
    method: 'feature-list-and-handlers',
    featuresArgs: ['features', 'list'],
    homeVariable: 'CODEX_HOME',
    handlersPrefix: 'core/src/tools/handlers/',
    notes: [
      'The Codex binary is compiled Rust: its string literals are stored back to back without delimiters, so no list of tool names can be cut out of it the way Claude Code\'s can; the tool handler source files it names are listed instead, as evidence of what it registers.',
      'features: the output of `codex features list` with a fresh, empty CODEX_HOME and no network.',
    ],
  },
  invoke,
  mainRequest,
};
