/**
 * From the requests a CLI sent to the stub to the main request of the run: the
 * POSTs to the agent's wire-format path, of which the agent module picks one
 * (src/lib/agents), checked to be a request of that format. What a capture keeps
 * of its body is up to the wire format module (src/lib/wire). Pure functions.
 */
import { AGENTS, type AgentId } from '../../../src/lib/agents/index.ts';
import { wireFormat } from '../../../src/lib/wire/index.ts';
import { pathOf } from '../../../src/lib/wire/shared.ts';
import type { RecordedRequest } from './stub-server.ts';

export class CaptureError extends Error {}

export { pathOf };

/**
 * The main request of a run of `agent`: among the POSTs to its wire format's path,
 * the one the agent module chooses (`prompt` recognises the user's turn). Throws a
 * CaptureError naming what was seen when there is none, or when the chosen body is
 * not a request of the wire format.
 */
export function chooseMainRequest(agent: AgentId, requests: readonly RecordedRequest[], prompt?: string): RecordedRequest {
  const { wire: id, mainRequest } = AGENTS[agent];
  const wire = wireFormat(id);
  const seen = requests.length === 0 ? 'none' : requests.map((r) => `${r.method} ${r.url}`).join(', ');
  const posts = requests.filter((r) => r.method === 'POST' && wire.isToolRequestPath(pathOf(r.url)));
  if (posts.length === 0) throw new CaptureError(`no POST ${wire.requestPath} request reached the stub (requests seen: ${seen})`);
  const request = mainRequest(posts, prompt);
  const problem = wire.problem(request.json);
  if (problem) {
    throw new CaptureError(`the ${request.method} ${request.url} body is not ${wire.requestLabel}: ${problem} (body starts: ${JSON.stringify(request.text.slice(0, 120))})`);
  }
  return request;
}
