import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AGENTS } from '../../src/lib/agents/index.ts';
import {
  copilotApiRoute,
  githubReply,
  mcpReply,
  requestedMcpTools,
  STAND_IN_MODELS,
} from '../../src/lib/agents/copilot-github-stub.ts';
import { copilotApiBase, TOKEN_VARIABLE, unnamespaced } from '../../src/lib/agents/copilot-cli.ts';
import { indexCaptured } from '../../src/lib/model/captures.ts';
import type { CapturedTool } from '../../src/lib/wire/types.ts';

const login = {
  login: 'someone-made-up',
  models: [
    { id: 'model-a', endpoints: ['/responses'] },
    { id: 'model-b', endpoints: ['/v1/messages'] },
  ],
};
const get = (path: string, headers: Record<string, string> = {}) =>
  githubReply({ method: 'GET', path, headers, json: undefined }, login);
const post = (path: string, json: unknown, headers: Record<string, string> = {}) =>
  githubReply({ method: 'POST', path, headers, json }, login);
const body = (r: { body: string } | undefined): unknown => JSON.parse(r!.body);

describe('stand-in GitHub login: routing', () => {
  it('answers the user with the login it is given', () => {
    const r = get('/copilot_internal/user');
    assert.equal(r?.status, 200);
    assert.equal((body(r) as { login: string }).login, 'someone-made-up');
  });

  it('serves the model catalogue with or without the /v1 prefix, each model with its own request paths', () => {
    for (const path of ['/models', '/v1/models']) {
      const data = (body(get(path)) as { data: { id: string; supported_endpoints: string[] }[] }).data;
      assert.deepEqual(
        data.map((m) => [m.id, m.supported_endpoints]),
        [
          ['model-a', ['/responses']],
          ['model-b', ['/v1/messages']],
        ],
      );
    }
  });

  it('leaves every other request to the model wire formats or the 404 (undefined)', () => {
    for (const path of [
      '/v1/responses',
      '/v1/chat/completions',
      '/v1/messages',
      '/copilot_internal/managed_settings',
      '/copilot_internal/team_customizations',
      '/auto',
      '/user',
    ]) {
      assert.equal(get(path), undefined, `GET ${path}`);
      assert.equal(post(path, {}), undefined, `POST ${path}`);
    }
    assert.equal(get('/mcp/readonly'), undefined, 'the MCP server takes POST only');
  });

  it('strips one leading /v1 only', () => {
    assert.equal(copilotApiRoute('/v1/models'), '/models');
    assert.equal(copilotApiRoute('/v1'), '/');
    assert.equal(copilotApiRoute('/v1x/models'), '/v1x/models');
    assert.equal(copilotApiRoute('/models'), '/models');
  });
});

describe('stand-in GitHub MCP server', () => {
  const headers = { 'X-MCP-Tools': 'tool_one, tool_two,,tool_one' };

  it('offers exactly the tools the request header names, in its order, once each', () => {
    assert.deepEqual(requestedMcpTools(headers), ['tool_one', 'tool_two']);
    assert.deepEqual(requestedMcpTools({}), []);
    const listed = body(post('/v1/mcp/readonly', { jsonrpc: '2.0', id: 3, method: 'tools/list' }, headers)) as {
      id: number;
      result: { tools: { name: string; description: string; inputSchema: unknown }[] };
    };
    assert.equal(listed.id, 3);
    assert.deepEqual(
      listed.result.tools.map((t) => t.name),
      ['tool_one', 'tool_two'],
    );
    for (const t of listed.result.tools) {
      assert.match(t.description, /stand-in/i, 'each description says it is made up');
      assert.deepEqual(t.inputSchema, { type: 'object', properties: {} });
    }
  });

  it("initialises with the client's protocol version, refuses unknown methods, and accepts notifications without a body", () => {
    const init = body(
      mcpReply({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '1999-01-01' } }, {}),
    ) as { result: { protocolVersion: string } };
    assert.equal(init.result.protocolVersion, '1999-01-01');
    const unknown = body(mcpReply({ jsonrpc: '2.0', id: 2, method: 'server/discover' }, {})) as {
      error: { code: number };
    };
    assert.equal(unknown.error.code, -32601);
    const note = mcpReply({ jsonrpc: '2.0', method: 'notifications/initialized' }, {});
    assert.equal(note.status, 202);
    assert.equal(note.body, '');
    const call = body(mcpReply({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'tool_one' } }, {})) as {
      result: { isError: boolean };
    };
    assert.equal(call.result.isError, true);
  });
});

