import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  buildInvocation,
  descendants,
  isMainCandidate,
  DUMMY_KEY,
  PROMPT,
  type RunPaths,
} from '../../scripts/lib/capture/runner.ts';
import { claudeSeed, sdkInputLines, shellQuote } from '../../src/lib/agents/claude-code.ts';
import { handle } from '../../scripts/lib/capture/mcp-server.ts';
import {
  loadMatrix,
  selectConfigurations,
  validateMatrix,
  MatrixError,
  type Configuration,
} from '../../scripts/lib/capture/matrix.ts';
import type { RecordedRequest } from '../../scripts/lib/capture/stub-server.ts';

const ROOT = join(import.meta.dirname, '../..');
const PATHS: RunPaths = { home: '/c/home', workdir: '/c/work', node: '/bin/node', mcpServer: '/repo/mcp.ts' };
const URL = 'http://127.0.0.1:5000';
const cfg = (over: Partial<Configuration>): Configuration => ({
  id: 'x',
  label: 'x',
  description: 'x',
  mode: 'print',
  args: [],
  env: {},
  ...over,
});

test('codex exec: fixed invocation, prompt on stdin, config.toml pointing at the stub, extra lines before the provider table', () => {
  const inv = buildInvocation(
    'codex',
    cfg({
      mode: 'exec',
      args: ['-m', 'gpt-5.5'],
      env: { X: '$HOME/x' },
      configToml: 'a = 1\n[mcp_servers.s]\ncommand = "$NODE"',
    }),
    '/bin/codex',
    PATHS,
    URL,
  );
  assert.equal(inv.command, '/bin/codex');
  assert.deepEqual(inv.args, ['exec', '--skip-git-repo-check', '--json', '-m', 'gpt-5.5']);
  assert.deepEqual(inv.input, { kind: 'stdin', text: `${PROMPT}\n` });
  assert.equal(inv.env['CODEX_HOME'], '/c/home/.codex');
  assert.equal(inv.env['HOME'], '/c/home');
  assert.equal(inv.env['X'], '/c/home/x');
  assert.equal(inv.env['CAPTURE_STUB_API_KEY'], DUMMY_KEY);
  assert.equal(inv.env['OPENAI_API_KEY'], undefined, 'nothing is inherited');
  const toml = inv.files.get('/c/home/.codex/config.toml')!;
  assert.equal(
    toml,
    [
      'model_provider = "capture_stub"',
      'check_for_update_on_startup = false',
      'a = 1',
      '[mcp_servers.s]',
      'command = "/bin/node"',
      '[model_providers.capture_stub]',
      'name = "capture stub"',
      `base_url = "${URL}/v1"`,
      'env_key = "CAPTURE_STUB_API_KEY"',
      'wire_api = "responses"',
      '',
    ].join('\n'),
  );
});

test('claude print and sdk: fixed flags first, then the configuration args with placeholders expanded', () => {
  const print = buildInvocation(
    'claude-code',
    cfg({ args: ['--mcp-config', '{"command":"$NODE"}'], env: { ENABLE_TOOL_SEARCH: 'false' } }),
    '/bin/claude',
    PATHS,
    URL,
  );
  assert.deepEqual(print.args, ['-p', '--output-format', 'json', '--mcp-config', '{"command":"/bin/node"}']);
  assert.equal(print.env['ANTHROPIC_BASE_URL'], URL);
  assert.equal(print.env['ENABLE_TOOL_SEARCH'], 'false');
  assert.deepEqual(print.input, { kind: 'stdin', text: `${PROMPT}\n` });
  const sdk = buildInvocation('claude-code', cfg({ mode: 'sdk' }), '/bin/claude', PATHS, URL);
  assert.deepEqual(sdk.args, [
    '--output-format',
    'stream-json',
    '--verbose',
    '--input-format',
    'stream-json',
    '--permission-prompt-tool',
    'stdio',
  ]);
  assert.ok(sdk.input.kind === 'stream');
  assert.deepEqual(sdk.input.lines, sdkInputLines(PROMPT));
  assert.equal(
    sdk.input.closeWhen({ type: 'result', subtype: 'success' }),
    true,
    'the input is closed once the result arrives',
  );
  assert.equal(sdk.input.closeWhen({ type: 'assistant' }), false);
  assert.equal(sdk.input.closeWhen(null), false);
  const [init, user] = sdkInputLines(PROMPT).map((l) => JSON.parse(l));
  assert.equal(init.request.subtype, 'initialize');
  assert.equal(user.type, 'user');
  assert.equal(user.message.content[0].text, PROMPT);
});

