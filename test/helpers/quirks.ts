/**
 * The wire quirks of the real agents (src/lib/agents), for tests of a wire format
 * that read captures the way the site reads each agent's.
 */
import { agentWireQuirks } from '../../src/lib/agents/index.ts';
import type { WireQuirks } from '../../src/lib/wire/types.ts';

/** By the agent whose request a test body stands for; `none` for a format read without any. */
export const QUIRKS = {
  claude: agentWireQuirks('claude-code'),
  codex: agentWireQuirks('codex'),
  qwen: agentWireQuirks('qwen-code'),
  none: {},
} as const satisfies Record<string, WireQuirks>;

/** The quirks of the agent a raw fixture (`qwen-code-default`, `codex-unknown-model` …) was recorded from. */
export function quirksOfFixture(name: string): WireQuirks {
  const agent = ['claude-code', 'codex', 'gemini-cli', 'qwen-code', 'opencode', 'copilot-cli'].find((id) =>
    name.startsWith(`${id}-`),
  );
  if (!agent) throw new Error(`${name}: no agent's fixture`);
  return agentWireQuirks(agent);
}

/** An extraction context of a test: a made-up origin, the body at /body, and the given quirks. */
export const context = (quirks: WireQuirks = {}) => ({
  origin: { package: 'p', version: 'v', file: 'f' },
  pointer: '/body',
  quirks,
});
