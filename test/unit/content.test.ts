/**
 * The content loader on the fixture tree (test/fixtures/content): the good tree
 * loads; every rule the loader enforces is exercised by a bad copy of it, with
 * the exact file, JSON pointer and rule expected; the last test checks that no
 * rule in src/lib/content/ is left without such a case.
 */
import { createHash } from 'node:crypto';
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AGENT_IDS, AGENTS } from '../../src/lib/agents/index.ts';
import { ContentErrors, loadContent, type ContentError, type ContentWarning } from '../../src/lib/content/load.ts';
import type { Stage } from '../../src/lib/content/context.ts';
import { Problems } from '../../src/lib/content/problems.ts';
import { checkPages } from '../../src/lib/content/stages/pages.ts';

const ROOT = join(import.meta.dirname, '../..');
const GOOD = join(ROOT, 'test/fixtures/content');
/** Rules the tests below have seen reported. */
const exercised = new Set<string>();

function load(mutate: (dir: string) => void): { errors: ContentError[]; warnings: ContentWarning[] } {
  const dir = mkdtempSync(join(tmpdir(), 'content-'));
  const warnings: ContentWarning[] = [];
  try {
    cpSync(GOOD, dir, { recursive: true });
    mutate(dir);
    try {
      loadContent({ root: ROOT, contentDir: dir, onWarning: (w) => warnings.push(w) });
      return { errors: [], warnings };
    } catch (error) {
      assert.ok(error instanceof ContentErrors, `expected ContentErrors, got ${String(error)}`);
      for (const e of error.problems) exercised.add(e.rule.includes('#') ? '#schema' : e.rule);
      // Files are named relative to the root; the temporary folder is outside it.
      return {
        errors: error.problems.map((e) => Object.assign(e, { shortFile: e.file.replace(/^.*?content-[^/]+\//, '') })),
        warnings,
      };
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function errorsAfter(mutate: (dir: string) => void): (ContentError & { shortFile?: string })[] {
  const { errors } = load(mutate);
  assert.ok(errors.length > 0, 'content loaded although it is invalid');
  return errors;
}

/** [file relative to the content folder, pointer, rule] of each error. */
function where(errors: (ContentError & { shortFile?: string })[]): [string, string, string][] {
  return errors.map((e) => [e.shortFile ?? e.file, e.pointer, e.rule]);
}

function editJson(path: string, edit: (data: any) => void): void {
  const data = JSON.parse(readFileSync(path, 'utf8'));
  edit(data);
  writeFileSync(path, JSON.stringify(data, null, 2));
}

const show = (errors: ContentError[]) => errors.map((e) => e.message).join('\n');

test('the good fixture loads: editorial notes merged, rows from both definition kinds, captures attached and synthesized', () => {
  const { errors, warnings } = load(() => {});
  assert.deepEqual(errors, []);
  assert.deepEqual(warnings, []);
  const site = loadContent({ root: ROOT, contentDir: GOOD });
  assert.deepEqual(
    site.tools.map((t) => [t.agent, t.fullName, t.source]),
    [
      ['claude-code', 'Glob', 'capture'],
      ['claude-code', 'Read', 'sdk'],
      ['claude-code', 'Shell', 'sdk'],
      ['codex', 'exec_command', 'capture'],
    ],
  );
  const read = site.tools.find((t) => t.fullName === 'Read')!;
  assert.equal(read.editorial?.summary, 'Reads a file');
  assert.deepEqual(
    read.input.rows.map((r) => r.id),
    ['input.file_path', 'input.limit'],
  );
  // The capture's schema of Read is compared with the SDK type: same fields, same requiredness.
  assert.deepEqual(read.modelInput?.differences, []);
  const shell = site.tools.find((t) => t.fullName === 'Shell')!;
  assert.deepEqual(
    shell.input.rows.map((r) => [r.id, r.required, r.constraints]),
    [
      ['input.cmd', true, []],
      ['input.timeout', false, ['default: 1000', 'minimum: 1']],
    ],
  );
  assert.equal(shell.output.code?.text, 'start: "ok"');
  const exec = site.tools.find((t) => t.fullName === 'exec_command')!;
  assert.deepEqual(
    exec.input.rows.map((r) => [r.id, r.required]),
    [
      ['input.cmd', true],
      ['input.yield_time_ms', false],
    ],
  );
});

test('unparsable JSON names the file and the json-parse rule, once', () => {
  const errors = errorsAfter((d) => writeFileSync(join(d, 'tools/claude-code/read.json'), '{ "agent": '));
  assert.deepEqual(where(errors), [['tools/claude-code/read.json', '', 'json-parse']]);
});

test('a UTF-8 byte-order mark is removed with a warning naming it, not a flood of errors', () => {
  const { errors, warnings } = load((d) => {
    const path = join(d, 'jobs.json');
    writeFileSync(path, '\uFEFF' + readFileSync(path, 'utf8'));
  });
  assert.deepEqual(errors, []);
  assert.equal(warnings.length, 1);
  assert.match(warnings[0]!.message, /byte-order mark \(U\+FEFF\)/);
  assert.match(warnings[0]!.file, /jobs\.json$/);
});

test('an unreadable job index is one error, not one per job reference', () => {
  const errors = errorsAfter((d) => writeFileSync(join(d, 'jobs.json'), '{'));
  assert.deepEqual(where(errors), [['jobs.json', '', 'json-parse']]);
});

test('files the loader will not read are reported as ignored', () => {
  const { errors, warnings } = load((d) => {
    renameSync(join(d, 'editorial/claude-code/shell.json'), join(d, 'editorial/claude-code/Shell.JSON'));
    writeFileSync(join(d, 'tools/claude-code/.read.json'), '{}');
    writeFileSync(join(d, 'notes.txt'), 'x');
    mkdirSync(join(d, 'captures/codex'), { recursive: true });
    writeFileSync(join(d, 'captures/codex/stale.json'), '{}');
  });
  assert.deepEqual(errors, []);
  assert.deepEqual(warnings.map((w) => w.file.replace(/^.*?content-[^/]+\//, '')).sort(), [
    'captures/codex/stale.json',
    'editorial/claude-code/Shell.JSON',
    'notes.txt',
    'tools/claude-code/.read.json',
  ]);
  assert.ok(warnings.every((w) => /^ignored: /.test(w.message)));
});

test('a schema violation names the file, the JSON pointer and the schema rule', () => {
  const errors = errorsAfter((d) =>
    editJson(join(d, 'tools/claude-code/read.json'), (t) => (t.input.kind = 'typescrpt')),
  );
  assert.deepEqual(where(errors), [
    ['tools/claude-code/read.json', '/input/kind', 'tool.schema.json#/$defs/definition/discriminator'],
  ]);
  assert.match(errors[0]!.message, /"typescrpt"/);
});

test("a missing required field inside a definition points at that definition, with only its own kind's errors", () => {
  const errors = errorsAfter((d) => editJson(join(d, 'tools/claude-code/shell.json'), (t) => delete t.input.origin));
  assert.deepEqual(where(errors), [
    ['tools/claude-code/shell.json', '/input', 'tool.schema.json#/$defs/definition/oneOf/1/required'],
  ]);
  assert.match(errors[0]!.message, /origin/);
});

test('an impossible date is refused (format date, not a pattern)', () => {
  const errors = errorsAfter((d) => editJson(join(d, 'agents/claude-code.json'), (a) => (a.checked = '2026-13-45')));
  assert.deepEqual(where(errors), [
    ['agents/claude-code.json', '/checked', 'agent.schema.json#/properties/checked/format'],
  ]);
});

test('a missing job index is refused', () => {
  const errors = errorsAfter((d) => rmSync(join(d, 'jobs.json')));
  assert.deepEqual(where(errors), [['jobs.json', '', 'file-required']]);
});

test('a job id used twice, or taken by Starlight, is refused at its pointer', () => {
  const errors = errorsAfter((d) =>
    editJson(join(d, 'jobs.json'), (j) =>
      j.jobs.push(
        { id: 'read-file', title: 'Again', description: 'x' },
        { id: 'theme-icons', title: 'Icons', description: 'x' },
      ),
    ),
  );
  assert.deepEqual(where(errors), [
    ['jobs.json', '/jobs/2/id', 'unique-job-id'],
    ['jobs.json', '/jobs/3/id', 'job-id-not-reserved'],
  ]);
});

test('an agent listed as not documented is refused when the registry documents it, by product or by package, or listed twice', () => {
  const matrix = JSON.parse(readFileSync(join(GOOD, 'capture-matrix.json'), 'utf8')) as {
    agents: Record<string, { package: string }>;
  };
  const [first, second] = Object.keys(matrix.agents).filter((id) => AGENT_IDS.includes(id as never));
  const entry = (product: string, pkg?: string) => ({
    product,
    ...(pkg ? { package: pkg } : {}),
    why: 'A reason long enough to read as one.',
    checked: '2026-12-06',
  });
  const listing =
    (...extra: object[]) =>
    (d: string) =>
      writeFileSync(
        join(d, 'not-documented.json'),
        JSON.stringify({
          agents: [
            entry(AGENTS[first as keyof typeof AGENTS].product.toUpperCase()),
            entry('Another name', matrix.agents[second!]!.package),
            entry('Some agent'),
            entry('some AGENT'),
            ...extra,
          ],
        }),
      );
  // The schema is checked first: an entry without its reason stops the file there.
  assert.deepEqual(where(errorsAfter(listing({ product: 'No reason' }))), [
    ['not-documented.json', '/agents/4', 'not-documented.schema.json#/properties/agents/items/required'],
  ]);
  const ruled = errorsAfter(listing());
  assert.deepEqual(where(ruled), [
    ['not-documented.json', '/agents/0/product', 'documented-agent-not-listed'],
    ['not-documented.json', '/agents/1/package', 'documented-agent-not-listed'],
    ['not-documented.json', '/agents/3/product', 'unique-product'],
  ]);
});

test('an agent file named differently from its id is refused', () => {
  const errors = errorsAfter((d) => renameSync(join(d, 'agents/claude-code.json'), join(d, 'agents/claude.json')));
  assert.ok(
    where(errors).some(([f, p, r]) => f === 'agents/claude.json' && p === '/id' && r === 'file-name-matches-id'),
    show(errors),
  );
});

test('"not published" needs the registry listings to say so: a published flag they contradict is refused at its pointer', () => {
  const listings = (lists: boolean[]) => lists.map((l, i) => ({ package: `fixture-cli-${i}`, lists: l }));
  // The CLI's own package lacks the release, its platform package has it: published, not "not published".
  const contradicted = errorsAfter((d) =>
    editJson(
      join(d, 'agents/claude-code.json'),
      (a) => (a.bundledCli = { package: 'fixture-cli-0', published: false, listings: listings([false, true]) }),
    ),
  );
  assert.deepEqual(
    where(contradicted),
    [['agents/claude-code.json', '/bundledCli/published', 'bundled-cli-evidence']],
    show(contradicted),
  );
  assert.match(contradicted[0]!.message, /fixture-cli-1 of \/bundledCli\/listings lists 9\.9\.9/);
  const claimed = errorsAfter((d) =>
    editJson(
      join(d, 'agents/claude-code.json'),
      (a) => (a.bundledCli = { package: 'fixture-cli-0', published: true, listings: listings([false, false]) }),
    ),
  );
  assert.deepEqual(
    where(claimed),
    [['agents/claude-code.json', '/bundledCli/published', 'bundled-cli-evidence']],
    show(claimed),
  );
  // Consistent either way: no error.
  for (const [published, lists] of [
    [true, [false, true]],
    [false, [false, false]],
  ] as const) {
    assert.deepEqual(
      load((d) =>
        editJson(
          join(d, 'agents/claude-code.json'),
          (a) => (a.bundledCli = { package: 'fixture-cli-0', published, listings: listings([...lists]) }),
        ),
      ).errors,
      [],
    );
  }
  // Without listings the claim has no evidence: the schema refuses it.
  const bare = errorsAfter((d) =>
    editJson(
      join(d, 'agents/claude-code.json'),
      (a) => (a.bundledCli = { package: 'fixture-cli-0', published: false }),
    ),
  );
  assert.ok(
    where(bare).some(([f, p]) => f === 'agents/claude-code.json' && p === '/bundledCli'),
    show(bare),
  );
});

test('an agent id the registry does not hold is refused at its pointer, with the registry named', () => {
  const errors = errorsAfter((d) =>
    editJson(join(d, 'tools/claude-code/shell.json'), (t) => (t.agent = 'not-registered')),
  );
  const [hit] = errors.filter((e) => e.file.endsWith('tools/claude-code/shell.json') && e.pointer === '/agent');
  assert.equal(hit?.rule, 'agent-id.schema.json#/format', show(errors));
  assert.match(hit!.message, /"not-registered" is not an agent of the registry \(src\/lib\/agents\/index\.ts/);
});

test('a tool filed under another agent, or of an agent without a record, is refused', () => {
  const errors = errorsAfter((d) => {
    mkdirSync(join(d, 'tools/codex'));
    renameSync(join(d, 'tools/claude-code/shell.json'), join(d, 'tools/codex/shell.json'));
    rmSync(join(d, 'editorial/claude-code/shell.json'));
    rmSync(join(d, 'capture-matrix.json'));
    rmSync(join(d, 'captures'), { recursive: true });
  });
  assert.deepEqual(where(errors), [['tools/codex/shell.json', '/agent', 'agent-matches-folder']]);
  const errors2 = errorsAfter((d) => {
    rmSync(join(d, 'agents/claude-code.json'));
    rmSync(join(d, 'capture-matrix.json'));
    rmSync(join(d, 'captures'), { recursive: true });
  });
  assert.deepEqual(new Set(where(errors2).map((w) => w[2])), new Set(['known-agent']));
});

test('a tool file whose name gives another slug is refused', () => {
  const errors = errorsAfter((d) => editJson(join(d, 'tools/claude-code/shell.json'), (t) => (t.name = 'Sh')));
  assert.ok(
    where(errors).some(
      ([f, p, r]) => f === 'tools/claude-code/shell.json' && p === '/name' && r === 'file-name-matches-slug',
    ),
    show(errors),
  );
});

for (const [label, name, why, rule] of [
  ['.', '.', /names a folder itself or its parent/],
  ['..', '..', /names a folder itself or its parent/],
  ['index.html', 'index.html', /already uses for another page/],
  ['index', 'index', /already uses for another page/],
  // Names are bounded where they enter (128 characters), before their URL is made.
  ['a 300-byte name', 'A'.repeat(300), /has 300 characters; at most 128/, 'name-printable'],
] as const) {
  test(`a captured tool named ${label} is refused before anything is rendered`, () => {
    const errors = errorsAfter((d) =>
      editJson(join(d, 'captures/claude-code/print.json'), (c) => (c.body.tools[1].name = name)),
    );
    assert.deepEqual(where(errors), [
      ['captures/claude-code/print.json', '/body/tools/1/name', rule ?? 'url-name-valid'],
    ]);
    assert.match(errors[0]!.message, why);
  });
}

for (const name of ['読む', '!!!', '<>']) {
  test(`a documented-only tool named ${name} (an empty slug) is one clear error`, () => {
    const errors = errorsAfter((d) =>
      writeFileSync(
        join(mkdirSync(join(d, 'editorial/codex'), { recursive: true }) ?? join(d, 'editorial/codex'), 'ghost.json'),
        JSON.stringify({
          agent: 'codex',
          name,
          summary: 's',
          availability: { prose: 'p', gates: [] },
          lifecycle: 'l',
          failures: [],
          jobs: [],
          documentedOnly: { evidence: 'e' },
        }),
      ),
    );
    assert.deepEqual(where(errors), [['editorial/codex/ghost.json', '/name', 'url-name-valid']]);
  });
}

test('a duplicate configuration id in the matrix is refused', () => {
  const errors = errorsAfter((d) =>
    editJson(join(d, 'capture-matrix.json'), (m) =>
      m.agents.codex.configurations.push({ ...m.agents.codex.configurations[0] }),
    ),
  );
  assert.deepEqual(where(errors), [
    ['capture-matrix.json', '/agents/codex/configurations/1/id', 'unique-configuration-id'],
  ]);
});

test('a configuration without its capture, or a capture of another configuration or version, is refused', () => {
  const missing = errorsAfter((d) => rmSync(join(d, 'captures/codex/default.json')));
  assert.deepEqual(where(missing), [['capture-matrix.json', '/agents/codex/configurations/0/id', 'capture-present']]);
  const mismatch = errorsAfter((d) =>
    editJson(join(d, 'captures/codex/default.json'), (c) => (c.cli.version = '0.0.1')),
  );
  assert.deepEqual(where(mismatch), [['captures/codex/default.json', '/cli/version', 'capture-matches-matrix']]);
  // A capture from a package that is not the agent's: refused; from a standalone package its module declares: read.
  const stranger = errorsAfter((d) =>
    editJson(join(d, 'captures/codex/default.json'), (c) => (c.cli.package = 'another-package')),
  );
  assert.deepEqual(where(stranger), [['captures/codex/default.json', '/cli/package', 'capture-matches-matrix']]);
  const standalone = AGENTS['claude-code'].standalonePackages?.[0];
  assert.ok(standalone, 'fixture: Claude Code declares a standalone package');
  // The pin must then name it as its holder: once, at the pin, for every capture made from it.
  const unnamed = errorsAfter((d) =>
    editJson(join(d, 'captures/claude-code/print.json'), (c) => (c.cli.package = standalone)),
  );
  assert.deepEqual(where(unnamed), [['capture-matrix.json', '/agents/claude-code/version', 'matrix-holder']]);
  assert.match(unnamed[0]!.message, new RegExp(`"holder": "${standalone.replace(/[/.-]/g, '\\$&')}"`));
  const named = (d: string) => {
    editJson(join(d, 'capture-matrix.json'), (m) => (m.agents['claude-code'].holder = standalone));
    for (const f of readdirSync(join(d, 'captures/claude-code')))
      editJson(join(d, 'captures/claude-code', f), (c) => (c.cli.package = standalone));
  };
  assert.deepEqual(load(named).errors, []);
  // A holder that is not the package the captures were made from is refused where it is written.
  const wrong = errorsAfter((d) =>
    editJson(join(d, 'capture-matrix.json'), (m) => (m.agents['claude-code'].holder = standalone)),
  );
  assert.deepEqual(
    [...new Set(where(wrong).map((w) => w.join(' ')))],
    ['capture-matrix.json /agents/claude-code/holder matrix-holder'],
  );
});

test('a malformed captured tool is reported at its own pointer, with its name', () => {
  const errors = errorsAfter((d) =>
    editJson(join(d, 'captures/claude-code/print.json'), (c) => (c.body.tools[1].input_schema = 'not a schema')),
  );
  assert.deepEqual(where(errors), [
    ['captures/claude-code/print.json', '/body/tools/1/input_schema', 'capture-readable'],
  ]);
  assert.match(errors[0]!.message, /Glob/);
});

test('a capture keeps of its conversation only the announcements its agent marks: any other text is refused where it is', () => {
  const other = { role: 'user', content: [{ type: 'text', text: 'Primary working directory: /home/someone' }] };
  const errors = errorsAfter((d) =>
    editJson(join(d, 'captures/claude-code/print.json'), (c) => (c.body.messages = [other])),
  );
  assert.deepEqual(where(errors), [
    ['captures/claude-code/print.json', '/body/messages/0/content/0/text', 'capture-kept-text'],
  ]);
  // The announcement Claude Code's module marks, kept whole, is read (and names its deferred tool).
  const announced = {
    role: 'user',
    content: [{ type: 'text', text: 'The following deferred tools are now available via ToolSearch:\nCronCreate' }],
  };
  assert.deepEqual(
    load((d) => editJson(join(d, 'captures/claude-code/print.json'), (c) => (c.body.messages = [announced]))).errors,
    [],
  );
});

test('a captured JSON Schema Ajv cannot compile is reported inside the capture, with the tool named', () => {
  const errors = errorsAfter((d) =>
    editJson(
      join(d, 'captures/claude-code/print.json'),
      (c) => (c.body.tools[1].input_schema.properties.pattern.type = 'strin'),
    ),
  );
  assert.deepEqual(where(errors), [
    ['captures/claude-code/print.json', '/body/tools/1/input_schema', 'definition-compiles'],
  ]);
  assert.match(errors[0]!.message, /^.*tool Glob: /);
});

test("a definition schema that declares its own $id (javascript: or any) is refused at the $id's pointer", () => {
  const errors = errorsAfter((d) =>
    editJson(
      join(d, 'captures/claude-code/print.json'),
      (c) => (c.body.tools[1].input_schema.$id = 'javascript:alert(1)'),
    ),
  );
  assert.deepEqual(where(errors), [
    ['captures/claude-code/print.json', '/body/tools/1/input_schema/$id', 'definition-no-id'],
  ]);
  assert.match(errors[0]!.message, /tool Glob: the schema declares its own \$id/);
  const nested = errorsAfter((d) =>
    editJson(
      join(d, 'tools/claude-code/shell.json'),
      (t) => (t.input.schema.properties.cmd.$id = 'javascript:alert(2)'),
    ),
  );
  assert.deepEqual(where(nested), [
    ['tools/claude-code/shell.json', '/input/schema/properties/cmd/$id', 'definition-no-id'],
  ]);
  // A property named $id, or an $id inside a default value, is data, not a schema's $id.
  assert.deepEqual(
    load((d) =>
      editJson(join(d, 'tools/claude-code/shell.json'), (t) => {
        t.input.schema.properties.$id = { type: 'string', default: { $id: 'x' } };
      }),
    ).errors,
    [],
  );
});

test('a JSON Schema definition Ajv cannot compile is refused at its pointer', () => {
  const errors = errorsAfter((d) =>
    editJson(join(d, 'tools/claude-code/shell.json'), (t) => (t.input.schema.properties.cmd.type = 'strin')),
  );
  assert.deepEqual(where(errors), [['tools/claude-code/shell.json', '/input/schema', 'definition-compiles']]);
});

test('a TypeScript definition that does not parse is refused at its pointer', () => {
  const errors = errorsAfter((d) =>
    editJson(join(d, 'tools/claude-code/read.json'), (t) => (t.input.source = 'export interface FileReadInput {')),
  );
  assert.deepEqual(where(errors), [['tools/claude-code/read.json', '/input/source', 'definition-readable']]);
});

test('field anchors that would collide on a page are refused, across all its tables', () => {
  // The anchor scheme is injective, so no definition produces a collision any more; the pages
  // stage still checks every table of every page. Here rows that share an id are fed to it.
  const site = loadContent({ root: ROOT, contentDir: GOOD });
  const read = site.tools.find((t) => t.fullName === 'Read')!;
  const row = read.input.rows[0]!;
  read.input.rows.push({ ...row });
  const problems = new Problems();
  const stage = {
    problems,
    reserved: { top: new Set<string>(), agent: new Set<string>() },
    namePlace: new WeakMap(),
    aliasPlace: new WeakMap(),
  } as unknown as Stage;
  checkPages(stage, site.tools);
  const errors = problems.errors.map((e) =>
    Object.assign(e, { shortFile: e.file.replace(/^.*?fixtures\/content\//, '') }),
  );
  for (const e of errors) exercised.add(e.rule);
  assert.deepEqual(where(errors), [['tools/claude-code/read.json', '/name', 'unique-field-anchor']]);
  assert.match(errors[0]!.message, /input\.file_path \(Input and Input\)/);
});

test('two tools claiming one name or alias are refused, whatever their source', () => {
  const errors = errorsAfter((d) =>
    editJson(join(d, 'tools/claude-code/shell.json'), (t) =>
      t.aliases.push({ name: 'read', kind: 'accepted-alias', evidence: 'x' }),
    ),
  );
  assert.deepEqual(where(errors), [['tools/claude-code/shell.json', '/aliases/1/name', 'unique-tool-name']]);
  const captured = errorsAfter((d) =>
    editJson(join(d, 'tools/claude-code/shell.json'), (t) =>
      t.aliases.push({ name: 'GLOB', kind: 'accepted-alias', evidence: 'x' }),
    ),
  );
  assert.deepEqual(where(captured), [['tools/claude-code/shell.json', '/aliases/1/name', 'unique-tool-name']]);
});

test('two tools with one URL are refused', () => {
  const errors = errorsAfter((d) =>
    editJson(join(d, 'captures/claude-code/print.json'), (c) => (c.body.tools[1].name = 'shell')),
  );
  assert.deepEqual(where(errors), [['captures/claude-code/print.json', '/body/tools/1/name', 'unique-tool-url']]);
});

test('an alias gets a redirect page only when its URL name is valid and free', () => {
  // `Read!` is no tool's name, so the name check lets it pass, but its URL name is `read`: Read's page.
  const taken = errorsAfter((d) => {
    editJson(join(d, 'tools/claude-code/shell.json'), (t) =>
      t.aliases.push({ name: 'Read!', kind: 'accepted-alias', evidence: 'x' }),
    );
  });
  assert.deepEqual(where(taken), [['tools/claude-code/shell.json', '/aliases/1/name', 'unique-tool-url']]);
  assert.match(taken[0]!.message, /alias Read! of Shell would take the URL \/claude-code\/read\/ of Read/);
  const invalid = errorsAfter((d) =>
    editJson(join(d, 'tools/claude-code/shell.json'), (t) =>
      t.aliases.push({ name: 'index', kind: 'former-name', evidence: 'x' }),
    ),
  );
  assert.deepEqual(where(invalid), [['tools/claude-code/shell.json', '/aliases/1/name', 'url-name-valid']]);
});

test('each accepted alias or former name with its own URL name is a redirect of its tool; SDK type names are not', () => {
  const site = loadContent({ root: ROOT, contentDir: GOOD });
  for (const tool of site.tools) {
    const expected = [
      ...new Set(
        tool.generated.aliases
          .filter((a) => a.kind !== 'sdk-type')
          .map((a) =>
            a.name
              .toLowerCase()
              .replace(/[^a-z0-9._-]+/g, '-')
              .replace(/^-+|-+$/g, ''),
          ),
      ),
    ].filter((s) => s !== tool.slug);
    assert.deepEqual(tool.redirectSlugs, expected, tool.fullName);
  }
  assert.ok(
    site.tools.some((t) => (t.redirectSlugs ?? []).length > 0),
    'the fixture has at least one alias page',
  );
});

test('a schema key that no URL or anchor can carry (a lone surrogate, a NUL) is refused by name and place, not as "URI malformed"', () => {
  const C = 'captures/claude-code/print.json';
  const errors = errorsAfter((d) =>
    editJson(join(d, C), (c) => {
      c.body.tools[1].input_schema.properties['\ud800\u0000x'] = { type: 'string' };
    }),
  );
  assert.equal(errors.length, 1, show(errors));
  assert.equal(errors[0]!.rule, 'definition-keys-writable');
  assert.equal(errors[0]!.pointer, '/body/tools/1/input_schema/properties/\\ud800\\u0000x');
  assert.match(errors[0]!.message, /lone surrogate/);
  assert.doesNotMatch(errors[0]!.message, /URI malformed/);
});

test('a key written twice in one object is refused, naming where: a JSON reader would drop the first silently', () => {
  const E = 'editorial/claude-code/shell.json';
  const errors = errorsAfter((d) => {
    const text = readFileSync(join(d, E), 'utf8');
    // A second summary, as a hand edit leaves it: both are valid JSON, the first would be lost.
    writeFileSync(join(d, E), text.replace(/^\{/, '{\n  "summary": "An earlier summary.",'));
  });
  assert.deepEqual(where(errors), [[E, '/summary', 'json-unique-keys']]);
  assert.match(errors[0]!.message, /written twice/);
});

test("a changed tool description or definition names both texts, each kept once in the file's text store under its id", () => {
  const H = 'history/claude-code.sdk.json';
  const sha = (t: string) => createHash('sha256').update(t).digest('hex').slice(0, 16);
  const change = { release: '1.0.1', previous: '1.0.0', tool: 'Read', kind: 'description-changed' };
  const added = `/events/${JSON.parse(readFileSync(join(GOOD, H), 'utf8')).events.length}`;
  const without = errorsAfter((d) => editJson(join(d, H), (h) => h.events.push(change)));
  assert.deepEqual(where(without), [[H, added, 'history-change-texts']]);
  assert.match(without[0]!.message, /fromText/);
  const withTexts = (texts: Record<string, string>, from: string, to: string) => (d: string) =>
    editJson(join(d, H), (h) => {
      h.events.push({ ...change, fromText: from, toText: to });
      h.texts = texts;
    });
  assert.deepEqual(
    load(
      withTexts(
        { [sha('Reads.')]: 'Reads.', [sha('Reads a file.')]: 'Reads a file.' },
        sha('Reads.'),
        sha('Reads a file.'),
      ),
    ).errors,
    [],
  );
  const unknown = errorsAfter(withTexts({ [sha('Reads.')]: 'Reads.' }, sha('Reads.'), sha('Reads a file.')));
  assert.deepEqual(where(unknown), [[H, `${added}/toText`, 'history-change-texts']]);
  const unused = errorsAfter(
    withTexts(
      { [sha('Reads.')]: 'Reads.', [sha('Reads a file.')]: 'Reads a file.', [sha('x')]: 'x' },
      sha('Reads.'),
      sha('Reads a file.'),
    ),
  );
  assert.deepEqual(where(unused), [[H, `/texts/${sha('x')}`, 'history-text-used']]);
  const wrongId = errorsAfter(
    withTexts(
      { [sha('Reads.')]: 'Reads.', [sha('Reads a file.')]: 'Reads a file, changed by hand.' },
      sha('Reads.'),
      sha('Reads a file.'),
    ),
  );
  assert.deepEqual(where(wrongId), [[H, `/texts/${sha('Reads a file.')}`, 'history-text-id']]);
  // A field's change keeps its values inline: a text id there is refused.
  const onField = errorsAfter((d) => editJson(join(d, H), (h) => (h.events[0].toText = sha('number'))));
  assert.deepEqual(where(onField), [[H, '/events/0/toText', 'history-change-texts']]);
});

test("an alias may be another agent's tool name: names coincide across agents (Claude Code's Task, OpenCode's task)", () => {
  const { errors } = load((d) =>
    editJson(join(d, 'tools/claude-code/shell.json'), (t) =>
      t.aliases.push({ name: 'exec_command', kind: 'accepted-alias', evidence: 'x' }),
    ),
  );
  assert.deepEqual(errors, []);
});

test('a release history is read with the site, and its events must name releases it compared, in order', () => {
  const site = loadContent({ root: ROOT, contentDir: GOOD });
  assert.deepEqual(
    site.histories.map((h) => `${h.agent}.${h.source}`),
    ['claude-code.sdk'],
  );
  const H = 'history/claude-code.sdk.json';
  const misnamed = errorsAfter((d) => renameSync(join(d, H), join(d, 'history/codex.sdk.json')));
  assert.deepEqual(where(misnamed), [['history/codex.sdk.json', '/agent', 'history-file-name']]);
  const unordered = errorsAfter((d) =>
    editJson(join(d, H), (h) => h.releases.splice(0, 2, h.releases[1], h.releases[0])),
  );
  assert.deepEqual(where(unordered), [
    ['history/claude-code.sdk.json', '/releases/1/version', 'history-releases-ordered'],
  ]);
  const unknownRelease = errorsAfter((d) => editJson(join(d, H), (h) => (h.events[0].release = '1.0.2')));
  assert.deepEqual(where(unknownRelease), [
    ['history/claude-code.sdk.json', '/events/0/release', 'history-event-release'],
  ]);
  const backwards = errorsAfter((d) => editJson(join(d, H), (h) => (h.events[0].previous = '1.0.3')));
  assert.deepEqual(where(backwards), [['history/claude-code.sdk.json', '/events/0/previous', 'history-event-release']]);
  const badKind = errorsAfter((d) => editJson(join(d, H), (h) => (h.events[0].kind = 'moved')));
  assert.deepEqual(
    where(badKind).map(([f, p]) => [f, p]),
    [['history/claude-code.sdk.json', '/events/0/kind']],
  );
  const stray = load((d) => writeFileSync(join(d, 'history/notes.txt'), 'x'));
  assert.deepEqual(stray.errors, []);
  assert.ok(
    stray.warnings.some((w) => w.file.endsWith('history/notes.txt') && /content\/history\/<agent>/.test(w.message)),
    JSON.stringify(stray.warnings),
  );
});

test('a tool a history saw removed gets a page unless a current tool answers to its name; its URL is checked', () => {
  const site = loadContent({ root: ROOT, contentDir: GOOD });
  assert.deepEqual(
    site.removedTools.map((t) => [t.name, t.slug, t.lastSeen, t.removedIn, t.addedIn, t.firstCompared]),
    [['Gone', 'gone', '2.0.1', '2.0.3', undefined, '2.0.0']],
  );
  const H = 'history/claude-code.sdk.json';
  // Removing a tool that still exists under that name (here: Shell's former name) is a rename, not a removal.
  const renamed = load((d) =>
    editJson(join(d, H), (h) =>
      h.events.push({ release: '1.0.1', previous: '1.0.0', tool: 'OldShell', kind: 'tool-removed' }),
    ),
  );
  assert.deepEqual(renamed.errors, []);
  const clash = errorsAfter((d) =>
    editJson(join(d, H), (h) => (h.events.find((e: { tool: string }) => e.tool === 'Gone').tool = 'READ!')),
  );
  assert.deepEqual(where(clash), [['history/claude-code.sdk.json', '/events/1/tool', 'unique-tool-url']]);
  const invalid = errorsAfter((d) =>
    editJson(join(d, H), (h) => (h.events.find((e: { tool: string }) => e.tool === 'Gone').tool = 'changelog')),
  );
  assert.deepEqual(where(invalid), [['history/claude-code.sdk.json', '/events/1/tool', 'url-name-valid']]);
});

test('a tool removed in several configurations (one could not run for a while) gets one page, from its last removal', () => {
  const H = 'history/claude-code.sdk.json';
  /** The site loaded from the fixture after `mutate` (it must load). */
  const loaded = (mutate: (dir: string) => void) => {
    const dir = mkdtempSync(join(tmpdir(), 'content-'));
    try {
      cpSync(GOOD, dir, { recursive: true });
      mutate(dir);
      return { errors: [], site: loadContent({ root: ROOT, contentDir: dir }) };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  // Listed before the removal of 1.0.3 but later by release: the page follows the releases, not the order of the file.
  const twice = loaded((d) =>
    editJson(join(d, H), (h) =>
      h.events.unshift({ release: '1.0.1', previous: '1.0.0', tool: 'Gone', kind: 'tool-removed', configuration: 'a' }),
    ),
  );
  assert.deepEqual(twice.errors, []);
  assert.deepEqual(
    twice.site.removedTools.map((t) => [t.name, t.lastSeen, t.removedIn]),
    [['Gone', '2.0.1', '2.0.3']],
  );
  const early = loaded((d) =>
    editJson(join(d, H), (h) =>
      h.events.push({ release: '1.0.1', previous: '1.0.0', tool: 'Gone', kind: 'tool-removed', configuration: 'a' }),
    ),
  );
  assert.deepEqual(
    early.site.removedTools.map((t) => [t.name, t.lastSeen, t.removedIn]),
    [['Gone', '2.0.1', '2.0.3']],
  );
  // A configuration back from failing reports the removal late, against its last run (1.0.0):
  // the tool was last seen in 1.0.1, in the other configuration, and left in 1.0.3.
  const late = loaded((d) =>
    editJson(join(d, H), (h) =>
      h.events.push({ release: '1.0.3', previous: '1.0.0', tool: 'Gone', kind: 'tool-removed', configuration: 'b' }),
    ),
  );
  assert.deepEqual(
    late.site.removedTools.map((t) => [t.name, t.lastSeen, t.removedIn]),
    [['Gone', '2.0.1', '2.0.3']],
  );
  const lateFirst = loaded((d) =>
    editJson(join(d, H), (h) => {
      Object.assign(
        h.events.find((e: { tool: string }) => e.tool === 'Gone'),
        { release: '1.0.1', previous: '1.0.0' },
      );
      h.events.push({ release: '1.0.3', previous: '1.0.0', tool: 'Gone', kind: 'tool-removed', configuration: 'b' });
    }),
  );
  assert.deepEqual(
    lateFirst.site.removedTools.map((t) => [t.name, t.lastSeen, t.removedIn]),
    [['Gone', '2.0.0', '2.0.1']],
    'last seen in 1.0.0 everywhere: gone in 1.0.1',
  );
  // Added again after its last removal: a current tool's story, no removed page.
  const back = loaded((d) =>
    editJson(join(d, H), (h) => {
      Object.assign(
        h.events.find((e: { tool: string }) => e.tool === 'Gone'),
        { release: '1.0.1', previous: '1.0.0' },
      );
      h.events.unshift({ release: '1.0.3', previous: '1.0.1', tool: 'Gone', kind: 'tool-added' });
    }),
  );
  assert.deepEqual(
    back.site.removedTools.map((t) => t.name),
    [],
  );
});

test('a tool removed in both histories of an agent (SDK types and captures) gets one page, from the first history', () => {
  const dir = mkdtempSync(join(tmpdir(), 'content-'));
  try {
    cpSync(GOOD, dir, { recursive: true });
    const sdk = JSON.parse(readFileSync(join(dir, 'history/claude-code.sdk.json'), 'utf8'));
    const capture = {
      ...sdk,
      source: 'capture',
      events: sdk.events.filter((e: { tool: string }) => e.tool === 'Gone'),
    };
    writeFileSync(join(dir, 'history/claude-code.capture.json'), JSON.stringify(capture));
    const site = loadContent({ root: ROOT, contentDir: dir });
    assert.deepEqual(
      site.removedTools.map((t) => [t.name, t.source]),
      [['Gone', site.histories[0]!.source]],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an unknown job id is refused with its pointer', () => {
  const errors = errorsAfter((d) =>
    editJson(join(d, 'editorial/claude-code/read.json'), (t) => t.jobs.push('no-such-job')),
  );
  assert.deepEqual(where(errors), [['editorial/claude-code/read.json', '/jobs/1', 'known-job']]);
  assert.match(errors[0]!.message, /editorial\/claude-code\/read\.json: \/jobs\/1: unknown job id no-such-job/);
});

test('editorial notes for a tool that does not exist, or naming another tool, are refused', () => {
  const errors = errorsAfter((d) =>
    cpSync(join(d, 'editorial/claude-code/read.json'), join(d, 'editorial/claude-code/write.json')),
  );
  assert.deepEqual(where(errors), [['editorial/claude-code/write.json', '', 'editorial-has-tool']]);
  const misnamed = errorsAfter((d) => editJson(join(d, 'editorial/claude-code/read.json'), (t) => (t.name = 'Shell')));
  assert.deepEqual(where(misnamed), [['editorial/claude-code/read.json', '/name', 'editorial-names-its-tool']]);
});

test('documentedOnly notes on a tool that is advertised, or filed under another slug, are refused', () => {
  const advertised = errorsAfter((d) =>
    editJson(join(d, 'editorial/claude-code/read.json'), (t) => (t.documentedOnly = { evidence: 'x' })),
  );
  assert.deepEqual(where(advertised), [
    ['editorial/claude-code/read.json', '/documentedOnly', 'documented-only-is-unadvertised'],
  ]);
  const misfiled = errorsAfter((d) =>
    writeFileSync(
      join(mkdirSync(join(d, 'editorial/codex'), { recursive: true }) ?? join(d, 'editorial/codex'), 'ghost.json'),
      JSON.stringify({
        agent: 'codex',
        name: 'spirit',
        summary: 's',
        availability: { prose: 'p', gates: [] },
        lifecycle: 'l',
        failures: [],
        jobs: [],
        documentedOnly: { evidence: 'e' },
      }),
    ),
  );
  assert.deepEqual(where(misfiled), [['editorial/codex/ghost.json', '/name', 'file-name-matches-slug']]);
});

test('every problem is reported at once, each root cause once', () => {
  const errors = errorsAfter((d) => {
    writeFileSync(join(d, 'tools/claude-code/read.json'), 'nope');
    editJson(join(d, 'editorial/claude-code/shell.json'), (t) => (t.jobs = ['ghost']));
  });
  assert.deepEqual(
    where(errors)
      .map((w) => w[2])
      .sort(),
    ['json-parse', 'known-job'],
    'the notes of the broken tool are not reported twice',
  );
});

test('a name that is not plain printable text is one error where it enters: capture, tool file, history, job title', () => {
  const capture = (name: string) => (d: string) =>
    editJson(join(d, 'captures/claude-code/print.json'), (c) => (c.body.tools[1].name = name));
  assert.deepEqual(where(errorsAfter(capture('pwntool\nwindow.__pwned=11;//'))), [
    ['captures/claude-code/print.json', '/body/tools/1/name', 'name-printable'],
  ]);
  assert.match(
    show(errorsAfter(capture('a\u202Eb'))),
    /tool name "a\u202Eb" holds the unprintable character U\+202E at position 1/,
  );
  assert.deepEqual(where(errorsAfter(capture('x'.repeat(129)))), [
    ['captures/claude-code/print.json', '/body/tools/1/name', 'name-printable'],
  ]);
  assert.deepEqual(
    where(
      errorsAfter((d) =>
        editJson(join(d, 'tools/claude-code/read.json'), (t) => (t.aliases[0].name = 'File\u0000Read')),
      ),
    ),
    [['tools/claude-code/read.json', '/aliases/0/name', 'name-printable']],
  );
  assert.deepEqual(
    where(
      errorsAfter((d) =>
        editJson(join(d, 'history/claude-code.sdk.json'), (h) =>
          h.events.push({ release: '1.0.3', previous: '1.0.1', tool: 'Gone\u2028x', kind: 'tool-removed' }),
        ),
      ),
    ),
    [['history/claude-code.sdk.json', '/events/4/tool', 'name-printable']],
  );
  assert.deepEqual(
    where(errorsAfter((d) => editJson(join(d, 'jobs.json'), (j) => (j.jobs[0].title = ' Read a file')))),
    [['jobs.json', '/jobs/0/title', 'name-printable']],
  );
  assert.deepEqual(
    where(errorsAfter((d) => editJson(join(d, 'editorial/claude-code/read.json'), (e) => (e.name = 'Read\t')))),
    [['editorial/claude-code/read.json', '/name', 'name-printable']],
  );
  // Markup is printable: it is allowed as a name and escaped wherever it lands (test/e2e/hostile-text.test.ts).
  assert.deepEqual(load(capture('x</title><script>window.__pwned=1</script>')).errors, []);
});

test('nesting, key and string bounds are one rule error each, before anything recurses into the data', () => {
  const deep = '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000);
  const errors = errorsAfter((d) => {
    const path = join(d, 'tools/claude-code/read.json');
    writeFileSync(
      path,
      readFileSync(path, 'utf8').replace(
        /^\{/,
        `{"deep": ${deep}, "${'k'.repeat(300)}": 1, "long": "${'s'.repeat(300_000)}",`,
      ),
    );
  });
  // Pointer depth: the root's `deep`, then 64 levels of `a`; the key is shown shortened.
  assert.deepEqual(
    where(errors)
      .map(([file, pointer, rule]) => [file, pointer.split('/').length - 1, rule])
      .sort((a, b) => String(a[2]).localeCompare(String(b[2]))),
    [
      ['tools/claude-code/read.json', 64, 'json-depth'],
      ['tools/claude-code/read.json', 1, 'json-key-length'],
      ['tools/claude-code/read.json', 1, 'json-string-length'],
    ],
  );
});

test('a "__proto__" key, which Astro\'s content store cannot hold, is one rule error naming file and pointer', async () => {
  // The reference: the serializer of Astro's content store refuses such an object.
  const devalue = await import('devalue');
  assert.throws(() => devalue.stringify(JSON.parse('{"a":{"__proto__":1}}')), /__proto__/);
  const errors = errorsAfter((d) => {
    const path = join(d, 'captures/claude-code/print.json');
    writeFileSync(
      path,
      readFileSync(path, 'utf8').replace(/"input_schema": \{/, '"input_schema": {"__proto__": {"type": "string"},'),
    );
  });
  assert.deepEqual(where(errors), [['captures/claude-code/print.json', where(errors)[0]![1], 'json-key-stored']]);
  assert.match(where(errors)[0]![1], /^\/body\/tools\/\d+\/input_schema\/__proto__$/);
  assert.match(errors[0]!.message, /Astro's content store cannot hold an object with this key/);
});

test('a publication time the Atom feeds cannot carry (a year past 9999) is refused at its pointer, not by the feed', () => {
  const errors = errorsAfter((d) =>
    editJson(join(d, 'history/claude-code.sdk.json'), (h) => (h.releases[0].published = '+099999-01-01T00:00:00.000Z')),
  );
  assert.deepEqual(
    where(errors).map(([f, p]) => [f, p]),
    [['history/claude-code.sdk.json', '/releases/0/published']],
  );
  assert.match(errors[0]!.message, /must match (pattern|format)/);
});

test('a release number that cannot be a folder of a versioned path (4000 characters, a file name) is refused where it is written', () => {
  for (const version of [`1.0.${'0'.repeat(4000)}`, 'index.html', '1.0.0/../x']) {
    const errors = errorsAfter((d) => editJson(join(d, 'agents/claude-code.json'), (a) => (a.version = version)));
    assert.deepEqual(
      where(errors).map(([f, p]) => [f, p]),
      [['agents/claude-code.json', '/version']],
      version.slice(0, 20),
    );
    assert.match(errors[0]!.message, /must match pattern/);
  }
  const matrix = errorsAfter((d) =>
    editJson(join(d, 'capture-matrix.json'), (m) => (m.agents.codex.version = `0.${'9'.repeat(4000)}.0`)),
  );
  assert.deepEqual(
    where(matrix).map(([f, p]) => [f, p]),
    [['capture-matrix.json', '/agents/codex/version']],
  );
});

test('an unreadable capture matrix or agent record stops the load with its own errors, not one per reference to it', () => {
  const matrix = errorsAfter((d) =>
    editJson(join(d, 'capture-matrix.json'), (m) => (m.agents.codex.configurations[0].id = '../evil')),
  );
  assert.deepEqual(where(matrix), [
    ['capture-matrix.json', '/agents/codex/configurations/0/id', '#schema'].slice(0, 2).concat([matrix[0]!.rule]) as [
      string,
      string,
      string,
    ],
  ]);
  const agent = errorsAfter((d) => writeFileSync(join(d, 'agents/claude-code.json'), '{'));
  assert.deepEqual(where(agent), [['agents/claude-code.json', '', 'json-parse']]);
});

test('notes that cannot be read are one error: a comparison naming their tool is not also refused', () => {
  const errors = errorsAfter((d) => {
    withComparison(d);
    editJson(join(d, 'editorial/claude-code/shell.json'), (e) => (e.summary = 'x'.repeat(201)));
  });
  assert.deepEqual(
    where(errors).map((w) => w.slice(0, 2)),
    [['editorial/claude-code/shell.json', '/summary']],
  );
});

test('history events name tools and fields the site shows, or ones the history saw removed', () => {
  const history = (edit: (h: any) => void) =>
    errorsAfter((d) => editJson(join(d, 'history/claude-code.sdk.json'), edit));
  assert.deepEqual(
    where(
      history((h) =>
        h.events.push({
          release: '1.0.3',
          previous: '1.0.1',
          tool: 'Ghost',
          kind: 'field-added',
          side: 'input',
          field: '.x',
        }),
      ),
    ),
    [['history/claude-code.sdk.json', '/events/4/tool', 'history-tool-known']],
  );
  assert.deepEqual(
    where(
      history((h) =>
        h.events.push({
          release: '1.0.3',
          previous: '1.0.1',
          tool: 'Read',
          kind: 'field-added',
          side: 'input',
          field: '.ghost',
        }),
      ),
    ),
    [['history/claude-code.sdk.json', '/events/4/field', 'history-field-known']],
  );
  // A tool the history saw leave after a field event (documented since, advertised by no compared
  // configuration) has no captured rows left for it to name: the event is shown unlinked.
  const gone = load((d) =>
    editJson(join(d, 'history/claude-code.sdk.json'), (h) =>
      h.events.push(
        { release: '1.0.1', previous: '1.0.0', tool: 'Read', kind: 'field-added', side: 'input', field: '.ghost' },
        { release: '1.0.3', previous: '1.0.1', tool: 'Read', kind: 'tool-removed' },
      ),
    ),
  );
  assert.deepEqual(gone.errors, []);
  assert.deepEqual(
    where(
      history((h) =>
        h.events.push(
          { release: '1.0.3', previous: '1.0.1', tool: 'Read', kind: 'field-added', side: 'input', field: '.ghost' },
          { release: '1.0.1', previous: '1.0.0', tool: 'Read', kind: 'tool-removed' },
          { release: '1.0.3', previous: '1.0.1', tool: 'Read', kind: 'tool-added' },
        ),
      ),
    ),
    [['history/claude-code.sdk.json', '/events/4/field', 'history-field-known']],
    'added back: its fields must be rows again',
  );
  // A field last seen in a configuration the tool has since left (others still advertise another
  // shape of it) has no row to name either; still advertised there, it must be a row.
  const inConfiguration = (last: 'unavailable' | 'available') => (d: string) =>
    editJson(join(d, 'history/claude-code.sdk.json'), (h) =>
      h.events.push(
        {
          release: '1.0.1',
          previous: '1.0.0',
          tool: 'Read',
          kind: 'field-added',
          side: 'input',
          field: '.ghost',
          configuration: 'print',
        },
        { release: '1.0.3', previous: '1.0.1', tool: 'Read', kind: last, configuration: 'print' },
      ),
    );
  assert.deepEqual(load(inConfiguration('unavailable')).errors, []);
  assert.deepEqual(where(errorsAfter(inConfiguration('available'))), [
    ['history/claude-code.sdk.json', '/events/4/field', 'history-field-known'],
  ]);
  // A field whose last event is its removal is fine (the fixture's Read lost `offset`), and so is an empty field name's
  // absence:
  assert.deepEqual(
    where(history((h) => (h.events[3].field = ''))).map((w) => w.slice(0, 2)),
    [['history/claude-code.sdk.json', '/events/3/field']],
  );
});

test('inventory names differing only in case are refused: they would share one element id', () => {
  assert.deepEqual(
    where(errorsAfter((d) => editJson(join(d, 'inventory/claude-code.json'), (i) => i.names.items.push('hidden')))),
    [['inventory/claude-code.json', '/names/items/3', 'unique-inventory-name']],
  );
  assert.deepEqual(
    where(
      errorsAfter((d) =>
        editJson(join(d, 'inventory/claude-code.json'), (i) => (i.aliasTables[1].entries[0].tool = 'shell')),
      ),
    ),
    [['inventory/claude-code.json', '/aliasTables/1/entries/0/tool', 'unique-inventory-name']],
  );
});

test('a model catalog names each model once: a gate condition reads the entry of one model', () => {
  const catalog = {
    read: { marker: '"models": [', offset: 0, length: 1 },
    omitted: [],
    models: [{ slug: 'model-a' }, { slug: 'model-b' }, { slug: 'model-a' }],
  };
  assert.deepEqual(
    where(errorsAfter((d) => editJson(join(d, 'inventory/claude-code.json'), (i) => (i.modelCatalog = catalog)))),
    [['inventory/claude-code.json', '/modelCatalog/models/2/slug', 'unique-catalog-slug']],
  );
});

test('a payload names a known tool and configuration, is filed as <tool>.<scenario>.json, and gives each page one example per scenario', () => {
  const payload = (dir: string) => {
    withPayloads(dir);
    return join(dir, 'payloads/claude-code/read.text-file.json');
  };
  assert.deepEqual(where(errorsAfter((dir) => editJson(payload(dir), (d) => (d.tool = 'Fly')))), [
    ['payloads/claude-code/read.text-file.json', '/tool', 'payload-tool-known'],
  ]);
  assert.deepEqual(where(errorsAfter((dir) => editJson(payload(dir), (d) => (d.configuration = 'ghost')))), [
    ['payloads/claude-code/read.text-file.json', '/configuration', 'payload-configuration-known'],
  ]);
  assert.deepEqual(
    where(errorsAfter((dir) => cpSync(payload(dir), join(dir, 'payloads/claude-code/read.text-file2.json')))),
    [['payloads/claude-code/read.text-file2.json', '/scenario', 'payload-file-name']],
  );
  // A payload of Shell that also calls Read, with the scenario id of Read's own payload: Read's page would show two
  // examples text-file.
  const twice = errorsAfter((dir) => {
    const path = payload(dir);
    const data = JSON.parse(readFileSync(path, 'utf8'));
    data.tool = 'Shell';
    writeFileSync(join(dir, 'payloads/claude-code/shell.text-file.json'), JSON.stringify(data));
  });
  assert.deepEqual(where(twice), [['payloads/claude-code/shell.text-file.json', '/scenario', 'unique-example-id']]);
});

test('archived export files load when their path is no longer published, and are refused at their pointer otherwise', () => {
  // The fixture's own published paths, read with an independent rule: /<agent>/<slug>/<release>/<file> for each
  // tool with a JSON Schema input; an archived file must not collide with one of them.
  const site = loadContent({ root: ROOT, contentDir: GOOD });
  const tool = site.tools.find(
    (t) => t.input.definition.kind === 'typescript' || t.input.definition.kind === 'json-schema',
  )!;
  const release =
    tool.source === 'sdk'
      ? site.agents.find((a) => a.id === tool.agent)!.version
      : site.matrix!.agents[tool.agent]!.version;
  const current = `/${tool.agent}/${tool.slug}/${release}/input.schema.json`;
  const old = `/${tool.agent}/${tool.slug}/0.0.1/input.schema.json`;
  const archive =
    (files: { path: string }[], agent: string = tool.agent) =>
    (dir: string) => {
      mkdirSync(join(dir, 'archive'), { recursive: true });
      writeFileSync(
        join(dir, 'archive', `${agent}.json`),
        JSON.stringify({
          agent,
          origin: 'https://old.invalid',
          files: files.map((f) => ({ archived: '2026-12-01', text: '{"$id":"https://old.invalid/x"}\n', ...f })),
        }),
      );
    };
  const dir = mkdtempSync(join(tmpdir(), 'content-'));
  try {
    cpSync(GOOD, dir, { recursive: true });
    archive([{ path: old }])(dir);
    const loaded = loadContent({ root: ROOT, contentDir: dir });
    assert.deepEqual(
      loaded.archived.map((a) => [a.agent, a.tool, a.version, a.file, a.origin]),
      [[tool.agent, tool.slug, '0.0.1', 'input.schema.json', 'https://old.invalid']],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const file = `archive/${tool.agent}.json`;
  assert.deepEqual(where(errorsAfter(archive([{ path: current }]))), [[file, '/files/0/path', 'archive-not-current']]);
  assert.deepEqual(where(errorsAfter(archive([{ path: old }, { path: old }]))), [
    [file, '/files/1/path', 'archive-path-unique'],
  ]);
  assert.deepEqual(where(errorsAfter(archive([{ path: `/${tool.agent}/${tool.slug}/0.0.1/notes.txt` }]))), [
    [file, '/files/0/path', 'archive-export-file'],
  ]);
  assert.deepEqual(where(errorsAfter(archive([{ path: `/elsewhere/${tool.slug}/0.0.1/input.schema.json` }]))), [
    [file, '/files/0/path', 'archive-path-of-agent'],
  ]);
  // Paths that would leave the tool's folder, or go through a file of the built site, are refused by the schema at
  // their pointer.
  for (const bad of [
    `/${tool.agent}/../0.0.1/input.schema.json`,
    `/${tool.agent}/%2e%2e/0.0.1/input.schema.json`,
    `/${tool.agent}/${tool.slug}\\..\\x/0.0.1/input.schema.json`,
    `/${tool.agent}/${tool.slug}/index.html/input.schema.json`,
    `/${tool.agent}/index.html/0.0.1/input.schema.json`,
    `/${tool.agent}/${tool.slug}/${'1'.repeat(4000)}.0.0/input.schema.json`,
  ]) {
    const errors = errorsAfter(archive([{ path: bad }]));
    assert.deepEqual(
      where(errors).map(([f, p]) => [f, p]),
      [[file, '/files/0/path']],
      bad.slice(0, 80),
    );
    assert.match(errors[0]!.message, /must match pattern/, bad.slice(0, 80));
  }
  // A .json text that is not JSON would be published as it is.
  assert.deepEqual(
    where(errorsAfter(archive([{ path: old, text: '{"$id": "https://old.invalid/x"' } as { path: string }]))),
    [[file, '/files/0/text', 'archive-text-json']],
  );
  // An origin that is only the start of the address in the texts (https://old inside https://old.invalid) would corrupt
  // them.
  const overlapping = (dir: string) => {
    archive([{ path: old }])(dir);
    editJson(join(dir, file), (a) => (a.origin = 'https://old'));
  };
  const overlap = errorsAfter(overlapping);
  assert.deepEqual(where(overlap), [[file, '/origin', 'archive-origin-whole']]);
  assert.match(overlap[0]!.message, /https:\/\/old is only the start of the address https:\/\/old\.invalid\/x/);
  // And an origin with a path, quote or credentials is refused by the schema.
  for (const origin of ['https://old.invalid/sub', 'https://old"x', 'https://user:pw@old.invalid']) {
    const errors = errorsAfter((dir) => {
      archive([{ path: old }])(dir);
      editJson(join(dir, file), (a) => (a.origin = origin));
    });
    assert.deepEqual(
      where(errors).map(([f, p]) => [f, p]),
      [[file, '/origin']],
      origin,
    );
  }
  const misfiled = errorsAfter((dir) => {
    archive([{ path: old }])(dir);
    renameSync(join(dir, file), join(dir, 'archive/codex.json'));
  });
  assert.deepEqual(where(misfiled), [['archive/codex.json', '/agent', 'file-name-matches-id']]);
});

after(() => {
  // Every rule the loader can report must have been produced by a case above.
  const rules = new Set<string>();
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, name.name);
      if (name.isDirectory()) walk(path);
      else
        for (const m of readFileSync(path, 'utf8').matchAll(/problems\.error\([^;]*?'([a-z]+(?:-[a-z]+)+)'/gs))
          rules.add(m[1]!);
    }
  };
  walk(join(ROOT, 'src/lib/content'));
  rules.add('#schema');
  const missing = [...rules].filter((r) => !exercised.has(r) && r !== 'schema-present');
  assert.deepEqual(missing, [], `loader rules without a test case: ${missing.join(', ')}`);
});

test('a JSON Schema in a configuration the page does not show is compiled too', () => {
  const errors = errorsAfter((d) => {
    editJson(join(d, 'capture-matrix.json'), (m) =>
      m.agents['claude-code'].configurations.push({
        ...m.agents['claude-code'].configurations[0],
        id: 'print-other',
        label: 'Other',
      }),
    );
    editJson(join(d, 'captures/claude-code/print.json'), () => {});
    const capture = JSON.parse(readFileSync(join(d, 'captures/claude-code/print.json'), 'utf8'));
    capture.configuration = 'print-other';
    capture.body.tools[1].description = 'Another description, so that this definition is a group of its own.';
    capture.body.tools[1].input_schema.properties.pattern.type = 'strin';
    writeFileSync(join(d, 'captures/claude-code/print-other.json'), JSON.stringify(capture));
  });
  assert.deepEqual(where(errors), [
    ['captures/claude-code/print-other.json', '/body/tools/1/input_schema', 'definition-compiles'],
  ]);
});

test('the model-facing schema is said to match the SDK only when the two were compared', () => {
  const dir = mkdtempSync(join(tmpdir(), 'content-'));
  try {
    cpSync(GOOD, dir, { recursive: true });
    editJson(join(dir, 'captures/claude-code/print.json'), (c) =>
      c.body.tools.push({
        name: 'Shell',
        description: 'Runs a command.',
        input_schema: { type: 'object', properties: { cmd: { type: 'string' } }, required: ['cmd'] },
      }),
    );
    const site = loadContent({ root: ROOT, contentDir: dir });
    const shell = site.tools.find((t) => t.fullName === 'Shell')!;
    assert.equal(shell.input.definition.kind, 'json-schema');
    assert.ok(shell.modelInput, 'the capture is attached');
    assert.equal(
      shell.modelInput.differences,
      undefined,
      'a JSON Schema SDK input is not compared, so no difference list is claimed',
    );
    const read = site.tools.find((t) => t.fullName === 'Read')!;
    assert.deepEqual(read.modelInput?.differences, []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a keyword the field tables do not understand stops the build at its place inside the capture', () => {
  const errors = errorsAfter((d) =>
    editJson(
      join(d, 'captures/claude-code/print.json'),
      (c) => (c.body.tools[1].input_schema.properties.pattern.not = { const: '' }),
    ),
  );
  assert.deepEqual(where(errors), [
    [
      'captures/claude-code/print.json',
      '/body/tools/1/input_schema/properties/pattern/not',
      'json-schema-keyword-supported',
    ],
  ]);
  assert.match(errors[0]!.message, /tool Glob: /);
});

test('valid schemas the tester found refused now load: recursive and $anchor refs, allOf, patternProperties', () => {
  const { errors } = load((d) =>
    editJson(join(d, 'captures/claude-code/print.json'), (c) => {
      c.body.tools[1].input_schema = {
        type: 'object',
        $defs: {
          node: { $anchor: 'node', type: 'object', properties: { child: { $ref: '#' } } },
          'a b': { type: 'string' },
        },
        allOf: [
          { properties: { pattern: { $ref: '#/$defs/a%20b' } }, required: ['pattern'] },
          { properties: { tree: { $ref: '#node' } } },
        ],
        patternProperties: { '^x-': { type: 'number' } },
      };
    }),
  );
  assert.deepEqual(errors, []);
  const dir = mkdtempSync(join(tmpdir(), 'content-'));
  try {
    cpSync(GOOD, dir, { recursive: true });
    editJson(join(dir, 'captures/claude-code/print.json'), (c) => {
      c.body.tools[1].input_schema = {
        type: 'object',
        allOf: [{ properties: { pattern: { type: 'string' } }, required: ['pattern'] }],
        patternProperties: { '^x-': { type: 'number' } },
      };
    });
    const glob = loadContent({ root: ROOT, contentDir: dir }).tools.find((t) => t.fullName === 'Glob')!;
    assert.deepEqual(
      glob.input.rows.map((r) => [r.id, r.type, r.required]),
      [
        ['input.pattern', 'string', true],
        ['input.*~5Ex-', 'number', false],
      ],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the inventory: binary aliases become accepted aliases with redirect pages; names without a page are listed as registered only', () => {
  const site = loadContent({ root: ROOT, contentDir: GOOD });
  const read = site.tools.find((t) => t.fullName === 'Read')!;
  const added = read.generated.aliases.find((a) => a.name === 'FileRead');
  assert.equal(added?.kind, 'accepted-alias');
  assert.match(added!.evidence, /@anthropic-ai\/claude-code@9\.9\.9 binary/);
  assert.deepEqual(read.redirectSlugs, ['fileread']);
  // An alias the tool already lists is not added twice.
  const shell = site.tools.find((t) => t.fullName === 'Shell')!;
  assert.deepEqual(
    shell.generated.aliases.map((a) => a.name),
    ['OldShell'],
  );
  const inventory = site.inventory.find((i) => i.agent === 'claude-code')!;
  assert.deepEqual(inventory.names, ['Read', 'Shell', 'Hidden', 'Gone']);
  assert.deepEqual(inventory.structuredAliases, [{ alias: 'FileRead', tool: 'Read' }]);
  assert.deepEqual(inventory.unadvertised, [
    { name: 'Hidden', aliases: ['Peek'] },
    { name: 'Gone', aliases: ['Eval'] },
  ]);
  assert.deepEqual(inventory.counts, { names: 4, captured: inventory.counts.captured, sdk: 2, onlyRegistered: 2 });
});

test('an inventory of another release than the pin, or filed under another name, is refused', () => {
  const inv = (dir: string) => join(dir, 'inventory/claude-code.json');
  assert.deepEqual(where(errorsAfter((dir) => editJson(inv(dir), (d) => (d.version = '9.9.8')))), [
    ['inventory/claude-code.json', '/version', 'inventory-matches-pin'],
  ]);
  assert.deepEqual(where(errorsAfter((dir) => renameSync(inv(dir), join(dir, 'inventory/codex.json')))), [
    ['inventory/codex.json', '/agent', 'file-name-matches-id'],
  ]);
});

test('an alias of the binary that another tool already answers to is refused at its place in the inventory', () => {
  const errors = errorsAfter((dir) =>
    editJson(join(dir, 'inventory/claude-code.json'), (d) =>
      d.aliasTables[0].entries.push({ alias: 'OldShell', tool: 'Read' }),
    ),
  );
  assert.deepEqual(where(errors), [
    ['inventory/claude-code.json', '/aliasTables/0/entries/3/alias', 'inventory-alias-free'],
  ]);
});

test('an alias from the inventory is validated like any alias, at its place in the inventory', () => {
  // A name of 300 characters is refused where the inventory gives it; one that takes a fixed page's URL, by the pages
  // stage at the inventory pointer.
  const long = errorsAfter((dir) =>
    editJson(join(dir, 'inventory/claude-code.json'), (d) =>
      d.aliasTables[0].entries.push({ alias: 'A'.repeat(300), tool: 'Read' }),
    ),
  );
  assert.deepEqual(where(long), [['inventory/claude-code.json', '/aliasTables/0/entries/3/alias', 'name-printable']]);
  const taken = errorsAfter((dir) =>
    editJson(join(dir, 'inventory/claude-code.json'), (d) =>
      d.aliasTables[0].entries.push({ alias: 'changelog', tool: 'Read' }),
    ),
  );
  assert.deepEqual(where(taken), [['inventory/claude-code.json', '/aliasTables/0/entries/3/alias', 'url-name-valid']]);
});

/**
 * The good fixture plus a comparison of run-shell-command and the editorial file
 * that puts Codex exec_command in that job (kept apart so that other cases,
 * which remove captures, do not also break them).
 */
function withComparison(dir: string): void {
  mkdirSync(join(dir, 'comparisons'), { recursive: true });
  mkdirSync(join(dir, 'editorial/codex'), { recursive: true });
  cpSync(
    join(ROOT, 'test/fixtures/comparisons/editorial/exec_command.json'),
    join(dir, 'editorial/codex/exec_command.json'),
  );
  cpSync(
    join(ROOT, 'test/fixtures/comparisons/run-shell-command.json'),
    join(dir, 'comparisons/run-shell-command.json'),
  );
}

test('a job comparison loads with the fields it names, and the comparison page lists what no concept names', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'content-'));
  cpSync(GOOD, dir, { recursive: true });
  withComparison(dir);
  const site = loadContent({ root: ROOT, contentDir: dir });
  rmSync(dir, { recursive: true, force: true });
  const { buildComparison, counterparts } = await import('../../src/lib/model/comparison.ts');
  const job = site.jobs.find((j) => j.id === 'run-shell-command')!;
  const file = site.comparisons.find((c) => c.job === job.id);
  assert.deepEqual(
    file?.concepts.map((c) => c.id),
    ['command', 'wait'],
  );
  const comparison = buildComparison(job, site.tools, ['codex', 'claude-code'], file);
  assert.deepEqual(
    comparison.tools.map((t) => `${t.agent}/${t.fullName}`),
    ['codex/exec_command', 'claude-code/Shell'],
  );
  assert.deepEqual(
    comparison.rows.map((r) => r.cells.map((c) => c.map((row) => row.id))),
    [
      [['input.cmd'], ['input.cmd']],
      [['input.yield_time_ms'], ['input.timeout']],
    ],
  );
  // Both fields of each tool are compared: nothing is left for "only here".
  assert.deepEqual(comparison.onlyHere, [[], []]);
  // With the second concept gone, each tool's other field (read from the fixture files, not from the rows) is its own.
  const shellProps = Object.keys(
    JSON.parse(readFileSync(join(GOOD, 'tools/claude-code/shell.json'), 'utf8')).input.schema.properties,
  );
  const execProps = Object.keys(
    JSON.parse(readFileSync(join(GOOD, 'captures/codex/default.json'), 'utf8')).body.tools[0].parameters.properties,
  );
  const partial = buildComparison(job, site.tools, ['codex', 'claude-code'], {
    ...file!,
    concepts: file!.concepts.slice(0, 1),
  });
  assert.deepEqual(
    partial.onlyHere.map((rows) => rows.map((r) => r.id)),
    [
      execProps.filter((p) => p !== 'cmd').map((p) => `input.${p}`),
      shellProps.filter((p) => p !== 'cmd').map((p) => `input.${p}`),
    ],
  );
  const shell = site.tools.find((t) => t.fullName === 'Shell')!;
  assert.deepEqual(
    counterparts(shell, site.jobs, site.tools, ['codex', 'claude-code']).map((c) => [
      c.job.id,
      c.tools.map((t) => t.fullName),
    ]),
    [['run-shell-command', ['exec_command']]],
  );
});

test('a comparison is refused for an unknown job, a tool that does not do the job, a missing field, a repeated concept or field', () => {
  const cmp = (dir: string) => {
    withComparison(dir);
    return join(dir, 'comparisons/run-shell-command.json');
  };
  assert.deepEqual(where(errorsAfter((dir) => renameSync(cmp(dir), join(dir, 'comparisons/read-file.json')))), [
    ['comparisons/read-file.json', '/job', 'file-name-matches-id'],
  ]);
  assert.deepEqual(
    where(
      errorsAfter((dir) => {
        const path = cmp(dir);
        editJson(path, (d) => (d.job = 'fly'));
        renameSync(path, join(dir, 'comparisons/fly.json'));
      }),
    ),
    [['comparisons/fly.json', '/job', 'known-job']],
  );
  assert.deepEqual(where(errorsAfter((dir) => editJson(cmp(dir), (d) => (d.concepts[0].fields[0].tool = 'Read')))), [
    ['comparisons/run-shell-command.json', '/concepts/0/fields/0/tool', 'comparison-tool-does-job'],
  ]);
  assert.deepEqual(where(errorsAfter((dir) => editJson(cmp(dir), (d) => (d.concepts[0].fields[1].tool = 'exec')))), [
    ['comparisons/run-shell-command.json', '/concepts/0/fields/1/tool', 'comparison-tool-does-job'],
  ]);
  assert.deepEqual(
    where(errorsAfter((dir) => editJson(cmp(dir), (d) => (d.concepts[1].fields[1].field = 'input.yield_ms')))),
    [['comparisons/run-shell-command.json', '/concepts/1/fields/1/field', 'comparison-field-exists']],
  );
  assert.deepEqual(where(errorsAfter((dir) => editJson(cmp(dir), (d) => (d.concepts[1].id = 'command')))), [
    ['comparisons/run-shell-command.json', '/concepts/1/id', 'unique-concept-id'],
  ]);
  assert.deepEqual(
    where(
      errorsAfter((dir) =>
        editJson(cmp(dir), (d) =>
          d.concepts[1].fields.push({ agent: 'codex', tool: 'exec_command', field: 'input.cmd' }),
        ),
      ),
    ),
    [['comparisons/run-shell-command.json', '/concepts/1/fields/2', 'field-compared-once']],
  );
  assert.deepEqual(
    where(errorsAfter((dir) => editJson(cmp(dir), (d) => (d.concepts[0].fields[0].field = 'cmd')))).map((w) => w[1]),
    ['/concepts/0/fields/0/field'],
  );
});

test('a captured schema that declares draft-07 compiles (Gemini CLI declares activate_skill so)', () => {
  const { errors } = load((d) =>
    editJson(
      join(d, 'captures/codex/default.json'),
      (c) => (c.body.tools[0].parameters.$schema = 'http://json-schema.org/draft-07/schema#'),
    ),
  );
  assert.deepEqual(errors, []);
  // An unknown meta-schema is still refused.
  const unknown = errorsAfter((d) =>
    editJson(
      join(d, 'captures/codex/default.json'),
      (c) => (c.body.tools[0].parameters.$schema = 'https://example.invalid/my-schema'),
    ),
  );
  assert.deepEqual(
    where(unknown).map((w) => w[2]),
    ['definition-compiles'],
  );
});

test('every package a generated tool file comes from is a source of its agent, once', () => {
  const site = loadContent({ root: ROOT, contentDir: GOOD });
  // Independently of the loader: the provenance packages written in the fixture's generated tool files.
  const dir = join(GOOD, 'tools/claude-code');
  const packages = new Set(
    readdirSync(dir).flatMap((f) =>
      (JSON.parse(readFileSync(join(dir, f), 'utf8')).provenance as { package: string }[]).map((p) => p.package),
    ),
  );
  const sources = site.agents.find((a) => a.id === 'claude-code')!.sources.map((s) => s.package);
  for (const pkg of packages) assert.equal(sources.filter((s) => s === pkg).length, 1, pkg);
});

/** The good fixture plus one recorded payload of Read and a scenarios file that cannot run Shell. */
function withPayloads(dir: string): void {
  mkdirSync(join(dir, 'payloads/claude-code'), { recursive: true });
  cpSync(
    join(ROOT, 'test/fixtures/payloads/read.text-file.json'),
    join(dir, 'payloads/claude-code/read.text-file.json'),
  );
  cpSync(join(ROOT, 'test/fixtures/payloads/scenarios.json'), join(dir, 'scenarios.json'));
}

test('a recorded payload becomes an example of the tool it calls, with its findings; a tool no scenario runs carries the reason', () => {
  const dir = mkdtempSync(join(tmpdir(), 'content-'));
  cpSync(GOOD, dir, { recursive: true });
  withPayloads(dir);
  const site = loadContent({ root: ROOT, contentDir: dir });
  rmSync(dir, { recursive: true, force: true });
  const read = site.tools.find((t) => t.fullName === 'Read')!;
  const fixture = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/payloads/read.text-file.json'), 'utf8'));
  assert.deepEqual(
    read.examples?.map((e) => [e.scenario, e.calls.map((c) => [c.tool, c.own])]),
    [[fixture.scenario, fixture.calls.map((c: { tool: string }) => [c.tool, true])]],
  );
  // The fixture's Read declares no result type, so only the inputs are checked: the payload's input keys all have rows.
  assert.ok(read.examples![0]!.findings.every((f) => f.parts.every((p) => p === 'input' || p === 'hook tool_input')));
  assert.equal(site.tools.find((t) => t.fullName === 'Shell')!.notRun, 'Fixture reason.');
});

test('a payload filed under another agent, calling an unknown tool, or a scenario list naming one, is refused at its pointer', () => {
  const payload = (dir: string) => {
    withPayloads(dir);
    return join(dir, 'payloads/claude-code/read.text-file.json');
  };
  assert.deepEqual(where(errorsAfter((dir) => editJson(payload(dir), (d) => (d.agent = 'codex')))), [
    ['payloads/claude-code/read.text-file.json', '/agent', 'agent-matches-folder'],
  ]);
  assert.deepEqual(where(errorsAfter((dir) => editJson(payload(dir), (d) => (d.calls[0].tool = 'Fly')))), [
    ['payloads/claude-code/read.text-file.json', '/calls/0/tool', 'payload-tool-known'],
  ]);
  assert.deepEqual(
    where(
      errorsAfter((dir) => {
        withPayloads(dir);
        editJson(join(dir, 'scenarios.json'), (d) => (d.agents['claude-code'].cannotRun[0].tools = ['Fly']));
      }),
    ),
    [['scenarios.json', '/agents/claude-code/cannotRun/0/tools/0', 'scenario-tool-known']],
  );
});

test('an availability gate the captures contradict stops the build, naming the editorial file and the gate', () => {
  const read = (d: string) => join(d, 'editorial/claude-code/read.json');
  // Necessity: Read is advertised by the fixture's one configuration, whose request asks another model.
  const necessary = errorsAfter((d) =>
    editJson(read(d), (e) =>
      e.availability.gates.push({
        kind: 'model',
        name: 'some model',
        effect: 'requires',
        when: { model: ['some-other-model'] },
        modelsCompared: ['fixture-model'],
      }),
    ),
  );
  assert.deepEqual(where(necessary), [['editorial/claude-code/read.json', '/availability/gates/1', 'gate-necessary']]);
  // Sufficiency: Shell is captured nowhere, yet its gate says it is always on.
  const sufficient = errorsAfter((d) =>
    editJson(join(d, 'editorial/claude-code/shell.json'), (e) =>
      e.availability.gates.push({ kind: 'always', name: 'default', effect: 'enables', when: {} }),
    ),
  );
  assert.deepEqual(where(sufficient), [
    ['editorial/claude-code/shell.json', '/availability/gates/0', 'gate-sufficient'],
  ]);
  // A model gate names the models it is established for: those the captures ask.
  const compared = errorsAfter((d) =>
    editJson(read(d), (e) =>
      e.availability.gates.push({
        kind: 'model',
        name: 'fixture',
        effect: 'requires',
        when: { model: ['fixture-model'] },
        modelsCompared: ['fixture-model', 'gpt-5.4'],
      }),
    ),
  );
  assert.deepEqual(where(compared), [
    ['editorial/claude-code/read.json', '/availability/gates/1/modelsCompared', 'gate-models-compared'],
  ]);
  const exception = errorsAfter((d) =>
    editJson(read(d), (e) => (e.availability.notAdvertisedIn = [{ configuration: 'print', reason: 'x' }])),
  );
  assert.deepEqual(where(exception), [
    ['editorial/claude-code/read.json', '/availability/notAdvertisedIn/0/configuration', 'gate-exception-known'],
  ]);
  // The same gates with conditions the captures bear out load.
  assert.deepEqual(
    load((d) =>
      editJson(read(d), (e) =>
        e.availability.gates.push({
          kind: 'model',
          name: 'fixture',
          effect: 'requires',
          when: { model: ['fixture-model'], mode: ['print'] },
          modelsCompared: ['fixture-model'],
        }),
      ),
    ).errors,
    [],
  );
});

test('a model-facing rule must be quoted from a description the tool is sent with', () => {
  const rule = { kind: 'fails-without-earlier-call', tool: 'Read', field: 'file_path' };
  const errors = errorsAfter((d) =>
    editJson(
      join(d, 'editorial/claude-code/read.json'),
      (e) => (e.modelRules = [{ quote: 'Words the CLI never sent.', rule }]),
    ),
  );
  assert.deepEqual(where(errors), [['editorial/claude-code/read.json', '/modelRules/0/quote', 'model-rule-quoted']]);
  const sent = JSON.parse(readFileSync(join(GOOD, 'captures/claude-code/print.json'), 'utf8')).body.tools.find(
    (t: { name: string }) => t.name === 'Read',
  ).description as string;
  const quote = sent.trim().split('\n')[0]!;
  assert.deepEqual(
    load((d) => editJson(join(d, 'editorial/claude-code/read.json'), (e) => (e.modelRules = [{ quote, rule }]))).errors,
    [],
  );
});

test('a hooks file is read with its evidence checked: file name, recorded payloads, project files, the agent’s own package, one description per event', () => {
  const hooksFile = (dir: string, edit: (d: any) => void = () => {}): void => {
    withPayloads(dir);
    mkdirSync(join(dir, 'hooks'), { recursive: true });
    const pinned = JSON.parse(readFileSync(join(dir, 'capture-matrix.json'), 'utf8')).agents['claude-code']
      .version as string;
    const data = {
      agent: 'claude-code',
      matcher: { text: 'm', evidence: [{ kind: 'project', file: 'src/lib/agents/shared.ts', says: 'matcherHooks' }] },
      events: [
        {
          name: 'PreToolUse',
          fires: 'before',
          evidence: [{ kind: 'payload', file: 'payloads/claude-code/read.text-file.json', says: 'fired' }],
        },
        {
          name: 'PostToolUse',
          fires: 'after',
          evidence: [
            { kind: 'package', package: `@anthropic-ai/claude-code@${pinned}`, file: 'cli.js', says: 'after' },
          ],
        },
      ],
    };
    edit(data);
    writeFileSync(join(dir, 'hooks/claude-code.json'), JSON.stringify(data));
  };
  const dir = mkdtempSync(join(tmpdir(), 'content-'));
  cpSync(GOOD, dir, { recursive: true });
  hooksFile(dir);
  const warnings: ContentWarning[] = [];
  const site = loadContent({ root: ROOT, contentDir: dir, onWarning: (w) => warnings.push(w) });
  rmSync(dir, { recursive: true, force: true });
  assert.deepEqual(
    site.hooks.map((h) => [h.agent, h.events.map((e) => e.name)]),
    [['claude-code', ['PreToolUse', 'PostToolUse']]],
  );
  assert.deepEqual(
    warnings.filter((w) => w.file.endsWith('hooks/claude-code.json')),
    [],
  );

  const file = 'hooks/claude-code.json';
  assert.deepEqual(
    where(errorsAfter((d) => hooksFile(d, (h) => (h.agent = 'codex')))).filter(([f]) => f === file),
    [[file, '/agent', 'file-name-matches-id']],
  );
  assert.deepEqual(
    where(errorsAfter((d) => hooksFile(d, (h) => (h.events[0].evidence[0].file = 'payloads/claude-code/none.json')))),
    [[file, '/events/0/evidence/0/file', 'evidence-payload-recorded']],
  );
  assert.deepEqual(where(errorsAfter((d) => hooksFile(d, (h) => (h.matcher.evidence[0].file = 'src/lib/none.ts')))), [
    [file, '/matcher/evidence/0/file', 'evidence-file-exists'],
  ]);
  assert.deepEqual(
    where(errorsAfter((d) => hooksFile(d, (h) => (h.events[1].evidence[0].package = '@openai/codex@1.0.0')))),
    [[file, '/events/1/evidence/0/package', 'evidence-package-of-agent']],
  );
  // A standalone package the agent's module declares holds its releases too: evidence read there is the agent's.
  const standalonePackage = AGENTS['claude-code'].standalonePackages?.[0];
  assert.ok(standalonePackage, 'fixture: Claude Code declares a standalone package');
  assert.deepEqual(
    where(
      load((d) => hooksFile(d, (h) => (h.events[1].evidence[0].package = `${standalonePackage}@1.0.0`))).errors,
    ).filter(([f]) => f === file),
    [],
  );
  assert.deepEqual(where(errorsAfter((d) => hooksFile(d, (h) => (h.events[1].name = 'PreToolUse')))), [
    [file, '/events/1/name', 'unique-hook-event'],
  ]);
  // An evidence of another kind of place is refused by the schema, at its pointer.
  assert.deepEqual(
    [
      ...new Set(
        where(errorsAfter((d) => hooksFile(d, (h) => (h.events[0].evidence[0] = { kind: 'rumour', says: 'x' })))).map(
          ([f, p]) => `${f}#${p}`,
        ),
      ),
    ],
    [`${file}#/events/0/evidence/0/kind`],
  );
  // A package release other than the pinned one is a warning: the fact should be checked again.
  const { warnings: stale } = load((d) =>
    hooksFile(d, (h) => (h.events[1].evidence[0].package = '@anthropic-ai/claude-code@0.0.1')),
  );
  assert.ok(stale.some((w) => w.file.endsWith(file) && /check it again/.test(w.message)));
});

test('a hook events file is read against its agent’s registry module: file name, declared source, own package, every event sorted and every sorted event named', () => {
  // The generated file of an agent whose module sorts its events, copied as it is committed.
  const agent = AGENT_IDS.find((id) => {
    const h = AGENTS[id].hooks;
    return !('none' in h) && h.named !== undefined && existsSync(join(ROOT, 'content/hook-events', `${id}.json`));
  })!;
  assert.ok(agent, 'an agent with a committed hook events file');
  const unsorted = AGENT_IDS.find((id) => {
    const h = AGENTS[id].hooks;
    return 'none' in h || h.named === undefined;
  })!;
  const committed = JSON.parse(readFileSync(join(ROOT, 'content/hook-events', `${agent}.json`), 'utf8'));
  const file = `hook-events/${agent}.json`;
  const eventsFile =
    (edit: (d: any) => void = () => {}, name = agent) =>
    (dir: string): void => {
      mkdirSync(join(dir, 'hook-events'), { recursive: true });
      const data = structuredClone(committed);
      edit(data);
      writeFileSync(join(dir, 'hook-events', `${name}.json`), JSON.stringify(data));
    };
  const dir = mkdtempSync(join(tmpdir(), 'content-'));
  cpSync(GOOD, dir, { recursive: true });
  eventsFile()(dir);
  const site = loadContent({ root: ROOT, contentDir: dir });
  rmSync(dir, { recursive: true, force: true });
  assert.deepEqual(
    site.hookEvents.map((h) => [h.agent, h.events.length]),
    [[agent, committed.events.length]],
  );

  assert.deepEqual(
    where(errorsAfter(eventsFile((d) => (d.agent = unsorted), agent))).filter(([f]) => f === file),
    [[file, '/agent', 'file-name-matches-id']],
  );
  assert.deepEqual(where(errorsAfter(eventsFile((d) => (d.agent = unsorted), unsorted))), [
    [`hook-events/${unsorted}.json`, '', 'hook-events-source-declared'],
  ]);
  assert.deepEqual(where(errorsAfter(eventsFile((d) => (d.package = '@someone/else@1.0.0')))), [
    [file, '/package', 'evidence-package-of-agent'],
  ]);
  // A new event in a new release: the build stops until the module sorts it.
  const n = committed.events.length;
  assert.deepEqual(where(errorsAfter(eventsFile((d) => d.events.push({ name: 'PreToolTeleport', says: 'x' })))), [
    [file, `/events/${n}/name`, 'hook-event-sorted'],
  ]);
  // An event the module sorts but the release no longer names.
  const hooks = AGENTS[agent].hooks as Exclude<(typeof AGENTS)[typeof agent]['hooks'], { none: string }>;
  const sortedOnly = Object.keys(hooks.named!.notRecorded)[0] ?? hooks.named!.noToolCall[0]!;
  assert.deepEqual(
    where(errorsAfter(eventsFile((d) => (d.events = d.events.filter((e: { name: string }) => e.name !== sortedOnly))))),
    [[file, '/events', 'hook-event-named']],
  );
});

/** A hook behaviour case of the fixture's Shell tool, with its record (a real record, its tool renamed). */
function withHookCase(dir: string, edit: (record: any) => void = () => {}): void {
  const record = JSON.parse(readFileSync(join(ROOT, 'content/hook-behaviour/claude-code/bash-pre-deny.json'), 'utf8'));
  record.tool = 'Shell';
  record.call.tool = 'Shell';
  record.cli.version = '9.9.9';
  edit(record);
  const cases = {
    agents: {
      'claude-code': {
        configuration: 'print',
        cases: [
          {
            id: 'bash-pre-deny',
            kind: 'pre-deny',
            toolRole: 'shell',
            description: 'd',
            call: { tool: 'Shell', input: {} },
            hook: { event: 'PreToolUse' },
          },
        ],
      },
    },
  };
  writeFileSync(join(dir, 'hook-cases.json'), JSON.stringify(cases));
  mkdirSync(join(dir, 'hook-behaviour/claude-code'), { recursive: true });
  writeFileSync(join(dir, `hook-behaviour/claude-code/${record.case}.json`), JSON.stringify(record));
}

test('a hook behaviour record is read when it is filed under its agent and case, declared, of a known tool, at the pinned release', () => {
  const dir = mkdtempSync(join(tmpdir(), 'content-'));
  cpSync(GOOD, dir, { recursive: true });
  withHookCase(dir);
  const warnings: ContentWarning[] = [];
  const site = loadContent({ root: ROOT, contentDir: dir, onWarning: (w) => warnings.push(w) });
  rmSync(dir, { recursive: true, force: true });
  assert.deepEqual(
    site.hookBehaviour.map((r) => [r.agent, r.case, r.file.endsWith('/hook-behaviour/claude-code/bash-pre-deny.json')]),
    [['claude-code', 'bash-pre-deny', true]],
  );
  assert.deepEqual(
    warnings.filter((w) => w.file.includes('hook-behaviour')),
    [],
  );

  const file = 'hook-behaviour/claude-code/bash-pre-deny.json';
  assert.deepEqual(where(errorsAfter((d) => withHookCase(d, (r) => (r.agent = 'codex')))), [
    [file, '/case', 'file-name-matches-id'],
  ]);
  assert.deepEqual(where(errorsAfter((d) => withHookCase(d, (r) => (r.tool = 'NoSuchTool')))), [
    [file, '/tool', 'hook-case-tool-known'],
  ]);
  const undeclared = (d: string) => {
    withHookCase(d, (r) => (r.case = 'other'));
  };
  assert.deepEqual(where(errorsAfter(undeclared)), [
    ['hook-behaviour/claude-code/other.json', '/case', 'hook-case-declared'],
  ]);
  // The schema's rule, at its pointer.
  assert.deepEqual(
    [...new Set(where(errorsAfter((d) => withHookCase(d, (r) => delete r.modelSaw))).map(([f, p]) => `${f}#${p}`))],
    [`${file}#`],
  );
  // Another release than the pin is a warning: record it again.
  const { warnings: again } = load((d) => withHookCase(d, (r) => (r.cli.version = '9.9.8')));
  assert.ok(
    again.some(
      (w) =>
        w.file.endsWith(file) && /recorded with 9\.9\.8; content\/capture-matrix\.json pins 9\.9\.9/.test(w.message),
    ),
  );
});

/** The model of the fixture content after `mutate`, with the warnings (it must load). */
function loadModel(mutate: (dir: string) => void): {
  model: ReturnType<typeof loadContent>;
  warnings: ContentWarning[];
} {
  const dir = mkdtempSync(join(tmpdir(), 'content-'));
  const warnings: ContentWarning[] = [];
  try {
    cpSync(GOOD, dir, { recursive: true });
    mutate(dir);
    return { model: loadContent({ root: ROOT, contentDir: dir, onWarning: (w) => warnings.push(w) }), warnings };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A behaviour history of the fixture's hook case over three releases, one change (hand-written, not produced by the
 * history script).
 */
function withBehaviourHistory(dir: string, edit: (history: any) => void = () => {}): void {
  withHookCase(dir);
  const outcome = (ran: boolean) => ({
    answered: ['PreToolUse'],
    ran,
    modelSaw: { result: ran ? 'made' : 'refused', isError: !ran, otherTexts: [] },
    cliExit: { code: 0 },
  });
  const history = {
    agent: 'claude-code',
    package: '@anthropic-ai/claude-code',
    pin: '9.9.9',
    method: 'm',
    releases: ['9.9.7', '9.9.8', '9.9.9'],
    read: ['9.9.7', '9.9.8', '9.9.9'],
    unpublished: [],
    cases: {
      'bash-pre-deny': [
        { from: '9.9.7', to: '9.9.7', read: ['9.9.7'], outcome: outcome(true) },
        { from: '9.9.8', to: '9.9.9', read: ['9.9.8', '9.9.9'], outcome: outcome(false) },
      ],
    },
    changes: [
      { case: 'bash-pre-deny', between: ['9.9.7', '9.9.8'], unread: [], before: outcome(true), after: outcome(false) },
    ],
  };
  edit(history);
  mkdirSync(join(dir, 'hook-behaviour-history'), { recursive: true });
  writeFileSync(join(dir, 'hook-behaviour-history/claude-code.json'), JSON.stringify(history));
}

test('a hook behaviour history is read when filed under its agent, of declared cases, naming only releases it lists and read', () => {
  const { model, warnings } = loadModel((d) => withBehaviourHistory(d));
  assert.deepEqual(
    model.hookBehaviourHistories.map((h) => [h.agent, Object.keys(h.cases)]),
    [['claude-code', ['bash-pre-deny']]],
  );
  assert.deepEqual(
    warnings.filter((w) => w.file.includes('hook-behaviour-history')),
    [],
  );
  const file = 'hook-behaviour-history/claude-code.json';
  assert.deepEqual(where(errorsAfter((d) => withBehaviourHistory(d, (h) => (h.agent = 'codex')))), [
    [file, '/agent', 'file-name-matches-id'],
  ]);
  assert.deepEqual(
    where(errorsAfter((d) => withBehaviourHistory(d, (h) => (h.cases['no-such-case'] = h.cases['bash-pre-deny'])))),
    [[file, '/cases/no-such-case', 'hook-case-declared']],
  );
  assert.deepEqual(
    where(errorsAfter((d) => withBehaviourHistory(d, (h) => (h.read = ['9.9.6', '9.9.7', '9.9.8', '9.9.9'])))),
    [[file, '/read/0', 'release-listed']],
  );
  assert.deepEqual(
    where(errorsAfter((d) => withBehaviourHistory(d, (h) => (h.changes[0].between = ['9.9.7', '9.9.5'])))),
    [[file, '/changes/0/between/1', 'release-listed']],
  );
  // A failed outcome must say why.
  assert.deepEqual(
    [
      ...new Set(
        where(
          errorsAfter((d) => withBehaviourHistory(d, (h) => (h.cases['bash-pre-deny'][0].outcome = { failed: '' }))),
        ).map(([f]) => f),
      ),
    ],
    [file],
  );
  // Ending at another release than the pin is a warning: run it again.
  const { warnings: again } = load((d) => withBehaviourHistory(d, (h) => (h.pin = '9.9.8')));
  assert.ok(
    again.some(
      (w) => w.file.endsWith(file) && /ends at 9\.9\.8; content\/capture-matrix\.json pins 9\.9\.9/.test(w.message),
    ),
  );
});

test('hook outputs are read when filed under their agent, each event once, each schema one Ajv compiles', () => {
  const outputs =
    (edit: (o: any) => void = () => {}) =>
    (d: string) => {
      const o = {
        agent: 'claude-code',
        source: { package: 'p', version: '1.0.0', file: 'x.d.ts', form: 'typescript' },
        events: [
          {
            event: 'PreToolUse',
            declaredAs: 'T',
            schema: { type: 'object', properties: { decision: { enum: ['approve', 'block'] } } },
          },
        ],
      };
      edit(o);
      mkdirSync(join(d, 'hook-outputs'), { recursive: true });
      writeFileSync(join(d, 'hook-outputs/claude-code.json'), JSON.stringify(o));
    };
  const { model } = loadModel(outputs());
  assert.deepEqual(
    model.hookOutputs.map((o) => [o.agent, 'events' in o ? o.events.map((e) => e.event) : o.unavailable]),
    [['claude-code', ['PreToolUse']]],
  );
  const file = 'hook-outputs/claude-code.json';
  assert.deepEqual(where(errorsAfter(outputs((o) => (o.agent = 'codex')))), [[file, '/agent', 'file-name-matches-id']]);
  assert.deepEqual(where(errorsAfter(outputs((o) => o.events.push(o.events[0])))), [
    [file, '/events/1/event', 'hook-output-event-once'],
  ]);
  assert.deepEqual(where(errorsAfter(outputs((o) => (o.events[0].schema = { type: 'no-such-type' })))), [
    [file, '/events/0/schema', 'hook-output-schema-compiles'],
  ]);
  // Why none is published: said, or refused.
  const { model: none } = loadModel(
    outputs((o) =>
      Object.assign(o, {
        unavailable: 'Nothing published declares it, for a reason.',
        source: undefined,
        events: undefined,
      }),
    ),
  );
  assert.deepEqual(
    none.hookOutputs.map((o) => 'unavailable' in o),
    [true],
  );
});

test('subagent tool sets are read when filed under their agent, naming only tools the agent has, at the pinned release', () => {
  const subagents =
    (edit: (s: any) => void = () => {}) =>
    (d: string) => {
      const s = {
        agent: 'claude-code',
        cli: { package: 'p', version: '9.9.9' },
        configuration: 'print',
        tool: 'Shell',
        field: 'subagent_type',
        types: [{ type: 'Explore', input: {}, tools: ['Shell'], mainTools: ['Shell'] }],
      };
      edit(s);
      mkdirSync(join(d, 'subagents'), { recursive: true });
      writeFileSync(join(d, 'subagents/claude-code.json'), JSON.stringify(s));
    };
  const { model, warnings } = loadModel(subagents());
  assert.deepEqual(
    model.subagents.map((s) => [s.agent, s.types.map((t) => t.type)]),
    [['claude-code', ['Explore']]],
  );
  assert.deepEqual(
    warnings.filter((w) => w.file.includes('subagents')),
    [],
  );
  const file = 'subagents/claude-code.json';
  assert.deepEqual(where(errorsAfter(subagents((s) => (s.agent = 'codex')))), [
    [file, '/agent', 'file-name-matches-id'],
  ]);
  // A tool the main thread was offered must have a page; one offered only to subagents need not.
  assert.deepEqual(
    where(
      errorsAfter(subagents((s) => (s.types[0].tools.push('NoSuchTool'), s.types[0].mainTools.push('NoSuchTool')))),
    ),
    [
      [file, '/types/0/tools/1', 'subagent-tool-known'],
      [file, '/types/0/mainTools/1', 'subagent-tool-known'],
    ],
  );
  assert.deepEqual(
    loadModel(subagents((s) => s.types[0].tools.push('complete_task'))).model.subagents[0]!.types[0]!.tools,
    ['Shell', 'complete_task'],
  );
  assert.deepEqual(where(errorsAfter(subagents((s) => (s.tool = 'NoSuchStarter')))), [
    [file, '/tool', 'subagent-tool-known'],
  ]);
  const { warnings: again } = loadModel(subagents((s) => (s.cli.version = '9.9.8')));
  assert.ok(
    again.some(
      (w) =>
        w.file.endsWith(file) && /recorded with 9\.9\.8; content\/capture-matrix\.json pins 9\.9\.9/.test(w.message),
    ),
  );
});

test('permission records are read when filed under their agent and declared, naming a tool of the agent, with the outcome their evidence gives', () => {
  const permissions =
    (edit: (r: any, cases: any) => void = () => {}) =>
    (d: string) => {
      const cases = {
        agents: {
          'claude-code': {
            configuration: 'print',
            cases: [
              {
                id: 'shell-deny',
                toolRole: 'shell',
                description: 'A deny rule names Shell.',
                rule: { form: 'permissions.deny', text: 'Shell(touch:*)', says: 'deny' },
                call: {
                  tool: 'Shell',
                  input: { command: 'touch m' },
                  files: { '.claude/settings.json': '{"permissions":{"deny":["Shell(touch:*)"]}}' },
                },
                sideEffect: { file: 'm' },
              },
            ],
          },
        },
      };
      const record = {
        agent: 'claude-code',
        cli: { package: 'p', version: '9.9.9' },
        case: 'shell-deny',
        toolRole: 'shell',
        description: 'A deny rule names Shell.',
        configuration: 'print',
        mode: 'print',
        tool: 'Shell',
        input: { command: 'touch m' },
        rule: { form: 'permissions.deny', text: 'Shell(touch:*)', says: 'deny' },
        args: [],
        env: {},
        configurationFiles: [],
        offered: true,
        sideEffect: { kind: 'file', target: 'm', happened: false },
        outcome: 'did-not-run',
        modelSaw: { result: 'Permission to use Shell has been denied.', isError: true, otherTexts: [] },
        cliExit: { code: 0 },
      };
      edit(record, cases);
      writeFileSync(join(d, 'permission-cases.json'), JSON.stringify(cases));
      mkdirSync(join(d, 'permissions/claude-code'), { recursive: true });
      writeFileSync(join(d, 'permissions/claude-code/shell-deny.json'), JSON.stringify(record));
    };
  const { model, warnings } = loadModel(permissions());
  assert.deepEqual(
    model.permissions.map((p) => [p.agent, p.case, p.toolSlug, p.outcome]),
    [
      [
        'claude-code',
        'shell-deny',
        model.tools.find((t) => t.agent === 'claude-code' && t.fullName === 'Shell')!.slug,
        'did-not-run',
      ],
    ],
  );
  assert.deepEqual(
    warnings.filter((w) => w.file.includes('permissions')),
    [],
  );
  const file = 'permissions/claude-code/shell-deny.json';
  assert.deepEqual(where(errorsAfter(permissions((r) => (r.agent = 'codex')))), [
    [file, '/case', 'file-name-matches-id'],
  ]);
  assert.deepEqual(where(errorsAfter(permissions((_r, c) => (c.agents['claude-code'].cases[0].id = 'other')))), [
    [file, '/case', 'permission-case-declared'],
  ]);
  assert.deepEqual(where(errorsAfter(permissions((r) => (r.tool = 'NoSuchTool')))), [
    [file, '/tool', 'permission-case-tool-known'],
  ]);
  // The outcome follows from the side effect and the result; a record that says otherwise was edited by hand.
  assert.deepEqual(where(errorsAfter(permissions((r) => (r.outcome = 'ran')))), [
    [file, '/outcome', 'permission-outcome-follows'],
  ]);
  assert.deepEqual(where(errorsAfter(permissions((r) => (r.modelSaw.result = null)))), [
    [file, '/outcome', 'permission-outcome-follows'],
  ]);
  assert.deepEqual(where(errorsAfter(permissions((r) => (r.outcome = 'maybe')))), [
    [file, '/outcome', 'permission-record.schema.json#/properties/outcome/enum'],
  ]);
  const { warnings: again } = loadModel(permissions((r) => (r.cli.version = '9.9.8')));
  assert.ok(
    again.some(
      (w) =>
        w.file.endsWith(file) && /recorded with 9\.9\.8; content\/capture-matrix\.json pins 9\.9\.9/.test(w.message),
    ),
  );
});

test('an MCP naming history is read when filed under its agent, each change between two consecutive readings that differ', () => {
  const history =
    (edit: (h: any) => void = () => {}) =>
    (d: string) => {
      const h = {
        agent: 'claude-code',
        package: 'p',
        configuration: 'print',
        listed: 3,
        from: '9.9.7',
        to: '9.9.9',
        step: 1,
        readings: [
          { version: '9.9.7', names: ['mcp__capture__echo'] },
          { version: '9.9.8', names: [] },
          { version: '9.9.9', failed: 'exited 1' },
        ],
        changes: [
          { before: { version: '9.9.7', names: ['mcp__capture__echo'] }, after: { version: '9.9.8', names: [] } },
        ],
      };
      edit(h);
      mkdirSync(join(d, 'mcp-naming'), { recursive: true });
      writeFileSync(join(d, 'mcp-naming/claude-code.json'), JSON.stringify(h));
    };
  const { model, warnings } = loadModel(history());
  assert.deepEqual(
    model.mcpNaming.map((h) => [h.agent, h.readings.length, h.changes.length]),
    [['claude-code', 3, 1]],
  );
  assert.deepEqual(
    warnings.filter((w) => w.file.includes('mcp-naming')),
    [],
  );
  const file = 'mcp-naming/claude-code.json';
  assert.deepEqual(where(errorsAfter(history((h) => (h.agent = 'codex')))), [[file, '/agent', 'file-name-matches-id']]);
  // Not consecutive readings, or two that say the same: not a change the readings show.
  assert.deepEqual(where(errorsAfter(history((h) => (h.changes[0].after = h.readings[2])))), [
    [file, '/changes/0', 'mcp-naming-change-read'],
  ]);
  assert.deepEqual(
    where(errorsAfter(history((h) => (h.changes[0].after = { version: '9.9.8', names: ['mcp__capture__echo'] })))),
    [[file, '/changes/0', 'mcp-naming-change-read']],
  );
  const { warnings: moved } = loadModel(history((h) => (h.to = '9.9.8')));
  assert.ok(
    moved.some(
      (w) => w.file.endsWith(file) && /read up to 9\.9\.8; content\/capture-matrix\.json pins 9\.9\.9/.test(w.message),
    ),
  );
});
