/**
 * The baseline site's pages: the reference's pages (home, jobs, each agent,
 * each tool) written as plain Starlight Markdown from the same site model, so
 * that the benchmark compares the custom components against Markdown holding
 * the same text, not against an emptier site. Pure: model in, file texts out.
 *
 * This mirrors the data each page shows, in the order a tool page shows it; it
 * is not a copy of the components' markup (that is what is being measured).
 */
import {
  DELIVERY_LABELS,
  distinctInputs,
  primaryConfiguration,
  type MatrixAgent,
} from '../../../src/lib/model/captures.ts';
import { literalText, type FieldRow } from '../../../src/lib/shapes/field-rows.ts';
import { inlineParts } from '../../../src/lib/core/inline-text.ts';
import type { DefinitionView, SiteModel, ToolModel } from '../../../src/lib/model/model.ts';
import {
  AGENT_LABELS,
  GROUP_LABELS,
  KIND_LABELS,
  agentUrl,
  groupedTools,
  toolPath,
} from '../../../src/lib/site/site.ts';
import type { AgentRecord } from '../../../src/lib/core/content-types.ts';
import { otherNames } from '../../../src/lib/model/tool-names.ts';

/** One Markdown file of the baseline, relative to src/content/docs/. */
export interface MarkdownPage {
  file: string;
  text: string;
}

/**
 * Text that Markdown must show as written: whitespace collapsed (HTML shows it
 * so too), and every character Markdown could read as syntax escaped — an
 * upstream description holding `<environment_context>`, `*` or `|` stays text.
 */
export function escapeText(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .replace(/[\\`*_[\]<>&|#!~]/g, '\\$&')
    .replace(/^(\d+)([.)])/, '$1\\$2')
    .replace(/^([-+=])/, '\\$1');
}

/**
 * A code span that holds any text: the fence is one backtick longer than the
 * longest run inside, padded when the text starts or ends with a backtick or
 * space (CommonMark strips one space from each side). In a table cell `|`
 * must be escaped even inside code.
 */
export function codeSpan(text: string, inTable = false): string {
  const flat = text.replace(/\s*\n\s*/g, ' ');
  const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map((run) => run.length));
  const ticks = '`'.repeat(longest + 1);
  const pad = /^[` ]|[` ]$/.test(flat) && flat.trim() !== '' ? ' ' : '';
  const body = inTable ? flat.replace(/\|/g, '\\|') : flat;
  return `${ticks}${pad}${body}${pad}${ticks}`;
}

/** Editorial or upstream text with `code` runs, as the site's InlineText shows it. */
export function inline(text: string, inTable = false): string {
  return inlineParts(text)
    .map((p) => (p.code ? codeSpan(p.text, inTable) : escapeText(p.text)))
    .join('');
}

/** A fenced block that no line of `text` can close: the fence outgrows every backtick run. */
export function fence(text: string, lang: string, meta = ''): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const ticks = '`'.repeat(Math.max(3, longest + 1));
  const body = text.endsWith('\n') ? text : `${text}\n`;
  return `${ticks}${lang}${meta ? ` ${meta}` : ''}\n${body}${ticks}`;
}

/** A GFM table; cells must already be table-safe (rendered with `inTable`). */
export function table(head: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.map((c) => c || ' ').join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...rows.map(line)].join('\n');
}

function link(text: string, href: string, inTable = false): string {
  return `[${inline(text, inTable)}](${href})`;
}

function list(items: string[]): string {
  return items.map((i) => `- ${i}`).join('\n');
}

/** Collapsed like the site's full definitions: a fenced block inside <details>. */
function details(summary: string, block: string): string {
  return `<details>\n<summary>${escapeText(summary)}</summary>\n\n${block}\n\n</details>`;
}

/**
 * Text inside a raw HTML block: the characters HTML reads as markup escaped, and line breaks as
 * character references, so that no blank line ends the block and hands the rest to Markdown.
 */
export function htmlText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r?\n/g, '&#10;');
}

