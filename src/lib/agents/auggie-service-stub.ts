/**
 * The service side of Auggie's stand-in session: what the recording stub answers a CLI that
 * believes it is signed in to a tenant (Auggie given a made-up session in AUGMENT_SESSION_AUTH
 * whose tenant URL is the stub: ./auggie.ts hands serviceReply to the runner as its invocation's
 * `services`). Every answer is made up here; nothing is copied from a real service. Pure: a
 * request in, a reply or undefined out (undefined: the chat stream, which its wire format
 * answers, or the stub's 404).
 *
 * Answered:
 * - `POST /get-models`: no models, the service's default model unnamed (`""`), and one feature
 *   flag, `enable_hooks`: the CLI sets up the hooks of its settings files only when the tenant's
 *   flags turn it on (off by default), and payload runs record what the hooks are sent. The tool
 *   definitions it sends are the same with the flag as without it (every capture compared). With
 *   a 404 here the CLI falls back to its default flags but leaves the prompt out of its first
 *   turn (its log: "Running basic agent loop … with message: []"); with this reply it sends the
 *   prompt as a text node.
 * Everything else it asks at start (the tenant's and the user's MCP server settings, remote
 * tools, error reports) gets the stub's 404, which it reports as a warning ("Could not fetch
 * tenant MCP server configurations") and goes on without.
 */
import type { StubReply } from '../wire/types.ts';
import type { StubRequest } from './types.ts';

/** The made-up model list: none, the default model unnamed, hooks turned on. */
export const GET_MODELS_REPLY = { default_model: '', models: [], feature_flags: { enable_hooks: true } } as const;

/** The stub's answer to one of the tenant's service requests, or undefined for any other request. */
export function serviceReply(req: StubRequest): StubReply | undefined {
  if (req.method === 'POST' && req.path === '/get-models')
    return { status: 200, contentType: 'application/json', body: JSON.stringify(GET_MODELS_REPLY) };
  return undefined;
}
