/**
 * Hooks pages and hook schemas (src/lib/behaviour/hooks.ts, hook-schemas.ts, hooks-page.ts)
 * against the recorded payloads read directly from content/payloads/: every
 * agent with a payload folder, none named here.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { AGENT_IDS, AGENTS } from '../../src/lib/agents/index.ts';
import type { AgentId, PayloadFile } from '../../src/lib/core/content-types.ts';
import { hookMember } from '../../src/lib/agents/hook-shape.ts';
import { agentHooks } from '../../src/lib/behaviour/hooks.ts';
import { eventSchema, inferSchema, toolHookSchema } from '../../src/lib/behaviour/hook-schemas.ts';
import { hooksComparison, hooksPage, notAdvertisedReason, standInReason } from '../../src/lib/views/hooks-page.ts';
import { toolForCall } from '../../src/lib/model/tool-names.ts';
import { realContent } from '../helpers/real-content.ts';

const ROOT = join(import.meta.dirname, '../..');
const PAYLOADS = join(ROOT, 'content/payloads');
const site = realContent();
/** The agents with recorded payloads, from the folders present. */
const recordedAgents = (existsSync(PAYLOADS) ? readdirSync(PAYLOADS) : []).filter((d): d is AgentId =>
  (AGENT_IDS as readonly string[]).includes(d),
);
const filesOf = (agent: string): PayloadFile[] =>
  readdirSync(join(PAYLOADS, agent)).map(
    (f) => JSON.parse(readFileSync(join(PAYLOADS, agent, f), 'utf8')) as PayloadFile,
  );
const isPlaceholder = (v: unknown) => typeof v === 'string' && /^\$[A-Z][A-Z0-9_]*$/.test(v);
const valueAt = (root: unknown, pointer: string): unknown =>
  pointer
    .split('/')
    .slice(1)
    .reduce<unknown>(
      (v, t) => (v as Record<string, unknown> | undefined)?.[t.replaceAll('~1', '/').replaceAll('~0', '~')],
      root,
    );

test('there are recorded payloads to test with', () => {
  assert.ok(recordedAgents.length > 0);
});

test('every hook payload of every payload file is gathered once, with the event its agent’s shape reads', () => {
  for (const agent of recordedAgents) {
    const files = filesOf(agent);
    const recorded = agentHooks(site, agent);
    const expected = files.reduce((n, f) => n + f.calls.reduce((m, c) => m + c.hooks.length, 0), 0);
    assert.equal(recorded.hooks.length, expected, agent);
    const shape = recorded.shape!;
    const events = new Set(
      files.flatMap((f) =>
        f.calls.flatMap((c) => c.hooks.map((h, i) => c.hookEvents?.[i] ?? hookMember(h, shape.eventField ?? ''))),
      ),
    );
    assert.deepEqual(new Set(recorded.events), events, agent);
  }
});

test('an event’s envelope schema requires exactly the members every recorded payload of it has', () => {
  for (const agent of recordedAgents) {
    const recorded = agentHooks(site, agent);
    const shape = recorded.shape!;
    const hooks = filesOf(agent).flatMap((f) =>
      f.calls.flatMap((c) =>
        c.hooks.map((h, i) => ({ h, event: c.hookEvents?.[i] ?? hookMember(h, shape.eventField ?? '') })),
      ),
    );
    for (const event of recorded.events) {
      const of = hooks.filter((x) => x.event === event).map((x) => x.h);
      const everywhere = Object.keys(of[0]!).filter((k) => of.every((h) => Object.hasOwn(h, k)));
      const schema = eventSchema(recorded, event, {});
      assert.deepEqual(new Set(schema['required'] as string[]), new Set(everywhere), `${agent} ${event}`);
      const members = new Set(of.flatMap((h) => Object.keys(h)));
      assert.deepEqual(new Set(Object.keys(schema['properties'] as object)), members, `${agent} ${event}`);
    }
  }
});

