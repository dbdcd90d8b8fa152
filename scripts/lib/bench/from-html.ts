/**
 * The pages of the built site that the baseline's Markdown renderers (./markdown.ts) do
 * not write — changelogs, hooks and permissions pages, job pages, removed tools, … — as
 * Markdown read from the built page itself: the title and the content column
 * (Starlight's `.sl-markdown-content`), with headings, paragraphs, lists, tables and code
 * kept and every other element reduced to its text. So the baseline builds the same set
 * of pages with the same words, and the build-time ratio compares like with like.
 */
import { parse, type DefaultTreeAdapterMap } from 'parse5';
import { escapeText } from './markdown.ts';

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