/**
 * One scenario of recorded calls as the site's tool page shows it, read from that page
 * (examplesFromHtml in ./from-html.ts): its description already Markdown, each block's text as
 * printed, `json` for a value and `text` for a plain string.
 */
export interface BaselineExample {
  scenario: string;
  expect: string;
  description: string;
  configuration: string;
  parts: { title: string; text: string; lang: 'json' | 'text'; highlighted: boolean }[];
}

/** An entry of Starlight's `sidebar` option: a link, or a group of entries. */
export type SidebarEntry =
  | { label: string; link: string }
  | { label: string; collapsed: boolean; items: SidebarEntry[] };

/**
 * The recorded calls, as the tool page shows them: per scenario its description, then each call's
 * input and result as highlighted blocks (fenced, so Expressive Code renders them as on the site)
 * and its hook payloads folded as plain text.
 */
export function examplesMarkdown(examples: readonly BaselineExample[]): string[] {
  if (examples.length === 0) return [];
  return [
    '## Examples',
    ...examples.flatMap((example) => [
      `### ${escapeText(example.scenario)} (${example.expect})`,
      `${example.description} (configuration ${codeSpan(example.configuration)})`,
      ...example.parts.map((part) =>
        part.highlighted
          ? fence(part.text, part.lang, `title=${JSON.stringify(part.title)}`)
          : `<details><summary>${htmlText(part.title)}</summary><pre><code>${htmlText(part.text)}` +
            `</code></pre></details>`,
      ),
    ]),
  ];
}

