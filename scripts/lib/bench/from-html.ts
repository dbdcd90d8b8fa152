/**
 * The pages of the built site that the baseline's Markdown renderers (./markdown.ts) do
 * not write — changelogs, hooks and permissions pages, job pages, removed tools, … — as
 * Markdown read from the built page itself: the title and the content column
 * (Starlight's `.sl-markdown-content`), with headings, paragraphs, lists, tables and code
 * kept and every other element reduced to its text. So the baseline builds the same set
 * of pages with the same words, and the build-time ratio compares like with like. And the
 * parts of the site's pages the baseline's own pages mirror: a tool page's recorded calls
 * and the sidebar.
 */
import { parse, type DefaultTreeAdapterMap } from 'parse5';
import { codeSpan, escapeText, type BaselineExample, type SidebarEntry } from './markdown.ts';

type Node = DefaultTreeAdapterMap['node'];
type Element = DefaultTreeAdapterMap['element'];

const isElement = (n: Node): n is Element => 'tagName' in n;
const attr = (e: Element, name: string): string | undefined => e.attrs.find((a) => a.name === name)?.value;
const childrenOf = (n: Node): Node[] => ('childNodes' in n ? n.childNodes : []);

function find(n: Node, test: (e: Element) => boolean): Element | undefined {
  if (isElement(n) && test(n)) return n;
  for (const c of childrenOf(n)) {
    const found = find(c, test);
    if (found) return found;
  }
  return undefined;
}

/** The text of a node, whitespace collapsed. */
function textOf(n: Node): string {
  if (n.nodeName === '#text') return (n as DefaultTreeAdapterMap['textNode']).value;
  if (isElement(n) && (n.tagName === 'script' || n.tagName === 'style' || n.tagName === 'template')) return '';
  return childrenOf(n).map(textOf).join('');
}

const inline = (n: Node): string => escapeText(textOf(n).replace(/\s+/g, ' ').trim());

/** Markdown blocks for the children of `n`. */
function blocks(n: Node): string[] {
  const out: string[] = [];
  let run = '';
  const flush = () => {
    if (run.trim() !== '') out.push(escapeText(run.replace(/\s+/g, ' ').trim()));
    run = '';
  };
  for (const c of childrenOf(n)) {
    if (!isElement(c)) {
      if (c.nodeName === '#text') run += (c as DefaultTreeAdapterMap['textNode']).value;
      continue;
    }
    const block = blockOf(c);
    if (block === undefined) {
      run += textOf(c);
      continue;
    }
    flush();
    out.push(...block);
  }
  flush();
  return out;
}

/** A block element as Markdown blocks, or undefined for an inline one (its text joins the paragraph). */
function blockOf(e: Element): string[] | undefined {
  const heading = /^h([1-6])$/.exec(e.tagName);
  if (heading) return [`${'#'.repeat(Math.max(2, Number(heading[1])))} ${inline(e)}`];
  switch (e.tagName) {
    case 'script':
    case 'style':
    case 'template':
      return [];
    case 'p':
      return [inline(e)].filter((t) => t !== '');
    case 'pre':
      return [`\`\`\`text\n${textOf(e).replace(/```/g, '``\u200b`').replace(/\n$/, '')}\n\`\`\``];
    case 'ul':
    case 'ol':
      return [
        childrenOf(e)
          .filter((c): c is Element => isElement(c) && c.tagName === 'li')
          .map((li, i) => `${e.tagName === 'ol' ? `${i + 1}.` : '-'} ${inline(li)}`)
          .join('\n'),
      ].filter((t) => t !== '');
    case 'table':
      return [tableOf(e)];
    case 'div':
    case 'section':
    case 'article':
    case 'aside':
    case 'details':
    case 'summary':
    case 'figure':
    case 'nav':
    case 'header':
    case 'footer':
    case 'dl':
    case 'dd':
    case 'dt':
    case 'blockquote':
    case 'form':
    case 'fieldset':
      return blocks(e);
    default:
      return undefined;
  }
}

/** A table as a GFM table: its rows, cells as text. */
function tableOf(e: Element): string {
  const rows: string[][] = [];
  const walk = (n: Node): void => {
    if (isElement(n) && n.tagName === 'tr') {
      rows.push(
        childrenOf(n)
          .filter((c): c is Element => isElement(c) && (c.tagName === 'td' || c.tagName === 'th'))
          .map((c) => inline(c)),
      );
      return;
    }
    childrenOf(n).forEach(walk);
  };
  walk(e);
  const width = Math.max(1, ...rows.map((r) => r.length));
  const line = (cells: string[]) => `| ${Array.from({ length: width }, (_, i) => cells[i] ?? '').join(' | ')} |`;
  const [head = [], ...body] = rows;
  return [line(head), `|${' --- |'.repeat(width)}`, ...body.map(line)].join('\n');
}

/**
 * A built page as a Markdown page of the baseline at URL path `url` (`/a/b/`): its title from
 * <h1>, its content column as Markdown; undefined when the page has no content column.
 */