test('an envelope schema asked for again is equal, a copy of its own, and names the address it was asked for', () => {
  const agent = recordedAgents[0]!;
  const recorded = agentHooks(site, agent);
  const event = recorded.events[0]!;
  const first = eventSchema(recorded, event, {});
  first['title'] = 'changed by a caller';
  delete first['properties'];
  const again = eventSchema(recorded, event, {});
  assert.notEqual(again['title'], 'changed by a caller');
  assert.ok(again['properties'], 'the members are still there');
  assert.deepEqual(eventSchema(recorded, event, {}), again);
  const served = eventSchema(recorded, event, { site: 'https://example.invalid' });
  assert.match(String(served['$id']), /^https:\/\/example\.invalid\//);
  assert.doesNotMatch(String(again['$id']), /example\.invalid/);
});

test('every recorded hook payload validates against its tool’s hook schema (masked values aside)', () => {
  for (const agent of recordedAgents) {
    const recorded = agentHooks(site, agent);
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    for (const event of recorded.events) ajv.addSchema(eventSchema(recorded, event, {}));
    let checked = 0;
    for (const tool of new Set(recorded.hooks.map((h) => h.tool))) {
      const validate = ajv.compile(toolHookSchema(recorded, tool, {})!);
      // The inline schema stands alone: a fresh instance, which knows no other schema, compiles it. The shared
      // instance checks it against the meta-schema, which a fresh one would compile again for each tool (13 ms).
      const inlineSchema = toolHookSchema(recorded, tool, {}, { inline: true })!;
      assert.ok(ajv.validateSchema(inlineSchema), `${agent} ${tool}: ${ajv.errorsText(ajv.errors)}`);
      const inline = new Ajv2020({ strict: false, allErrors: true, validateSchema: false }).compile(inlineSchema);
      for (const hook of recorded.hooks.filter((h) => h.tool === tool)) {
        for (const v of [validate, inline]) {
          const errors = v(hook.payload)
            ? []
            : (v.errors ?? []).filter((e) => !isPlaceholder(valueAt(hook.payload, e.instancePath)));
          assert.deepEqual(errors, [], `${hook.example.file} call ${hook.callIndex + 1} ${hook.event}`);
        }
        checked++;
      }
    }
    assert.equal(checked, recorded.hooks.length);
  }
});

test('a recorded schema is the values’ types, nested; masked values give no type', () => {
  assert.deepEqual(inferSchema([{ a: 1, b: 'x' }, { a: 2.5 }]), {
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'string' } },
    required: ['a'],
  });
  assert.deepEqual(inferSchema(['$DURATION', 3]), { type: 'number' });
  assert.deepEqual(inferSchema(['$DURATION']), {
    description: 'Masked in every recording: its type is not established.',
  });
  assert.deepEqual(inferSchema([[1, 'a'], []]), { type: 'array', items: { type: ['number', 'string'] } });
  assert.deepEqual(inferSchema([null, true]), { type: ['null', 'boolean'] });
});

test("a hooks page answers in search to every event its recorded payloads carry and every event its agent's code names", () => {
  // The references: the recorded payloads (agentHooks) and the committed lists of content/hook-events/.
  for (const agent of AGENT_IDS) {
    const page = hooksPage(site, agent);
    const spelled = JSON.parse(page.search.spelled) as string[];
    const file = join(ROOT, 'content/hook-events', `${agent}.json`);
    const named = existsSync(file)
      ? (JSON.parse(readFileSync(file, 'utf8')) as { events: { name: string }[] }).events.map((e) => e.name)
      : [];
    const expected = [...new Set([...agentHooks(site, agent).events, ...named])];
    assert.deepEqual(
      expected.filter((e) => !spelled.includes(e)),
      [],
      `${agent}: events its hooks page does not answer to`,
    );
    assert.deepEqual(
      page.search.names.split(' ').filter(Boolean).sort(),
      [...new Set(spelled.map((e) => e.toLowerCase()))].sort(),
      `${agent}: names are the events lowercased`,
    );
    if (agentHooks(site, agent).events.length > 0) assert.ok(spelled.length > 0);
  }
});