test('claude interactive: a pseudo-terminal through script(1), the prompt first, and a seeded ~/.claude.json', () => {
  const inv = buildInvocation(
    'claude-code',
    cfg({ mode: 'interactive', args: ['--allowedTools', 'Glob'] }),
    '/bin/claude',
    PATHS,
    URL,
  );
  assert.equal(inv.command, '/usr/bin/script');
  assert.deepEqual(inv.input, { kind: 'pty' });
  assert.deepEqual([inv.env['COLUMNS'], inv.env['LINES']], ['120', '40']);
  assert.deepEqual(inv.args, [
    '-q',
    '-e',
    '-c',
    `/bin/claude 'Reply with the single word: ok' --allowedTools Glob`,
    '/dev/null',
  ]);
  const seed = JSON.parse(inv.files.get('/c/home/.claude.json')!);
  assert.equal(seed.hasCompletedOnboarding, true);
  assert.equal(seed.projects['/c/work'].hasTrustDialogAccepted, true);
  assert.deepEqual(seed.customApiKeyResponses.approved, [DUMMY_KEY.slice(-20)]);
  assert.deepEqual(seed, claudeSeed('/c/work', DUMMY_KEY));
});

test('shellQuote leaves plain words and quotes the rest safely', () => {
  assert.equal(shellQuote('/a/b-c.d'), '/a/b-c.d');
  assert.equal(shellQuote('a b'), `'a b'`);
  assert.equal(shellQuote(`it's`), `'it'\\''s'`);
  assert.equal(shellQuote('{"x":1}'), `'{"x":1}'`);
});

test('the interactive run ends on the prompted streaming Messages request with tools only', () => {
  const r = (json: unknown): RecordedRequest => ({
    index: 0,
    method: 'POST',
    url: '/v1/messages?beta=true',
    headers: {},
    text: '',
    json,
  });
  const tools = [{ name: 'Bash', input_schema: { type: 'object' } }];
  assert.equal(
    isMainCandidate('claude-code', r({ stream: true, tools, messages: [{ role: 'user', content: PROMPT }] })),
    true,
  );
  assert.equal(
    isMainCandidate(
      'claude-code',
      r({ stream: true, tools, messages: [{ role: 'user', content: `<session>${PROMPT}</session>` }] }),
    ),
    false,
  );
  assert.equal(
    isMainCandidate('claude-code', r({ stream: false, tools, messages: [{ role: 'user', content: PROMPT }] })),
    false,
  );
  // The session-title request (Claude Code 2.1.81 on) quotes the prompt, streams, and offers no tools: the turn comes
  // after it.
  assert.equal(
    isMainCandidate('claude-code', r({ stream: true, tools: [], messages: [{ role: 'user', content: PROMPT }] })),
    false,
  );
  assert.equal(
    isMainCandidate('claude-code', r({ stream: true, messages: [{ role: 'user', content: PROMPT }] })),
    false,
  );
});