export function markdownFromHtml(html: string, url: string): { file: string; text: string } | undefined {
  const document = parse(html);
  const content = find(document, (e) => (attr(e, 'class') ?? '').split(/\s+/).includes('sl-markdown-content'));
  if (!content) return undefined;
  const title = find(document, (e) => e.tagName === 'h1');
  const slug = url.replace(/^\/|\/$/g, '');
  const front = [
    `title: ${JSON.stringify(title ? textOf(title).replace(/\s+/g, ' ').trim() : slug)}`,
    `slug: ${JSON.stringify(slug)}`,
  ];
  return { file: `${slug}.md`, text: `---\n${front.join('\n')}\n---\n\n${blocks(content).join('\n\n')}\n` };
}

const hasClass = (e: Element, name: string) => (attr(e, 'class') ?? '').split(/\s+/).includes(name);
const elementChildren = (n: Node): Element[] => childrenOf(n).filter(isElement);

/** Inline content as Markdown: text escaped, <code> as code spans, other elements by their content. */
function inlineMarkdown(nodes: readonly Node[]): string {
  return nodes
    .map((n) => {
      if (n.nodeName === '#text') return escapeText((n as DefaultTreeAdapterMap['textNode']).value);
      if (!isElement(n)) return '';
      return n.tagName === 'code' ? codeSpan(textOf(n)) : inlineMarkdown(childrenOf(n));
    })
    .join('')
    .trim();
}

/**
 * A payload block's text with the language it is fenced in: `json` for JSON as the page prints it (two-space
 * indentation), `text` for a plain string.
 */
function payloadPart(title: string, pre: Element | undefined, highlighted: boolean): BaselineExample['parts'][number] {
  const text = pre ? textOf(pre) : '';
  let json = false;
  try {
    json = JSON.stringify(JSON.parse(text), null, 2) === text;
  } catch {
    // a plain string
  }
  return { title, text, lang: json ? 'json' : 'text', highlighted };
}

/** One recorded call's blocks: shown ones (`.example-block`) and folded ones (`details.example-more`), in order. */
function callParts(call: Element): BaselineExample['parts'] {
  return elementChildren(call).flatMap((e) => {
    const pre = find(e, (x) => x.tagName === 'pre');
    if (hasClass(e, 'example-block')) {
      const title = find(e, (x) => hasClass(x, 'example-block-title'));
      return [payloadPart(title ? textOf(title).replace(/\s+/g, ' ').trim() : '', pre, true)];
    }
    if (e.tagName === 'details' && hasClass(e, 'example-more')) {
      const summary = find(e, (x) => x.tagName === 'summary');
      return [payloadPart(summary ? textOf(summary).replace(/\s+/g, ' ').trim() : '', pre, false)];
    }
    return [];
  });
}

/**
 * The recorded calls a built tool page shows (its `section.example` elements, src/components/Examples.astro): per
 * scenario its outcome, description and configuration, and each call's blocks in order, as the page prints them.
 */
export function examplesFromHtml(html: string): BaselineExample[] {
  const sections: Element[] = [];
  const walk = (n: Node): void => {
    if (isElement(n) && n.tagName === 'section' && hasClass(n, 'example')) sections.push(n);
    else childrenOf(n).forEach(walk);
  };
  walk(parse(html));
  return sections.map((section) => {
    const outcome = find(section, (e) => hasClass(e, 'example-outcome'));
    const about = elementChildren(section).find((e) => e.tagName === 'p');
    const source = about && elementChildren(about).find((e) => hasClass(e, 'example-source'));
    const configuration = source && find(source, (e) => e.tagName === 'code');
    const calls: Element[] = [];
    const collect = (n: Node): void => {
      if (isElement(n) && hasClass(n, 'example-call')) calls.push(n);
      else childrenOf(n).forEach(collect);
    };
    collect(section);
    return {
      scenario: (attr(section, 'id') ?? '').replace(/^example-/, ''),
      expect: outcome ? textOf(outcome).trim() : '',
      description: about ? inlineMarkdown(childrenOf(about).filter((c) => c !== source)) : '',
      configuration: configuration ? textOf(configuration) : '',
      parts: calls.flatMap(callParts),
    };
  });
}

/**
 * The sidebar a built page shows (Starlight's `ul.top-level`), as Starlight's `sidebar` option spells it: links with
 * their labels, groups with theirs, collapsed unless open on that page.
 */
export function sidebarFromHtml(html: string): SidebarEntry[] {
  const top = find(parse(html), (e) => e.tagName === 'ul' && hasClass(e, 'top-level'));
  if (!top) throw new Error('the page has no sidebar (ul.top-level)');
  const label = (e: Element) => textOf(e).replace(/\s+/g, ' ').trim();
  const entries = (list: Element): SidebarEntry[] =>
    elementChildren(list)
      .filter((li) => li.tagName === 'li')
      .flatMap((li): SidebarEntry[] => {
        const [first] = elementChildren(li);
        if (first?.tagName === 'a') return [{ label: label(first), link: attr(first, 'href') ?? '' }];
        if (first?.tagName !== 'details') return [];
        const summary = elementChildren(first).find((e) => e.tagName === 'summary');
        const items = elementChildren(first).find((e) => e.tagName === 'ul');
        return [
          {
            label: summary ? label(summary) : '',
            collapsed: !first.attrs.some((a) => a.name === 'open'),
            items: items ? entries(items) : [],
          },
        ];
      });
  return entries(top);
}