test('a hooks page names the names hooks give each tool as recorded, per form of its events, and every tool without one', () => {
  for (const agent of recordedAgents) {
    const page = hooksPage(site, agent);
    const mechanism = AGENTS[agent].hooks;
    assert.ok(!('none' in mechanism));
    // The agent's declared forms: each payload is read with the shape whose events name its event.
    const shapes = [mechanism.shape, ...(mechanism.otherShapes ?? [])];
    const eventsOf = (s: (typeof shapes)[number]) => [s.before, s.after, s.afterFailure];
    const raw = new Map<string, Map<number, Set<string>>>();
    for (const f of filesOf(agent))
      for (const c of f.calls)
        c.hooks.forEach((h, i) => {
          const event = c.hookEvents?.[i] ?? hookMember(h, mechanism.shape.eventField ?? '');
          const form = Math.max(
            0,
            shapes.findIndex((s) => eventsOf(s).includes(event as string)),
          );
          const name = hookMember(h, shapes[form]!.toolNameField);
          if (typeof name !== 'string') return;
          const byForm = raw.get(c.tool) ?? raw.set(c.tool, new Map()).get(c.tool)!;
          (byForm.get(form) ?? byForm.set(form, new Set()).get(form)!).add(name);
        });
    const formsRecorded = [...new Set([...raw.values()].flatMap((m) => [...m.keys()]))].sort();
    assert.equal(page.nameForms.length, formsRecorded.length > 1 ? formsRecorded.length : 0, agent);
    for (const n of page.names) {
      // Which page a call's tool is on: the site's name resolution (aliases, MCP families), not the code under test.
      const seen = [...raw]
        .filter(([tool]) => toolForCall(site.tools, agent, tool)?.fullName === n.model)
        .map(([, m]) => m);
      const union = (forms: readonly number[]) =>
        new Set(seen.flatMap((m) => forms.flatMap((f) => [...(m.get(f) ?? [])])));
      assert.deepEqual(new Set(n.hooks), union(formsRecorded), `${agent} ${n.model}`);
      if (page.nameForms.length > 1)
        formsRecorded.forEach((f, i) =>
          assert.deepEqual(new Set(n.byForm[i]), union([f]), `${agent} ${n.model} form ${i}`),
        );
      else assert.deepEqual(n.byForm, [n.hooks]);
      assert.equal(
        n.differs,
        n.hooks.some((h) => h !== n.model),
      );
    }
    const tools = site.tools.filter((t) => t.agent === agent).length;
    assert.equal(page.names.length + page.without.length, tools, agent);
    assert.equal(page.notRecorded, undefined);
    assert.ok(page.sections.some((s) => s.id === 'envelope') && page.sections.some((s) => s.id === 'schemas'));
  }
});

test('where one tool has other names in another form of the events, the page warns with a recorded pair; otherwise it does not', () => {
  for (const agent of recordedAgents) {
    const page = hooksPage(site, agent);
    const differing = page.names.filter(
      (n) =>
        n.byForm.length > 1 &&
        n.byForm.every((f) => f.length > 0) &&
        n.byForm.some((f) => f.join() !== n.byForm[0]!.join()),
    );
    assert.equal(page.trap !== undefined, differing.length > 0, agent);
    if (!page.trap) continue;
    const row = page.names.find((n) => n.model === page.trap!.tool)!;
    assert.deepEqual(
      page.trap.forms.map((f) => f.names),
      row.byForm,
    );
    assert.deepEqual(
      page.trap.forms.map((f) => f.events),
      page.nameForms.map((f) => f.events),
    );
    // Its names differ from form to form, so a matcher copied from the other form never matches.
    for (const [i, f] of page.trap.forms.entries())
      for (const [j, g] of page.trap.forms.entries())
        if (i !== j)
          assert.ok(
            f.names.every((n) => !g.names.includes(n)),
            `${agent} ${page.trap.tool}`,
          );
  }
});

test('an agent whose hooks are plugin functions is worded so: no matcher, no standard input', () => {
  for (const agent of AGENT_IDS) {
    const hooks = AGENTS[agent].hooks;
    if ('none' in hooks) continue; // an agent without hooks: see the test below
    const plugin = hooks.kind === 'plugin';
    const page = hooksPage(site, agent);
    const text = [
      page.description,
      page.words.recorder,
      page.words.namesUse,
      page.words.schemaOf,
      ...page.sections.map((s) => s.title),
    ].join(' ');
    assert.equal(/standard input/.test(text), !plugin, agent);
    assert.equal(/Matchers/.test(text), !plugin, agent);
    if (plugin) {
      assert.doesNotMatch(text, /matcher/i, agent);
      assert.ok(text.includes(hooks.shape.before) && text.includes(hooks.shape.after), agent);
    }
  }
});

