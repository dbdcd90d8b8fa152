/**
 * Hook output schemas: reading them from published declarations, a plugin interface and a
 * program's bytes (scripts/lib/hook-outputs.ts), and what the site makes of them
 * (src/lib/behaviour/hook-outputs.ts, the checker's reading of a hook's answer). Each input is written
 * here by hand; the committed schemas are checked against answers the recorded cases showed
 * the CLI acting on.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { embeddedOutputs, embeddedSchemas, pluginOutputs, typescriptOutputs } from '../../scripts/lib/hook-outputs.ts';
import {
  answerMembers,
  hookOutputsView,
  outputCheck,
  outputMembers,
  publishedOutputSchema,
} from '../../src/lib/behaviour/hook-outputs.ts';
import { outputAnswer, readPayload } from '../../src/lib/check/payload-check-ui.ts';
import type { HookBehaviourRecord, HookOutputs } from '../../src/lib/model/model.ts';

const ROOT = join(import.meta.dirname, '../..');

const DECLARATIONS = `
/** What any hook may print. */
export type SyncOutput = {
  continue?: boolean;
  /** Why the hook stopped. */
  reason?: string;
  hookSpecificOutput?: PreToolUseHookSpecificOutput | PostToolUseHookSpecificOutput;
};
export type PreToolUseHookSpecificOutput = {
  hookEventName: 'PreToolUse';
  permissionDecision?: 'allow' | 'deny';
  updatedInput?: Record<string, unknown>;
};
export type PostToolUseHookSpecificOutput = {
  hookEventName: 'PostToolUse';
  additionalContext?: string;
};
export type UnrelatedThing = { x: number };
`;

test('typescript outputs: each type named like the pattern is an event, narrowed into the base type', () => {
  const events = typescriptOutputs(
    DECLARATIONS,
    {
      form: 'typescript',
      package: 'p',
      version: 'capture-pin',
      files: ['x.d.ts'],
      pattern: '{event}HookSpecificOutput',
      naming: 'as-is',
      base: { type: 'SyncOutput', member: 'hookSpecificOutput' },
    },
    undefined,
  );
  assert.deepEqual(
    events.map((e) => e.event),
    ['PostToolUse', 'PreToolUse'],
  );
  const pre = events.find((e) => e.event === 'PreToolUse')!;
  const ajv = new Ajv2020({ strict: false });
  const validate = ajv.compile(pre.schema);
  assert.equal(
    validate({ reason: 'r', hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny' } }),
    true,
  );
  // Narrowed: the other event's member is not one this event accepts.
  assert.equal(validate({ hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'c' } }), false);
  assert.equal(validate({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'maybe' } }), false);
  // Record<string, unknown> is understood without TypeScript's library.
  assert.equal(
    validate({ hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput: { command: 'ls' } } }),
    true,
  );
  // The documentation comes along.
  assert.equal(
    (pre.schema['properties'] as Record<string, { description?: string }>)['reason']!.description,
    'Why the hook stopped.',
  );
  assert.match(pre.declaredAs, /SyncOutput.*PreToolUseHookSpecificOutput/);
});

test('typescript outputs: camelCase events, and only the named events when asked', () => {
  const text =
    'export interface PreToolUseHookOutput { permissionDecision?: "allow" | "deny" }\nexport interface SessionEndHookOutput { note?: string }\nexport interface ToolHookOutput { x?: string }';
  const source = {
    form: 'typescript',
    package: 'p',
    version: 'capture-pin',
    files: ['t.d.ts'],
    pattern: '{event}HookOutput',
    naming: 'lower-first',
  } as const;
  assert.deepEqual(
    typescriptOutputs(text, source, undefined).map((e) => e.event),
    ['preToolUse', 'sessionEnd', 'tool'],
  );
  assert.deepEqual(
    typescriptOutputs(text, source, new Set(['preToolUse', 'sessionEnd'])).map((e) => e.event),
    ['preToolUse', 'sessionEnd'],
  );
  assert.throws(
    () => typescriptOutputs(text, { ...source, pattern: '{event}Answer' }, undefined),
    /no declaration of t\.d\.ts is named like \{event\}Answer/,
  );
});

test('plugin outputs: the type of a parameter of each named interface member', () => {
  const text = `export interface Hooks {
    "tool.execute.before"?: (input: { tool: string }, output: { args: any }) => Promise<void>;
    "permission.ask"?: (input: unknown, output: { status: "ask" | "deny" | "allow" }) => Promise<void>;
  }`;
  const events = pluginOutputs(text, {
    form: 'plugin-output',
    package: 'p',
    version: 'capture-pin',
    file: 'index.d.ts',
    interface: 'Hooks',
    events: ['tool.execute.before', 'permission.ask'],
    parameter: 1,
  });
  assert.deepEqual(
    events.map((e) => [e.event, e.schema['required']]),
    [
      ['tool.execute.before', ['args']],
      ['permission.ask', ['status']],
    ],
  );
  assert.deepEqual((events[1]!.schema['properties'] as Record<string, { enum?: string[] }>)['status']!.enum, [
    'ask',
    'deny',
    'allow',
  ]);
  assert.throws(
    () =>
      pluginOutputs(text, {
        form: 'plugin-output',
        package: 'p',
        version: 'capture-pin',
        file: 'index.d.ts',
        interface: 'Hooks',
        events: ['tool.execute.after'],
        parameter: 1,
      }),
    /no function member "tool\.execute\.after"/,
  );
});

test('embedded schemas: pretty-printed objects found by their $schema line in a program, brace-matched through strings', () => {
  const pre = {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'pre-tool-use.command.output',
    type: 'object',
    additionalProperties: false,
    properties: {
      reason: { type: 'string', description: 'a } and a " and a {' },
      decision: { $ref: '#/definitions/Decision' },
    },
    definitions: { Decision: { enum: ['approve', 'block'] } },
  };
  const input = {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'pre-tool-use.command.input',
    type: 'object',
  };
  const bytes = Buffer.concat([
    Buffer.from([0, 1, 2, 0x7b, 0x7d, 0x7b]),
    Buffer.from('pre-tool-use.command.output'),
    Buffer.from(JSON.stringify(pre, null, 2)),
    Buffer.from('\0junk{'),
    Buffer.from(JSON.stringify(input, null, 2)),
    Buffer.from('{\n  "$schema": "unterminated'),
  ]);
  assert.deepEqual(
    embeddedSchemas(bytes).map((s) => s['title']),
    ['pre-tool-use.command.output', 'pre-tool-use.command.input'],
  );
  const events = embeddedOutputs(bytes, {
    form: 'embedded-json-schema',
    pattern: '{event}.command.output',
    naming: 'kebab-to-pascal',
  });
  assert.deepEqual(
    events.map((e) => e.event),
    ['PreToolUse'],
  );
  // Draft-07 in 2020-12 terms: definitions are $defs, and the references follow.
  assert.deepEqual(events[0]!.schema['$defs'], { Decision: { enum: ['approve', 'block'] } });
  assert.equal(
    (events[0]!.schema['properties'] as Record<string, { $ref?: string }>)['decision']!.$ref,
    '#/$defs/Decision',
  );
  assert.equal(events[0]!.schema['$schema'], undefined);
  assert.throws(
    () =>
      embeddedOutputs(Buffer.from('nothing here'), {
        form: 'embedded-json-schema',
        pattern: '{event}.command.output',
        naming: 'kebab-to-pascal',
      }),
    /no JSON Schema titled like/,
  );
});

const OUTPUTS: HookOutputs = {
  agent: 'claude-code',
  file: 'content/hook-outputs/claude-code.json',
  source: { package: '@x/sdk', version: '1.2.3', file: 'sdk.d.ts', form: 'typescript' },
  events: [
    {
      event: 'PreToolUse',
      declaredAs: 'Sync',
      schema: {
        type: 'object',
        properties: {
          decision: { type: 'string', enum: ['approve', 'block'] },
          hookSpecificOutput: {
            type: 'object',
            properties: {
              hookEventName: { type: 'string', const: 'PreToolUse' },
              permissionDecision: { type: 'string', enum: ['allow', 'deny'], description: 'What to do.' },
            },
            required: ['hookEventName'],
          },
        },
      },
    },
    {
      event: 'PostToolUse',
      declaredAs: 'Sync',
      schema: {
        type: 'object',
        properties: {
          hookSpecificOutput: {
            type: 'object',
            properties: { hookEventName: { const: 'PostToolUse' }, additionalContext: { type: 'string' } },
          },
        },
      },
    },
    { event: 'Stop', declaredAs: 'Sync', schema: { type: 'object' } },
  ],
};

test('output members: properties and one level into object members, typed in words', () => {
  assert.deepEqual(outputMembers(OUTPUTS.events[0]!.schema), [
    { path: 'decision', type: '"approve" | "block"', description: undefined },
    { path: 'hookSpecificOutput', type: 'object', description: undefined },
    { path: 'hookSpecificOutput.hookEventName', type: '"PreToolUse"', description: undefined },
    { path: 'hookSpecificOutput.permissionDecision', type: '"allow" | "deny"', description: 'What to do.' },
  ]);
  // A member given by reference is read where it points.
  assert.deepEqual(
    outputMembers({
      properties: { d: { allOf: [{ $ref: '#/$defs/D' }], default: null } },
      $defs: { D: { enum: ['a'] } },
    }),
    [{ path: 'd', type: '"a"', description: undefined }],
  );
});

test("a case's answer names its members: JSON keys one level deep, or what a plugin's script changes", () => {
  assert.deepEqual(
    answerMembers({
      stdout: '{"decision":"block","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}',
      stderr: '',
      exitCode: 0,
    }),
    ['decision', 'hookSpecificOutput', 'hookSpecificOutput.hookEventName', 'hookSpecificOutput.permissionDecision'],
  );
  assert.deepEqual(answerMembers({ stdout: 'not json', stderr: '', exitCode: 0 }), []);
  assert.deepEqual(
    answerMembers({
      stdout: '',
      stderr: '',
      exitCode: 0,
      script: "output.args.command = 'x'; output.output = 'y'; output.args = {}",
    }),
    ['args', 'output'],
  );
});

test('the hooks page view: members link to the cases that used them; events no case answered are listed apart', () => {
  const record = (id: string, event: string, stdout: string) =>
    ({
      agent: 'claude-code',
      case: id,
      event,
      hookReturn: { stdout, stderr: '', exitCode: 0 },
    }) as unknown as HookBehaviourRecord;
  const view = hookOutputsView(OUTPUTS, [
    record('deny', 'PreToolUse', '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}'),
    record('block', 'PreToolUse', '{"decision":"block"}'),
  ])!;
  assert.deepEqual(
    view.answered.map((e) => e.event),
    ['PreToolUse'],
  );
  const byPath = Object.fromEntries(view.answered[0]!.members.map((m) => [m.path, m.cases.map((c) => c.anchor)]));
  assert.deepEqual(byPath, {
    decision: ['case-block'],
    hookSpecificOutput: ['case-deny'],
    'hookSpecificOutput.hookEventName': ['case-deny'],
    'hookSpecificOutput.permissionDecision': ['case-deny'],
  });
  assert.deepEqual(
    view.others.map((o) => o.schemaPath),
    ['/claude-code/hooks/PostToolUse.output.schema.json', '/claude-code/hooks/Stop.output.schema.json'],
  );
  assert.equal(
    hookOutputsView({ agent: 'qwen-code', file: 'f', unavailable: 'Nothing says.' }, [])!.unavailable,
    'Nothing says.',
  );
});

test('the published output schema says where it comes from and keeps the declared body', () => {
  const schema = publishedOutputSchema(OUTPUTS as Extract<HookOutputs, { events: unknown }>, 'PreToolUse', {
    site: new URL('https://example.test/'),
  });
  assert.equal(schema['$id'], 'https://example.test/claude-code/hooks/PreToolUse.output.schema.json');
  assert.match(String(schema['title']), /PreToolUse hook output \(@x\/sdk@1\.2\.3, sdk\.d\.ts\)/);
  assert.deepEqual(schema['properties'], OUTPUTS.events[0]!.schema['properties']);
});

test("the checker reads a hook's answer apart from a tool input, and words the verdicts", () => {
  const check = outputCheck(OUTPUTS, ['PreToolUse', 'PostToolUse', 'PostToolUseFailure'])!;
  assert.deepEqual(
    check.events.map((e) => [e.event, e.validator]),
    [
      ['PreToolUse', '../hooks/PreToolUse.output.validate.js'],
      ['PostToolUse', '../hooks/PostToolUse.output.validate.js'],
    ],
  );
  assert.equal(check.eventField, 'hookSpecificOutput.hookEventName');
  assert.deepEqual(
    readPayload('{"hookSpecificOutput":{"hookEventName":"PostToolUse"}}', new Set(['command']), undefined, check),
    { kind: 'hook-output', value: { hookSpecificOutput: { hookEventName: 'PostToolUse' } }, event: 'PostToolUse' },
  );
  assert.equal(readPayload('{"decision":"block"}', new Set(['command']), undefined, check).kind, 'hook-output');
  // A member of the tool's own input, or one no output declares: a tool input.
  assert.equal(readPayload('{"decision":"block"}', new Set(['decision']), undefined, check).kind, 'input');
  assert.equal(
    readPayload('{"decision":"block","command":"ls"}', new Set(['command']), undefined, check).kind,
    'input',
  );
  assert.equal(readPayload('{"decision":"block"}', new Set(), undefined, undefined).kind, 'input');

  const valid = outputAnswer(
    [
      { event: 'PreToolUse', valid: false, errors: [] },
      { event: 'PostToolUse', valid: true, errors: [] },
    ],
    check,
    undefined,
  );
  assert.equal(valid.valid, true);
  assert.equal(valid.headline, 'Valid as the answer of a PostToolUse hook.');
  const invalid = outputAnswer(
    [
      {
        event: 'PreToolUse',
        valid: false,
        errors: [
          {
            instancePath: '/hookSpecificOutput/permissionDecision',
            message: 'must be equal to one of the allowed values',
            keyword: 'enum',
            schemaPath: '#',
            params: {},
          },
        ],
      },
    ],
    check,
    'PreToolUse',
  );
  assert.equal(invalid.valid, false);
  assert.equal(invalid.headline, 'Not valid as the answer of a PreToolUse hook: 1 error.');
  assert.deepEqual(
    invalid.lines.map((l) => l.text),
    ['must be equal to one of the allowed values'],
  );
  assert.match(invalid.lines[0]!.path, /hookSpecificOutput/);
  // A plugin's output object is changed, not printed: nothing to check.
  assert.equal(
    outputCheck(
      {
        ...OUTPUTS,
        source: { ...(OUTPUTS as Extract<HookOutputs, { events: unknown }>).source, form: 'plugin-output' },
      } as HookOutputs,
      ['PreToolUse'],
    ),
    undefined,
  );
});

test('each committed output schema accepts the deny answers the recorded cases showed the CLI obeying', () => {
  const ajv = new Ajv2020({ strict: false });
  let checked = 0;
  for (const file of readdirSync(join(ROOT, 'content/hook-outputs'))) {
    const outputs = JSON.parse(readFileSync(join(ROOT, 'content/hook-outputs', file), 'utf8')) as HookOutputs;
    if (!('events' in outputs) || outputs.source.form === 'plugin-output') continue;
    const dir = join(ROOT, 'content/hook-behaviour', outputs.agent);
    for (const name of readdirSync(dir)) {
      const record = JSON.parse(readFileSync(join(dir, name), 'utf8')) as HookBehaviourRecord;
      // A deny the CLI obeyed (the tool did not run) with a JSON answer and exit 0: the JSON is an answer the CLI
      // reads.
      // (A case whose deny came from a second hook of its own files prints nothing from the recording hook.)
      if (
        record.kind !== 'pre-deny' ||
        record.sideEffect?.happened !== false ||
        record.hookReturn.exitCode !== 0 ||
        record.hookReturn.stdout.trim() === ''
      )
        continue;
      const schema = outputs.events.find((e) => e.event === record.event)?.schema;
      assert.ok(schema, `${outputs.agent} publishes no output schema of ${record.event}, which ${name} answered`);
      const validate = ajv.compile(schema);
      assert.ok(
        validate(JSON.parse(record.hookReturn.stdout)),
        `${outputs.agent}/${name}: ${JSON.stringify(validate.errors)}`,
      );
      checked++;
    }
  }
  assert.ok(checked >= 3, `only ${checked} obeyed deny answers were checked`);
});

test("a source's note (what the declarations are the types of) reaches the page view and every published schema", () => {
  const noted = {
    ...OUTPUTS,
    source: { ...(OUTPUTS as Extract<HookOutputs, { events: unknown }>).source, note: 'These are SDK callback types.' },
  } as Extract<HookOutputs, { events: unknown }>;
  assert.equal(hookOutputsView(noted, [])!.note, 'These are SDK callback types.');
  assert.match(
    String(publishedOutputSchema(noted, 'Stop', { site: new URL('https://example.test/') })['description']),
    /These are SDK callback types\.$/,
  );
  assert.equal(hookOutputsView(OUTPUTS, [])!.note, undefined);
});