/** YAML front matter; JSON strings are valid YAML double-quoted scalars. */
function page(
  file: string,
  front: Record<string, string | undefined>,
  blocks: (string | false | undefined)[],
): MarkdownPage {
  const yaml = Object.entries(front)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}: ${JSON.stringify(v)}`)
    .join('\n');
  return { file, text: `---\n${yaml}\n---\n\n${blocks.filter((b): b is string => !!b).join('\n\n')}\n` };
}

/** The Field / Type / Required / Meaning and defaults table of a definition. */
export function fieldTable(rows: readonly FieldRow[]): string {
  const required = (r: FieldRow) => (r.required === null ? '—' : r.required ? 'Yes' : 'No');
  const meaning = (r: FieldRow) =>
    [
      r.deprecated ? 'Deprecated' : '',
      r.description ? inline(r.description, true) : '',
      r.literals && r.literals.length > 1
        ? `One of: ${r.literals.map((l) => codeSpan(literalText(l), true)).join(', ')}`
        : '',
      r.constraints.map((c) => codeSpan(c, true)).join(' · '),
    ]
      .filter(Boolean)
      .join('<br>');
  return table(
    ['Field', 'Type', 'Required', 'Meaning and defaults'],
    rows.map((r) => [
      r.role === 'variant' ? escapeText(r.label) : codeSpan(r.label, true),
      codeSpan(r.type, true),
      required(r),
      meaning(r),
    ]),
  );
}

function definitionSection(view: DefinitionView, title: string, depth = 2): string {
  const def = view.definition;
  const out = [`${'#'.repeat(depth)} ${title}: ${KIND_LABELS[def.kind]}`];
  if (def.kind === 'unavailable') out.push(inline(def.reason));
  else {
    const where = `${codeSpan(def.origin.file)} of ${codeSpan(`${def.origin.package}@${def.origin.version}`)}.`;
    out.push(def.kind === 'typescript' ? `Type ${codeSpan(def.typeName)} in ${where}` : `From ${where}`);
  }
  if (view.rows.length > 0) out.push(fieldTable(view.rows));
  if (def.kind === 'grammar') {
    out.push(`A freeform tool: the model sends plain text, which must match this ${codeSpan(def.syntax)} grammar.`);
    out.push(fence(def.definition, 'text', `title=${JSON.stringify(`${def.syntax} grammar`)}`));
  }
  if ((def.kind === 'typescript' || def.kind === 'json-schema') && view.rows.length === 0)
    out.push('This definition declares no fields.');
  if (view.code && def.kind !== 'grammar')
    out.push(details(`Full ${title.toLowerCase()} definition`, fence(view.code.text, view.code.lang)));
  return out.join('\n\n');
}

/** Configurations grouped by how they advertise the tool: one line per outcome. */
function availabilityLines(tool: ToolModel, matrix: MatrixAgent): string {
  const groups = new Map<string, string[]>();
  for (const c of matrix.configurations) {
    const seen = tool.captured?.byConfig.get(c.id);
    const label = seen ? DELIVERY_LABELS[seen.delivery] : 'not advertised';
    groups.set(label, [...(groups.get(label) ?? []), c.label]);
  }
  return list(
    [...groups].map(([label, configs]) => `${escapeText(label)}: ${configs.map((c) => escapeText(c)).join(', ')}`),
  );
}

/**
 * What the model is told: the description and settings sent in the primary configuration, the model-facing input
 * against the SDK type, definitions that differ by configuration.
 */
function modelToldSection(tool: ToolModel, configLabel: (id: string) => string): (string | false | undefined)[] {
  const primaryId = tool.captured ? primaryConfiguration(tool.captured) : undefined;
  const primary = primaryId ? tool.captured!.byConfig.get(primaryId) : undefined;
  const groups = tool.captured ? distinctInputs(tool.captured) : [];
  const diffText = {
    'only-in-first': 'only in the SDK type',
    'only-in-second': 'only in the model-facing schema',
    required: 'required differs',
    type: 'type differs',
  } as const;
  const modelInput = tool.modelInput;
  return [
    primary && '## What the model is told',
    primary &&
      `Description sent in *${escapeText(configLabel(primaryId!))}* (` +
        `${primary.description ? `${primary.description.length} characters` : 'none'}` +
        `); upstream text, shown verbatim.`,
    primary?.description && details('Tool description as sent', fence(primary.description, 'text')),
    primary?.settings &&
      `Other fields sent with the tool` +
        `${primary.delivery === 'hosted' ? ' (settings of a tool the model provider runs)' : ''}:`,
    primary?.settings && fence(JSON.stringify(primary.settings, null, 2), 'json'),
    modelInput && definitionSection(modelInput.view, 'Model-facing input'),
    modelInput && '### SDK type versus model-facing schema',
    modelInput &&
      (modelInput.differences === undefined
        ? 'The SDK declares this input in a form that is not compared field by field with the model-facing schema.'
        : modelInput.differences.length === 0
          ? `The JSON Schema sent in *${escapeText(configLabel(modelInput.config))}` +
            `* has the same fields, requiredness and types as the SDK type.`
          : list(
              modelInput.differences.map(
                (d) =>
                  `${codeSpan(d.path)}: ${diffText[d.kind]}` +
                  (d.first !== undefined
                    ? ` (SDK ${codeSpan(d.first)}, model-facing ${codeSpan(d.second ?? '')})`
                    : ''),
              ),
            )),
    groups.length > 1 && '### Definitions that differ by configuration',
    groups.length > 1 &&
      list(
        groups.map(
          (g) =>
            `${g.configs.map((c) => `*${escapeText(configLabel(c))}*`).join(', ')}: ` +
            (g.tool.input.kind === 'typescript'
              ? 'TypeScript declaration'
              : g.tool.input.kind === 'grammar'
                ? 'grammar'
                : 'JSON Schema') +
            `${g.tool.description !== primary?.description ? ', with a different description' : ''}`,
        ),
      ),
  ];
}

const ALIAS_KIND = {
  'accepted-alias': 'accepted alias',
  'former-name': 'former name, still accepted',
  'sdk-type': 'SDK type name',
} as const;

/** The fact line under a tool's title: its callable name and the others accepted, release, group. */
function toolFacts(agent: AgentRecord, tool: ToolModel): string {
  const accepted = otherNames(tool.generated);
  return [
    `Callable name ${codeSpan(tool.fullName)}`,
    accepted.length > 0 && `also accepted: ${accepted.map((n) => codeSpan(n)).join(', ')}`,
    `${AGENT_LABELS[tool.agent]} ${agent.version}`,
    GROUP_LABELS[tool.generated.group],
  ]
    .filter(Boolean)
    .join(' · ');
}

/** What turns the tool on: the editorial prose and gates, and the capture matrix's evidence. */
function turnsOnSection(tool: ToolModel, matrix: MatrixAgent | undefined): (string | false | undefined)[] {
  const { editorial } = tool;
  return [
    '## What turns it on',
    editorial ? inline(editorial.availability.prose) : 'Not established yet.',
    editorial &&
      editorial.availability.gates.length > 0 &&
      list(
        editorial.availability.gates.map(
          (g) => `${g.kind} ${codeSpan(`${g.name}${g.value !== undefined ? `=${g.value}` : ''}`)} ${g.effect}`,
        ),
      ),
    matrix &&
      `Evidence from the real CLI (${codeSpan(`${matrix.package}@${matrix.version}`)}` +
        `): the tool list it sent its model in each configuration of the [capture matrix](${agentUrl(tool.agent)}` +
        `#configurations).`,
    matrix && availabilityLines(tool, matrix),
  ];
}