test('an agent without recordings has a page that says why, from its registry module, and shows no recorded section', () => {
  for (const agent of AGENT_IDS.filter((a) => !recordedAgents.includes(a))) {
    const page = hooksPage(site, agent);
    const hooks = AGENTS[agent].hooks;
    if ('none' in hooks) assert.equal(page.notRecorded, hooks.none);
    else assert.ok(page.notRecorded);
    for (const id of ['failures', 'envelope', 'tool-names', 'examples', 'schemas'])
      assert.ok(!page.sections.some((s) => s.id === id), `${agent} ${id}`);
  }
});

test('the comparison has a row per agent in registry order, and envelope columns only for agents with recordings', () => {
  const comparison = hooksComparison(site);
  assert.deepEqual(
    comparison.rows.map((r) => r.agent),
    site.agents.map((a) => a.id),
  );
  assert.deepEqual(new Set(comparison.memberAgents.map((a) => a.agent)), new Set(recordedAgents));
  // How hooks are written is said only for agents whose module records them; the others claim nothing.
  for (const row of comparison.rows) {
    const hooks = AGENTS[row.agent].hooks;
    if ('none' in hooks) assert.equal(row.kind, 'not established', row.agent);
    else if (hooks.kind !== 'plugin') assert.equal(row.kind, 'commands, with matchers', row.agent);
    // Plugin hooks in the module's own nouns (Pi: extension handlers), OpenCode's by default.
    else
      assert.equal(
        row.kind,
        `${hooks.pluginWords ? `${hooks.pluginWords.host.replace(/^an? /, '')} ${hooks.pluginWords.handler}s` : 'plugin functions'}, called for every tool`,
        row.agent,
      );
  }
});

test('every tool of every agent with recordings has a recorded hook payload or a reason it has none', () => {
  for (const agent of recordedAgents) {
    const missing = hooksPage(site, agent)
      .without.filter((t) => t.why === undefined)
      .map((t) => t.name);
    assert.deepEqual(missing, [], agent);
  }
});

test('the reason "no captured configuration advertises it" is given only to tools that no capture file names', () => {
  const CAPTURES = join(ROOT, 'content/captures');
  let given = 0;
  for (const agent of recordedAgents) {
    const dir = join(CAPTURES, agent);
    // The raw capture files, read as text: a tool a configuration advertises is named there.
    const texts = existsSync(dir) ? readdirSync(dir).map((f) => readFileSync(join(dir, f), 'utf8')) : [];
    for (const w of hooksPage(site, agent).without) {
      if (!w.why?.startsWith('No captured configuration advertises it')) continue;
      given++;
      const last = w.name.split('.').at(-1)!;
      assert.ok(
        !texts.some((t) => t.includes(`"name": ${JSON.stringify(last)}`)),
        `${agent} ${w.name} is named in a capture`,
      );
    }
  }
  assert.ok(given > 0, 'some tool is known from types or documentation only');
});

test('the stand-in reason is given only to tools whose captured description is one our stub wrote', () => {
  let given = 0;
  for (const agent of recordedAgents) {
    const prefix = AGENTS[agent].standInDefinitions?.descriptionPrefix;
    for (const w of hooksPage(site, agent).without) {
      if (w.why !== standInReason({ standIn: 'x' })) continue;
      given++;
      const tool = site.tools.find((t) => t.agent === agent && t.fullName === w.name)!;
      const descriptions = [...(tool.captured?.byConfig.values() ?? [])].map((c) => c.description ?? '');
      assert.ok(
        prefix !== undefined && descriptions.length > 0 && descriptions.every((d) => d.startsWith(prefix)),
        `${agent} ${w.name}`,
      );
    }
  }
  assert.equal(standInReason({}), undefined);
  assert.ok(given > 0 || recordedAgents.every((a) => AGENTS[a].standInDefinitions === undefined));
});

test('notAdvertisedReason: a reason for a tool no configuration advertises, none for one that some does', () => {
  const advertised = {
    source: 'capture' as const,
    captured: { agent: 'codex' as const, fullName: 'x', name: 'x', byConfig: new Map([['c', {} as never]]) },
  };
  assert.equal(notAdvertisedReason(advertised), undefined);
  assert.match(
    notAdvertisedReason({ source: 'sdk' })!,
    /^No captured configuration advertises it \(it is known from the published SDK types only\)/,
  );
  assert.match(
    notAdvertisedReason({ source: 'documented', editorial: { availability: { prose: 'p', gates: [] } } as never })!,
    /public documentation only; its page says what would turn it on/,
  );
});
