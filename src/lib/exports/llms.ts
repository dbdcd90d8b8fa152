/**
 * `/llms.txt` and `/llms-full.txt`, after the llms.txt convention: an H1, a
 * blockquote summary, then H2 sections of links, each with a one-line note.
 * `llms-full.txt` adds each tool's summary and its field tables (path, type,
 * required) in plain Markdown. Built from the model, since tool pages are not
 * in Starlight's docs collection. Pure: the model comes in as an argument.
 */
import type { AgentId, AgentRecord } from '../core/content-types.ts';
import type { FieldRow } from '../shapes/field-rows.ts';
import { inlineParts } from '../core/inline-text.ts';
import { agentReleaseLabel, releaseMismatch } from '../model/releases.ts';
import type { SiteModel, ToolModel } from '../model/model.ts';
import { agentBundle } from '../model/bundles.ts';
import { KIND_LABELS, toolPath } from '../site/site.ts';
import { CATALOG_PATH } from './catalog.ts';
import { siteUrl, type SiteOrigin } from '../site/export-files.ts';

export const SITE_TITLE = 'Agent tool reference';

/** Text on one line: runs of white space and control characters become one space. */
function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\s\u0000-\u001f\u007f]+/g, ' ').trim();
}

/**
 * Text on one line that Markdown reads back as exactly that text: every character that
 * could start markup (links, images, emphasis, code, inline HTML, autolinks, entity
 * references, table cells, strikethrough) is backslash-escaped. `_` between letters or digits starts
 * nothing (CommonMark's intraword rule), so names like `exec_command` stay readable.
 */
export function inlineMarkdown(text: string): string {
  return escapeInline(oneLine(text));
}