test('the stub MCP server answers initialize, lists one tool and one resource, and rejects unknown methods', () => {
  const init = handle({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-03-26' },
  }) as any;
  assert.equal(init.result.protocolVersion, '2025-03-26');
  assert.ok(init.result.capabilities.tools && init.result.capabilities.resources);
  assert.equal(handle({ jsonrpc: '2.0', method: 'notifications/initialized' }), undefined);
  assert.deepEqual(
    (handle({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) as any).result.tools.map((t: any) => t.name),
    ['echo'],
  );
  assert.deepEqual(
    (handle({ jsonrpc: '2.0', id: 3, method: 'resources/list' }) as any).result.resources.map((r: any) => r.uri),
    ['capture://readme'],
  );
  assert.equal(
    (
      handle({
        jsonrpc: '2.0',
        id: 4,
        method: 'tools/call',
        params: { name: 'echo', arguments: { text: 'hi' } },
      }) as any
    ).result.content[0].text,
    'hi',
  );
  assert.equal((handle({ jsonrpc: '2.0', id: 5, method: 'nope' }) as any).error.code, -32601);
});

test('the committed matrix is valid, ids are unique, and --only selects by agent or agent/id', () => {
  const matrix = loadMatrix(ROOT);
  assert.ok(selectConfigurations(matrix, []).length >= 20);
  assert.deepEqual(
    selectConfigurations(matrix, ['codex/gpt-5-5']).map((s) => `${s.agent}/${s.configuration.id}`),
    ['codex/gpt-5-5'],
  );
  assert.ok(selectConfigurations(matrix, ['claude-code']).every((s) => s.agent === 'claude-code'));
  assert.throws(() => selectConfigurations(matrix, ['codex/nope']), MatrixError);
  const schema = JSON.parse(readFileSync(join(ROOT, 'schemas/capture-matrix.schema.json'), 'utf8'));
  const dup = structuredClone(matrix);
  dup.agents.codex.configurations.push(structuredClone(dup.agents.codex.configurations[0]!));
  assert.throws(() => validateMatrix(dup, schema), /used twice/);
  const wrongMode = structuredClone(matrix) as any;
  wrongMode.agents.codex.configurations[0].mode = 'print';
  assert.throws(
    () => validateMatrix(wrongMode, schema),
    /\/agents\/codex\/configurations\/0\/mode: codex has no mode print/,
  );
  const unknownMode = structuredClone(matrix) as any;
  unknownMode.agents.codex.configurations[0].mode = 'batch';
  assert.throws(
    () => validateMatrix(unknownMode, schema),
    /does not match[\s\S]*\/agents\/codex\/configurations\/0\/mode/,
  );
  const unknownAgent = structuredClone(matrix) as any;
  unknownAgent.agents['other-cli'] = unknownAgent.agents.codex;
  assert.throws(
    () => validateMatrix(unknownAgent, schema),
    /does not match[\s\S]*\/agents: property name must be valid/,
  );
  const badId = structuredClone(matrix) as any;
  badId.agents['claude-code'].configurations[0].id = 'Print Mode';
  assert.throws(() => validateMatrix(badId, schema), /\/agents\/claude-code\/configurations\/0\/id/);
});

test('descendants walks the process table depth-first, children before their parent', () => {
  const table = [
    { pid: 10, ppid: 1, pgrp: 10 },
    { pid: 11, ppid: 10, pgrp: 10 },
    { pid: 12, ppid: 11, pgrp: 12 },
    { pid: 13, ppid: 10, pgrp: 10 },
    { pid: 20, ppid: 1, pgrp: 20 },
  ];
  assert.deepEqual(descendants(10, table), [12, 11, 13]);
  assert.deepEqual(descendants(20, table), []);
});

test('an interactive run also ends on a prompted request of another of its wire formats, with context before the prompt', () => {
  const r = (url: string, json: unknown): RecordedRequest => ({
    index: 0,
    method: 'POST',
    url,
    headers: {},
    text: '',
    json,
  });
  // Codex speaks only OpenAI Responses: a Messages request is not its main request.
  const tools = [{ type: 'function', name: 'shell', parameters: { type: 'object' } }];
  assert.equal(
    isMainCandidate('codex', r('/v1/messages', { stream: true, tools, messages: [{ role: 'user', content: PROMPT }] })),
    false,
  );
  assert.equal(
    isMainCandidate(
      'codex',
      r('/v1/responses', {
        stream: true,
        tools,
        input: [{ role: 'user', content: [{ type: 'input_text', text: `<environment_context/>\n\n${PROMPT}` }] }],
      }),
    ),
    true,
  );
});

import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { runConfiguration } from '../../scripts/lib/capture/runner.ts';
import { AGENTS } from '../../src/lib/agents/index.ts';
import { buildCapture } from '../../scripts/lib/capture/capture-file.ts';

/** A stand-in CLI (Node.js script) that posts Chat Completions turns to `base` and behaves as `rest` says. */
function fakeCli(rest: string): string {
  return `
const turn = (text) => fetch(BASE + '/chat/completions', { method: 'POST', headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ model: 'stub-model', stream: true, tools: [{ type: 'function', function: { name: 'bash', parameters: { type: 'object' } } }], messages: [{ role: 'user', content: text }] }) }).then((r) => r.text());
${rest}
`;
}

test("a run whose invocation ends after its turn (Copilot CLI autopilot) is ended once the prompt's turn is answered, though the CLI keeps looping; a script program runs with Node.js", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'runner-autopilot-'));
  try {
    // Like autopilot 1.0.11–1.0.39 against the stub: the first turn, then continuation turns without end.
    const script = join(dir, 'index.js');
    writeFileSync(
      script,
      fakeCli(`const BASE = process.env.COPILOT_PROVIDER_BASE_URL;
const prompt = process.argv[process.argv.indexOf('-p') + 1];
await turn('<current_datetime>now</current_datetime>\\n\\n' + prompt + '\\n\\n<reminder>\\n<sql_tables>none</sql_tables>\\n</reminder>');
for (;;) { await turn('You have not yet marked the task as complete.'); await new Promise((r) => setTimeout(r, 50)); }`),
    );
    const configuration = cfg({ id: 'autopilot', args: ['--autopilot'], timeoutSeconds: 30 });
    const paths: RunPaths = {
      home: join(dir, 'home'),
      workdir: join(dir, 'work'),
      node: process.execPath,
      mcpServer: join(dir, 'mcp.ts'),
    };
    const outcome = await runConfiguration('copilot-cli', configuration, script, paths);
    assert.equal(outcome.timedOut, false);
    assert.equal(outcome.endedAfterRequest, true);
    assert.equal(outcome.turnRecorded, true, 'its turn reached the stub before we ended it');
    assert.ok(outcome.requests.length >= 1);
    assert.doesNotThrow(() => buildCapture('copilot-cli', '@github/copilot', '1.0.11', configuration, outcome));
    assert.equal(
      AGENTS['copilot-cli'].mainRequest(outcome.requests, PROMPT),
      outcome.requests[0],
      'the capture is the first turn',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the stub answers the services an invocation declares (Copilot CLI's stand-in GitHub login)", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'runner-services-'));
  try {
    // A signed-in CLI asks its GitHub host who is signed in and its Copilot API for the models, then takes its turn.
    const script = join(dir, 'index.js');
    writeFileSync(
      script,
      fakeCli(`const BASE = process.env.COPILOT_API_URL;
const user = await fetch(process.env.GH_HOST + '/copilot_internal/user').then((r) => r.json());
const models = await fetch(BASE + '/models').then((r) => r.json());
if (!user.login || models.data.length === 0) { console.error('not signed in'); process.exit(1); }
await turn(process.argv[process.argv.indexOf('-p') + 1]);`),
    );
    const configuration = cfg({
      id: 'signed-in',
      env: { COPILOT_GITHUB_TOKEN: 'made-up', COPILOT_MODEL: 'gpt-4o' },
      timeoutSeconds: 30,
    });
    const paths: RunPaths = {
      home: join(dir, 'home'),
      workdir: join(dir, 'work'),
      node: process.execPath,
      mcpServer: join(dir, 'mcp.ts'),
    };
    const outcome = await runConfiguration('copilot-cli', configuration, script, paths);
    assert.equal(outcome.exitCode, 0, outcome.stderr);
    assert.deepEqual(
      outcome.requests.map((r) => `${r.method} ${r.url}`),
      ['GET /copilot_internal/user', 'GET /v1/models', 'POST /v1/chat/completions'],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("OpenCode's model catalogue is served by the stub at OPENCODE_MODELS_URL, so a release that fetches it before its turn runs", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'runner-models-'));
  try {
    // OpenCode 1.1.31's binary: `fetch(\`\${url2}/api.json\`)` then `JSON.parse`, url2 being
    // process.env.OPENCODE_MODELS_URL || its own site.
    const program = join(dir, 'opencode');
    writeFileSync(
      program,
      `#!${process.execPath}
(async () => {
  const url = process.env.OPENCODE_MODELS_URL;
  if (!url) { console.error('Error: no OPENCODE_MODELS_URL'); process.exit(1); }
  const res = await fetch(url + '/api.json');
  const catalogue = JSON.parse(await res.text());
  if (!res.ok || catalogue === null || typeof catalogue !== 'object' || Array.isArray(catalogue)) { console.error('Error: bad catalogue ' + res.status); process.exit(1); }
  const settings = JSON.parse(require('node:fs').readFileSync(process.env.HOME + '/.config/opencode/opencode.json', 'utf8'));
  await fetch(settings.provider.stub.options.baseURL + '/chat/completions', { method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'stub-model', stream: true, tools: [{ type: 'function', function: { name: 'bash', parameters: { type: 'object' } } }], messages: [{ role: 'user', content: process.argv.slice(3).join(' ') }] }) }).then((r) => r.text());
})();
`,
    );
    writeFileSync(join(dir, 'package.json'), '{"type":"commonjs"}');
    chmodSync(program, 0o755);
    const configuration = cfg({ id: 'print', timeoutSeconds: 30 });
    const paths: RunPaths = {
      home: join(dir, 'home'),
      workdir: join(dir, 'work'),
      node: process.execPath,
      mcpServer: join(dir, 'mcp.ts'),
    };
    const outcome = await runConfiguration('opencode', configuration, program, paths);
    assert.equal(outcome.exitCode, 0, outcome.stderr);
    assert.deepEqual(
      outcome.requests.map((r) => `${r.method} ${r.url}`),
      ['GET /api.json', 'POST /v1/chat/completions'],
    );
    assert.doesNotThrow(() => buildCapture('opencode', 'opencode-ai', '1.1.31', configuration, outcome));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a process that left the run's process group (a detached daemon) is killed by the folder it works in, or names", async () => {
  const { spawn } = await import('node:child_process');
  const { killRunningIn } = await import('../../scripts/lib/capture/runner.ts');
  const run = mkdtempSync(join(tmpdir(), 'run-'));
  const elsewhere = mkdtempSync(join(tmpdir(), 'elsewhere-'));
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  // Session leaders of their own (setsid, as a daemon makes itself), each outliving the spawn call.
  const start = (cwd: string, args: string[]) => {
    const child = spawn('sleep', args, { cwd, detached: true, stdio: 'ignore' });
    child.unref();
    return child.pid!;
  };
  const inFolder = start(run, ['300']);
  const byArgument = spawn('sh', ['-c', 'sleep 300', `${run}/work`], {
    cwd: elsewhere,
    detached: true,
    stdio: 'ignore',
  });
  byArgument.unref();
  const other = start(elsewhere, ['301']);
  try {
    await new Promise((r) => setTimeout(r, 200));
    const killed = killRunningIn([run]);
    await new Promise((r) => setTimeout(r, 200));
    assert.ok(killed.includes(inFolder) && killed.includes(byArgument.pid!), `killed ${killed.join(', ')}`);
    assert.equal(alive(inFolder), false, 'the one working in the run folder is gone');
    assert.equal(alive(byArgument.pid!), false, 'the one naming the run folder is gone');
    assert.equal(alive(other), true, 'a process elsewhere is left alone');
    assert.equal(alive(process.pid), true);
  } finally {
    for (const pid of [inFolder, byArgument.pid!, other]) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone
      }
    }
    rmSync(run, { recursive: true, force: true });
    rmSync(elsewhere, { recursive: true, force: true });
  }
});
