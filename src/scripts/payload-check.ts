/**
 * The "Check a payload" form of a tool page, loaded only when the reader opens
 * it (PayloadCheck.astro's toggle imports this module). It starts the form's
 * worker (payload-check-worker.ts, beside this module), which loads the tool's
 * precompiled Ajv validator from beside the page, and hands it each text to
 * check: reading, validating and wording happen there, so that the page stays
 * responsive however large the text. The answer is written into the form's
 * status region, each line linking to the nearest row of the table checked
 * against. The words and the rules are in src/lib/check/payload-check-ui.ts.
 */
import type { Answer, CheckSettings, HookRecord } from '../lib/check/payload-check-ui.ts';
import type { Reply, Request } from './payload-check-worker.ts';

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className?: string,
  text?: string,
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (className) el.className = className;
  if (text !== undefined) el.textContent = text;
  return el;
}

/** Shown when an answer takes longer than this (ms). */
const SLOW = 300;

/**
 * The text goes to the worker in parts of this many characters, one task each:
 * copying 6.6 MB into a message at once blocks the page for 50–200 ms, a
 * megabyte for under 10.
 */
const PART = 1 << 20;

export function start(details: HTMLDetailsElement): void {
  if (details.dataset.ready) return;
  details.dataset.ready = 'true';
  const form = details.querySelector('form')!;
  const text = form.querySelector('textarea')!;
  const output = details.querySelector<HTMLElement>('[role="status"]')!;
  const file = details.dataset.validator ?? '';
  const settings: CheckSettings = {
    // Every row of the page: the worker keeps those of the table checked against.
    rowIds: [...document.querySelectorAll<HTMLElement>('.field-table tbody tr[id]')].map((row) => row.id),
    root: details.dataset.root ?? 'input',
    names: JSON.parse(details.dataset.names ?? '[]') as string[],
    schemaLabel: details.dataset.schemaLabel ?? 'the schema',
    hook: JSON.parse(details.dataset.hook ?? '{"names":[],"count":0}') as HookRecord,
  };
  if (details.dataset.examples) settings.examples = details.dataset.examples;
  // The hook schema's validator, like the tool's, relative to the page.
  if (settings.hook.validator !== undefined)
    settings.hook.validator = new URL(settings.hook.validator, location.href).href;
  for (const e of settings.hook.outputs?.events ?? []) e.validator = new URL(e.validator, location.href).href;
  // Relative to the page, not to this module; the worker is beside this module.
  const init: Request = { kind: 'init', validator: new URL(file, location.href).href, settings };
  const workerUrl = new URL('payload-check-worker.js', import.meta.url);

  const show = (
    valid: boolean | undefined,
    headline: string,
    notes: string[] = [],
    lines: Answer['lines'] = [],
    total?: number,
  ) => {
    const parts: HTMLElement[] = [
      element(
        'p',
        `payload-check-headline${valid === true ? ' is-valid' : valid === false ? ' is-invalid' : ''}`,
        headline,
      ),
    ];
    for (const note of notes) parts.push(element('p', 'payload-check-note', note));
    if (lines.length > 0) {
      const list = element('ul', 'payload-check-errors');
      for (const line of lines) {
        const item = element('li');
        const link = element('a');
        link.href = `#${line.anchor}`;
        link.append(element('code', undefined, line.path));
        item.append(link, ` ${line.text}`);
        list.append(item);
      }
      if (total !== undefined && total > lines.length)
        list.append(element('li', undefined, `… and ${(total - lines.length).toLocaleString('en')} more`));
      parts.push(list);
    }
    output.replaceChildren(...parts);
  };

  let worker: Worker | undefined;
  let broken: string | undefined;
  let current = 0;
  let pending = false;
  let slow: ReturnType<typeof setTimeout> | undefined;
  const settle = () => {
    pending = false;
    clearTimeout(slow);
    output.removeAttribute('aria-busy');
  };
  const spawn = () => {
    broken = undefined;
    try {
      worker = new Worker(workerUrl, { type: 'module' });
    } catch (error) {
      broken = `The checker could not start: ${String(error)}`;
      return;
    }
    worker.onmessage = ({ data }: MessageEvent<Reply>) => {
      if (data.id !== current) return;
      settle();
      if ('failed' in data) show(undefined, data.failed);
      else show(data.answer.valid, data.answer.headline, data.answer.notes, data.answer.lines, data.answer.total);
    };
    worker.onerror = (event) => {
      broken = `The checker could not run: ${event.message || 'its script did not load'}`;
      if (pending) {
        settle();
        show(undefined, broken);
      }
    };
    worker.postMessage(init);
  };
  spawn();

  details.querySelector<HTMLElement>('.payload-check-fallback')!.hidden = true;
  form.hidden = false;

  const run = () => {
    // A check still running is dropped with its worker: the reader wants the answer to this text.
    if (pending || broken) {
      worker?.terminate();
      spawn();
    }
    if (broken || !worker) {
      show(undefined, broken ?? 'The checker could not start.');
      return;
    }
    const id = ++current;
    const to = worker;
    pending = true;
    output.setAttribute('aria-busy', 'true');
    clearTimeout(slow);
    slow = setTimeout(() => show(undefined, 'Checking…'), SLOW);
    const value = text.value;
    void (async () => {
      for (let at = 0; at < value.length; at += PART) {
        // A newer check, or a new worker: this one is dropped.
        if (id !== current || to !== worker) return;
        to.postMessage({ kind: 'part', id, text: value.slice(at, at + PART) } satisfies Request);
        if (at + PART < value.length) await new Promise((resolve) => setTimeout(resolve, 0));
      }
      if (id === current && to === worker) to.postMessage({ kind: 'check', id } satisfies Request);
    })();
  };
  // The button runs the check itself rather than submitting the form: before a submit event,
  // Chromium reads every field of the form (150 ms for a 6.6 MB text, on the page's thread).
  form.querySelector('button')!.addEventListener('click', run);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    run();
  });
  text.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      run();
    }
  });
}