/** Names and aliases, failures and lifecycle, version notes. */
function namesAndChangesSections(tool: ToolModel): (string | false | undefined)[] {
  const { generated, editorial } = tool;
  return [
    '## Names and aliases',
    `Called as ${codeSpan(tool.fullName)}. Why this name: ${inline(generated.nameEvidence)}.`,
    generated.aliases.length > 0 &&
      list(generated.aliases.map((a) => `${codeSpan(a.name)} — ${ALIAS_KIND[a.kind]} (${inline(a.evidence)})`)),
    '## Failures and lifecycle',
    editorial ? inline(editorial.lifecycle) : 'Not established yet.',
    editorial && editorial.failures.length > 0 && list(editorial.failures.map((f) => inline(f))),
    '## Version notes',
    editorial?.versionNotes && editorial.versionNotes.length > 0
      ? list(
          editorial.versionNotes.map(
            (n) => `**${escapeText(n.version)}**: ${inline(n.change)} (source: ${inline(n.evidence)})`,
          ),
        )
      : 'No release-by-release change is recorded for this tool yet: earlier releases have not been diffed for it.',
  ];
}

/** Where the tool's facts come from: each source, the generated and editorial files, the bundled commit. */
function provenanceSection(agent: AgentRecord, tool: ToolModel): string[] {
  return [
    '## Provenance',
    list([
      ...tool.generated.provenance.map(
        (p) =>
          `${codeSpan(p.file)} from ${codeSpan(`${p.package}@${p.version}`)}, read with the ` +
          `${escapeText(p.method)}, checked ${p.date}.`,
      ),
      `Generated file ${codeSpan(tool.files.generated)}` +
        `${tool.files.editorial ? `; editorial notes ${codeSpan(tool.files.editorial)}` : ''}.`,
      ...(agent.sourceRevision
        ? [
            `Bundled ${escapeText(agent.product)} ${agent.version}, commit ${codeSpan(agent.sourceRevision)}` +
              `${agent.buildDate ? `, built ${agent.buildDate}` : ''}.`,
          ]
        : []),
    ]),
  ];
}

