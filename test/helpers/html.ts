/** Reading built pages with parse5, as the e2e tests do without the site's code: every element, text, attributes. */
import { parse } from 'parse5';
import type { DefaultTreeAdapterMap } from 'parse5';

export type Element = DefaultTreeAdapterMap['element'];
export type Node = DefaultTreeAdapterMap['node'];

/** Every element of a page, in document order (each keeps its parentNode). */
export function elements(html: string): Element[] {
  const out: Element[] = [];
  const walk = (node: Node): void => {
    if ('tagName' in node) out.push(node as Element);
    for (const child of 'childNodes' in node ? node.childNodes : []) walk(child as Node);
  };
  walk(parse(html) as unknown as Node);
  return out;
}

/** The text of a node and everything under it. */
export const textOf = (node: Node): string =>
  'value' in node && node.nodeName === '#text'
    ? String(node.value)
    : 'childNodes' in node
      ? node.childNodes.map((c) => textOf(c as Node)).join('')
      : '';

export const attr = (el: Element, name: string): string | undefined => el.attrs.find((a) => a.name === name)?.value;
