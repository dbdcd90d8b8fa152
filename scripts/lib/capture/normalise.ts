/**
 * From the requests a CLI sent to the stub to the main request of the run: the
 * POSTs to the tool paths of the agent's wire formats, of which the agent module
 * picks one (src/lib/agents), checked to be a request of the format of its path. What a capture keeps
 * of its body is up to the wire format module (src/lib/wire). Pure functions.
 */
import { AGENTS, agentWireForPath, agentWires, type AgentId } from '../../../src/lib/agents/index.ts';
import type { WireFormat } from '../../../src/lib/wire/index.ts';
import { pathOf } from '../../../src/lib/wire/shared.ts';
import type { RecordedRequest } from './stub-server.ts';

export class CaptureError extends Error {}

export { pathOf };

/**
 * The requests a run sent, for an error message: `GET /a, POST /b ×152` (a run that loops
 * until it is killed repeats one request; listing each would bury the rest of the message).
 */
export function requestsSeen(requests: readonly Pick<RecordedRequest, 'method' | 'url'>[]): string {
  const runs: { text: string; count: number }[] = [];
  for (const r of requests) {
    const text = `${r.method} ${r.url}`;
    const last = runs.at(-1);
    if (last?.text === text) last.count++;
    else runs.push({ text, count: 1 });
  }
  return runs.length === 0 ? 'none' : runs.map((r) => (r.count > 1 ? `${r.text} ×${r.count}` : r.text)).join(', ');
}

/**
 * The main request of a run of `agent` and its wire format: among the POSTs to the
 * tool paths of the agent's formats, the one the agent module chooses (`prompt`
 * recognises the user's turn). Throws a CaptureError naming what was seen when
 * there is none, or when the chosen body is not a request of its path's format.
 */
export function chooseMainRequest(
  agent: AgentId,
  requests: readonly RecordedRequest[],
  prompt?: string,
): { request: RecordedRequest; wire: WireFormat } {
  const { mainRequest } = AGENTS[agent];
  const seen = requestsSeen(requests);
  const posts = requests.filter((r) => r.method === 'POST' && agentWireForPath(agent, pathOf(r.url)) !== undefined);
  if (posts.length === 0)
    throw new CaptureError(
      `no POST ${agentWires(agent)
        .map((w) => w.requestPath)
        .join(' or ')} request reached the stub (requests seen: ${seen})`,
    );
  const request = mainRequest(posts, prompt);
  const wire = agentWireForPath(agent, pathOf(request.url))!;
  const problem = wire.problem(request.json);
  if (problem) {
    throw new CaptureError(
      `the ${request.method} ${request.url} body is not ${wire.requestLabel}: ${problem} (body starts: ` +
        `${JSON.stringify(request.text.slice(0, 120))})`,
    );
  }
  return { request, wire };
}