/** A tool's page, in the order of the site's tool page; `examples` are the recorded calls that page shows. */
export function toolMarkdown(
  model: SiteModel,
  tool: ToolModel,
  examples: readonly BaselineExample[] = [],
): MarkdownPage {
  const { editorial } = tool;
  const agent = model.agents.find((a) => a.id === tool.agent)!;
  const matrix = model.matrix?.agents[tool.agent];
  const configLabel = (id: string) => matrix?.configurations.find((c) => c.id === id)?.label ?? id;
  const jobs = model.jobs.filter((j) => editorial?.jobs.includes(j.id));
  return page(
    `${tool.agent}/${tool.slug}.md`,
    {
      title: tool.fullName,
      description: `${AGENT_LABELS[tool.agent]} tool ${tool.fullName}: ${editorial?.summary ?? 'input and result'}`,
      // The file name alone would be slugified (`clock.curr_time` → `clockcurr_time`); keep the site's URL.
      slug: `${tool.agent}/${tool.slug}`,
    },
    [
      toolFacts(agent, tool),
      editorial ? inline(editorial.summary) : 'No summary has been written for this tool yet.',
      definitionSection(tool.input, 'Input'),
      definitionSection(tool.output, 'Result'),
      ...examplesMarkdown(examples),
      ...modelToldSection(tool, configLabel),
      ...turnsOnSection(tool, matrix),
      ...namesAndChangesSections(tool),
      jobs.length > 0 && '## Jobs it does',
      jobs.length > 0 && list(jobs.map((j) => link(j.title, `/jobs/#${j.id}`))),
      ...provenanceSection(agent, tool),
    ],
  );
}

/**
 * The captured configurations of an agent page and which tools each advertises; nothing when the agent has no matrix
 * entry.
 */
function matrixSection(agent: AgentRecord, matrix: MatrixAgent | undefined, captured: readonly ToolModel[]): string[] {
  if (!matrix) return [];
  const mark = (t: ToolModel, id: string) => {
    const seen = t.captured?.byConfig.get(id);
    return !seen ? '–' : seen.delivery === 'code-mode' ? '◆' : seen.delivery === 'deferred' ? '○' : '●';
  };
  return [
    '## Captured configurations',
    `Each configuration ran the real ${codeSpan(`${matrix.package}@${matrix.version}`)}` +
      ` against a recording stub of its model API on 127.0.0.1, in a network namespace with only loopback; the ` +
      `tool list it sent is committed under ${codeSpan(`content/captures/${agent.id}/`)}.`,
    list(
      matrix.configurations.map((c) => {
        const flags = [...Object.entries(c.env ?? {}).map(([k, v]) => `${k}=${v}`), ...(c.args ?? [])].join(' ');
        return `**${escapeText(c.label)}**: ${inline(c.description)}${flags ? ` ${codeSpan(flags)}` : ''}`;
      }),
    ),
    '### Which tools each configuration advertises',
    '● sent with its full definition · ◆ nested in code mode (declared in TypeScript) · ○ deferred: ' +
      'named only, schema loaded through tool search · – not advertised',
    table(
      ['Tool', ...matrix.configurations.map((c) => escapeText(c.label))],
      captured.map((t) => [
        link(`\`${t.fullName}\``, toolPath(t), true),
        ...matrix.configurations.map((c) => mark(t, c.id)),
      ]),
    ),
  ];
}