describe('Copilot CLI signed in (stand-in login)', () => {
  const context = (env: Record<string, string>) => ({
    mode: 'print' as const,
    args: [],
    env,
    baseEnv: { HOME: '/h' },
    binary: '/bin/copilot',
    node: '/bin/node',
    home: '/h',
    workdir: '/w',
    stubUrl: 'http://127.0.0.1:9',
    prompt: 'hi',
    apiKey: 'k',
  });

  it('points every GitHub endpoint at the stub, sets no offline mode and no bring-your-own-key provider', () => {
    const responsesModel = STAND_IN_MODELS.find((m) => m.endpoints.includes('/responses'))!.id;
    const inv = AGENTS['copilot-cli'].invoke(context({ [TOKEN_VARIABLE]: 'made-up', COPILOT_MODEL: responsesModel }));
    assert.equal(inv.env['GH_HOST'], 'http://127.0.0.1:9');
    assert.equal(inv.env['COPILOT_DEBUG_GITHUB_API_URL'], 'http://127.0.0.1:9');
    assert.equal(inv.env['COPILOT_API_URL'], 'http://127.0.0.1:9/v1');
    assert.equal(inv.env[TOKEN_VARIABLE], 'made-up');
    for (const k of ['COPILOT_OFFLINE', 'COPILOT_PROVIDER_BASE_URL', 'COPILOT_PROVIDER_API_KEY'])
      assert.equal(k in inv.env, false, k);
    // The stub answers its GitHub endpoints through the invocation's services: the stand-in catalogue.
    const models = inv.services?.({ method: 'GET', path: '/models', headers: {}, json: undefined });
    assert.deepEqual(
      (JSON.parse(models!.body) as { data: { id: string }[] }).data.map((m) => m.id),
      STAND_IN_MODELS.map((m) => m.id),
    );
  });

  it("gives Anthropic models the stub root, so that the CLI's /v1/messages is the wire path", () => {
    const anthropic = STAND_IN_MODELS.find((m) => m.endpoints.includes('/v1/messages'))!.id;
    assert.equal(copilotApiBase('http://s', anthropic), 'http://s');
    assert.equal(copilotApiBase('http://s', 'not-in-the-catalogue'), 'http://s/v1');
  });

  it('refuses a signed-in configuration without a model, and runs the others as before (offline, with a key)', () => {
    assert.throws(() => AGENTS['copilot-cli'].invoke(context({ [TOKEN_VARIABLE]: 'made-up' })), /COPILOT_MODEL/);
    const offline = AGENTS['copilot-cli'].invoke(context({}));
    assert.equal(offline.env['COPILOT_OFFLINE'], 'true');
    assert.equal(offline.services, undefined);
  });
});

describe('one page for an MCP tool sent namespaced and flat', () => {
  const tool = (fullName: string, name: string, namespace?: string): CapturedTool =>
    ({
      name,
      fullName,
      ...(namespace ? { namespace } : {}),
      delivery: 'function',
      input: { kind: 'json-schema', schema: { type: 'object' } } as unknown as CapturedTool['input'],
      output: { kind: 'unavailable', reason: 'x' } as CapturedTool['output'],
      pointer: '/body/tools/0',
      namePointer: '/body/tools/0/name',
    }) as CapturedTool;

  it('reads <server>.<server>-<tool> as <server>-<tool>, and nothing else', () => {
    assert.equal(unnamespaced({ name: 'srv-do_it', namespace: 'srv' }), 'srv-do_it');
    assert.equal(unnamespaced({ name: 'do_it', namespace: 'srv' }), undefined);
    assert.equal(unnamespaced({ name: 'srv-do_it' }), undefined);
  });

  it("indexes both forms under the flat name, keeping each configuration's own delivery", () => {
    const index = indexCaptured('copilot-cli', [
      { configuration: 'a', tools: [tool('srv.srv-do_it', 'srv-do_it', 'srv')] },
      { configuration: 'b', tools: [tool('srv-do_it', 'srv-do_it')] },
    ]);
    assert.deepEqual([...index.keys()], ['srv-do_it']);
    const entry = index.get('srv-do_it')!;
    assert.equal(entry.namespace, undefined);
    assert.deepEqual([...entry.byConfig.keys()], ['a', 'b']);
    assert.equal(entry.byConfig.get('a')!.namespace, 'srv');
  });
});

describe('stand-in definitions', () => {
  it('a tool the stand-in GitHub MCP server made up is recognised as ours: its page shows no schema, and says why', async () => {
    const { standInMcpTool } = await import('../../src/lib/agents/copilot-github-stub.ts');
    const { standInReason } = await import('../../src/lib/content/tool-synthesis.ts');
    const made = standInMcpTool('search_code');
    const captured = (description: string) =>
      ({
        name: 'x',
        delivery: 'function',
        description,
        input: { kind: 'json-schema', schema: made.inputSchema },
        output: { kind: 'unavailable', reason: '-' },
        pointer: '/tools/0',
      }) as unknown as CapturedTool;
    const entry = (agent: 'copilot-cli' | 'codex', description: string) => ({
      agent,
      fullName: 'x',
      name: 'x',
      byConfig: new Map([['c', captured(description)]]),
    });
    assert.equal(
      standInReason(entry('copilot-cli', made.description)),
      AGENTS['copilot-cli'].standInDefinitions?.reason,
    );
    // The CLI's own description, and another agent with the same words, are not stand-ins.
    assert.equal(standInReason(entry('copilot-cli', 'Search code across repositories.')), undefined);
    assert.equal(standInReason(entry('codex', made.description)), undefined);
  });
});