/** The escaping of inlineMarkdown on text already on one line (its spaces kept as they are). */
function escapeInline(text: string): string {
  return text.replace(/[\\`*[\]<>|~]|_|&(?=#?\w+;)/g, (c, at: number, all: string) =>
    c === '_' && /[\p{L}\p{N}]/u.test(all[at - 1] ?? '') && /[\p{L}\p{N}]/u.test(all[at + 1] ?? '') ? c : `\\${c}`,
  );
}

/**
 * Prose on one line as the site's pages show it (src/lib/core/inline-text.ts): a run in backticks
 * is a code span (inert whatever it holds), everything else is escaped text.
 */
function prose(text: string): string {
  return inlineParts(oneLine(text))
    .map((part) => (part.code ? code(part.text) : escapeInline(part.text)))
    .join('');
}

/** Prose that also starts a line: a leading heading, quote, list or rule marker is escaped. */
function paragraph(text: string): string {
  return prose(text).replace(
    /^([#>+=-])|^(\d+)([.)])/,
    (_m, marker: string | undefined, digits: string, close: string) => (marker ? `\\${marker}` : `${digits}\\${close}`),
  );
}

/** Inline code that survives any backticks inside. */
function code(text: string): string {
  const t = oneLine(text);
  const longest = Math.max(0, ...[...t.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return longest === 0 ? `${fence}${t}${fence}` : `${fence} ${t} ${fence}`;
}

/**
 * A link destination that cannot end early or open anything: spaces, parentheses and angle brackets percent-encoded.
 */
function destination(url: string): string {
  return url.replace(/[\s()<>\\]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

function link(title: string, path: string, origin: SiteOrigin, note?: string): string {
  return `- [${inlineMarkdown(title)}](${destination(siteUrl(path, origin))})${note ? `: ${prose(note)}` : ''}`;
}

function toolsOf(model: SiteModel, agent: AgentId): ToolModel[] {
  return [...agentBundle(model, agent).tools].sort((a, b) =>
    a.fullName < b.fullName ? -1 : a.fullName > b.fullName ? 1 : 0,
  );
}

const agentHeading = (model: SiteModel, agent: AgentRecord): string =>
  agentReleaseLabel(agent.product, model.releases[agent.id] ?? { examples: [] });

/** The sentence that says which source comes from which release, when they differ. */
function releaseNote(model: SiteModel, agent: AgentRecord): string[] {
  const note = releaseMismatch(model.releases[agent.id] ?? { examples: [] });
  return note ? [paragraph(note), ''] : [];
}

function summaryLine(model: SiteModel): string {
  const agents = model.agents.map((a) => agentHeading(model, a)).join('; ');
  return (
    `Every built-in tool of ${model.agents.length} coding-agent CLIs (${agents}): what each tool does, what ` +
    `turns it on, and the exact shape of its input and result, derived from the artifacts each agent ships at ` +
    `a pinned release.`
  );
}

function header(model: SiteModel, origin: SiteOrigin): string[] {
  return [
    `# ${SITE_TITLE}`,
    '',
    `> ${inlineMarkdown(summaryLine(model))}`,
    '',
    paragraph(
      `Each tool has a page at /<agent>/<tool>/ with field tables whose rows have stable anchors (#input.<path>, ` +
        `#output.<path>). Machine-readable exports: the catalog (${siteUrl(CATALOG_PATH, origin)}) and, beside each ` +
        `tool page, input.schema.json, result.schema.json and model-input.schema.json (JSON Schema 2020-12).`,
    ),
    '',
  ];
}

function otherSections(model: SiteModel, origin: SiteOrigin): string[] {
  return [
    '## Programs',
    '',
    link(
      'For programs',
      '/for-programs/',
      origin,
      'the export URLs, their shapes and what stays stable between releases',
    ),
    link(
      'Tool catalog (JSON)',
      CATALOG_PATH,
      origin,
      'every tool of every agent with its definitions, availability per configuration and links',
    ),
    '',
    '## Optional',
    '',
    link('Start from a job', '/jobs/', origin, 'tasks mapped to the tools of each agent that do them'),
    ...model.jobs.map((job) => link(job.title, `/jobs/${job.id}/`, origin, job.description)),
    link('About this reference', '/about/', origin, 'where the data comes from and how to link to a field'),
    '',
  ];
}

/** `/llms.txt`: one link per tool page, grouped by agent, with its summary. */
export function llmsTxt(model: SiteModel, origin: SiteOrigin): string {
  const lines = header(model, origin);
  for (const agent of model.agents) {
    lines.push(`## ${inlineMarkdown(agentHeading(model, agent))}`, '', ...releaseNote(model, agent));
    lines.push(
      link(
        `${agent.product} overview`,
        `/${agent.id}/`,
        origin,
        `every ${agent.product} tool and which configurations advertise it`,
      ),
    );
    if (agentBundle(model, agent.id).histories.length > 0)
      lines.push(
        link(`${agent.product} changelog`, `/${agent.id}/changelog/`, origin, 'every tool and field change by release'),
      );
    for (const tool of toolsOf(model, agent.id))
      lines.push(link(tool.fullName, toolPath(tool), origin, tool.editorial?.summary));
    lines.push('');
  }
  lines.push(...otherSections(model, origin));
  return `${lines.join('\n').trimEnd()}\n`;
}

/** A code span inside a table cell: GFM splits cells at any unescaped `|`, code spans included. */
const cellCode = (text: string): string => code(text).replace(/\|/g, '\\|');

function fieldTable(rows: FieldRow[]): string[] {
  const fields = rows.filter((r) => r.role !== 'root');
  if (fields.length === 0) return [];
  return [
    '| Field | Type | Required |',
    '| --- | --- | --- |',
    ...fields.map(
      (r) =>
        `| ${cellCode(r.path)} | ${cellCode(r.type)} | ` +
        (r.required === null ? '—' : r.required ? 'yes' : 'no') +
        ' |',
    ),
  ];
}

function definitionBlock(
  title: string,
  view: ToolModel['input'],
  origin: SiteOrigin,
  tool: ToolModel,
  file: string,
): string[] {
  const kind = view.definition.kind;
  const lines = [`#### ${title}`, ''];
  if (kind === 'unavailable') {
    lines.push(`Unavailable: ${inlineMarkdown(view.definition.reason)}`);
  } else if (kind === 'grammar') {
    lines.push(`Freeform text in a ${inlineMarkdown(view.definition.syntax)} grammar (no fields); see the page.`);
  } else {
    const table = fieldTable(view.rows);
    lines.push(`${KIND_LABELS[kind]}; JSON Schema: ${destination(siteUrl(`${toolPath(tool)}${file}`, origin))}`);
    if (table.length > 0) lines.push('', ...table);
    else lines.push('', 'No fields.');
  }
  lines.push('');
  return lines;
}

/** `/llms-full.txt`: the same links, and each tool's summary and input and result fields. */
export function llmsFullTxt(model: SiteModel, origin: SiteOrigin): string {
  const lines = header(model, origin);
  for (const agent of model.agents) {
    lines.push(`## ${inlineMarkdown(agentHeading(model, agent))}`, '', ...releaseNote(model, agent));
    for (const tool of toolsOf(model, agent.id)) {
      lines.push(`### ${inlineMarkdown(tool.fullName)}`, '');
      lines.push(`${destination(siteUrl(toolPath(tool), origin))}`, '');
      if (tool.editorial?.summary) lines.push(paragraph(tool.editorial.summary), '');
      lines.push(...definitionBlock('Input', tool.input, origin, tool, 'input.schema.json'));
      lines.push(...definitionBlock('Result', tool.output, origin, tool, 'result.schema.json'));
      if (tool.modelInput)
        lines.push(
          ...definitionBlock('Model-facing input', tool.modelInput.view, origin, tool, 'model-input.schema.json'),
        );
    }
  }
  lines.push(...otherSections(model, origin));
  return `${lines.join('\n').trimEnd()}\n`;
}