export function agentMarkdown(model: SiteModel, agent: AgentRecord): MarkdownPage {
  const tools = model.tools.filter((t) => t.agent === agent.id);
  const matrix = model.matrix?.agents[agent.id];
  const count = (source: ToolModel['source']) => tools.filter((t) => t.source === source).length;
  const kinds = Object.keys(KIND_LABELS) as (keyof typeof KIND_LABELS)[];
  const kindCount = (side: 'input' | 'output', kind: string) =>
    String(tools.filter((t) => t[side].definition.kind === kind).length);
  return page(
    `${agent.id}/index.md`,
    { title: AGENT_LABELS[agent.id], description: `${tools.length} tools of ${agent.product} ${agent.version}` },
    [
      list([
        `Version: ${codeSpan(agent.version)}`,
        ...(agent.sourceRevision
          ? [
              `Source revision: ${codeSpan(agent.sourceRevision)}` +
                `${agent.buildDate ? ` (built ${agent.buildDate})` : ''}`,
            ]
          : []),
        `Checked: ${agent.checked}`,
        `Tools: ${tools.length} (${count('sdk')} with published SDK types, ${count('capture')}` +
          ` known from captures only` +
          (count('documented') > 0 ? `, ${count('documented')} documented but not advertised in any capture` : '') +
          `)`,
      ]),
      '## Sources',
      list(
        agent.sources.map(
          (s) =>
            `${codeSpan(`${s.package}@${s.version}`)} (${s.files.map((f) => codeSpan(f)).join(', ')}): ` +
            `${inline(s.role)}.${s.integrity ? ` Integrity ${codeSpan(s.integrity)}.` : ''}`,
        ),
      ),
      '## Definitions by kind',
      table(
        ['Kind', 'Inputs', 'Results'],
        kinds.map((k) => [KIND_LABELS[k], kindCount('input', k), kindCount('output', k)]),
      ),
      ...matrixSection(
        agent,
        matrix,
        tools.filter((t) => t.captured),
      ),
      '## Tools',
      ...groupedTools(model.tools, agent.id).flatMap((g) => [
        `### ${g.label} (${g.tools.length})`,
        table(
          ['Tool', 'What it does', 'Input', 'Result'],
          g.tools.map((t) => [
            link(`\`${t.fullName}\``, toolPath(t), true),
            t.editorial ? inline(t.editorial.summary, true) : '—',
            KIND_LABELS[t.input.definition.kind],
            KIND_LABELS[t.output.definition.kind],
          ]),
        ),
      ]),
    ],
  );
}

export function homeMarkdown(model: SiteModel): MarkdownPage {
  return page(
    'index.md',
    {
      title: 'Agent tool reference',
      description: 'The built-in tools of coding-agent CLIs: what turns each on, what it takes, what it returns.',
    },
    [
      'This reference documents every built-in tool of coding-agent command-line tools: what it does, what ' +
        'turns it on, the exact shape of its input and its result, and where each fact comes from. Every ' +
        'definition is taken from the packages people install, at the versions below; nothing in a field table ' +
        'is typed by hand.',
      'Search a tool name exactly as you would type it (`TaskStop`, `Read`), or a field name, with the search ' +
        'box at the top of every page.',
      '## What is covered',
      table(
        ['Agent', 'Version', 'Checked', 'Tools'],
        model.agents.map((a) => [
          link(AGENT_LABELS[a.id], agentUrl(a.id), true),
          codeSpan(a.version, true),
          a.checked,
          String(model.tools.filter((t) => t.agent === a.id).length),
        ]),
      ),
      '## Start from a job',
      list(model.jobs.map((j) => link(j.title, `/jobs/#${j.id}`))),
    ],
  );
}

export function jobsMarkdown(model: SiteModel): MarkdownPage {
  return page(
    'jobs.md',
    { title: 'Start from a job', description: 'Tasks people have, mapped to the tools of each agent that do them.' },
    [
      'Each job lists the tools of every agent that do it. Follow a tool to see the exact shape of its input ' +
        'and result.',
      ...model.jobs.flatMap((job) => [
        `## ${escapeText(job.title)}`,
        inline(job.description),
        list(
          model.agents.map((agent) => {
            const doers = model.tools.filter((t) => t.agent === agent.id && t.editorial?.jobs.includes(job.id));
            return (
              `**${AGENT_LABELS[agent.id]}:** ` +
              (doers.length === 0
                ? 'no dedicated tool recorded'
                : doers.map((t) => link(`\`${t.fullName}\``, toolPath(t))).join(', '))
            );
          }),
        ),
      ]),
    ],
  );
}

/**
 * Every page of the reference as Markdown (the about page is Markdown already and is copied as is); `examplesOf` gives
 * the recorded calls each tool page shows (none by default).
 */
export function baselinePages(
  model: SiteModel,
  examplesOf: (tool: ToolModel) => readonly BaselineExample[] = () => [],
): MarkdownPage[] {
  return [
    homeMarkdown(model),
    jobsMarkdown(model),
    ...model.agents.map((a) => agentMarkdown(model, a)),
    ...model.tools.map((t) => toolMarkdown(model, t, examplesOf(t))),
  ];
}
