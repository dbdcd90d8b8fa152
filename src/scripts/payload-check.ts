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
  // Relative to the page, not to this module; the worker is beside this module.
  const init: Request = {
    kind: 'init',
    validator: new URL(details.dataset.validator ?? '', location.href).href,
    settings: readSettings(details),
  };
  const checker = new Checker(output, init, new URL('payload-check-worker.js', import.meta.url));

  details.querySelector<HTMLElement>('.payload-check-fallback')!.hidden = true;
  form.hidden = false;

  const run = () => checker.run(text.value);
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

/** What the page says of the tool and its hooks, read from the form's data attributes. */
function readSettings(details: HTMLDetailsElement): CheckSettings {
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
  return settings;
}

/** Writes an answer into the status region: its headline, its notes, and its lines linking to their rows. */
function show(
  output: HTMLElement,
  valid: boolean | undefined,
  headline: string,
  notes: string[] = [],
  lines: Answer['lines'] = [],
  total?: number,
): void {
  const parts: HTMLElement[] = [
    element(
      'p',
      `payload-check-headline${valid === true ? ' is-valid' : valid === false ? ' is-invalid' : ''}`,
      headline,
    ),
  ];
  for (const note of notes) parts.push(element('p', 'payload-check-note', note));
  if (lines.length > 0) parts.push(errorList(lines, total));
  output.replaceChildren(...parts);
}

/** The error lines, each linking to the nearest row, and how many more there are when not all are listed. */
function errorList(lines: Answer['lines'], total: number | undefined): HTMLElement {
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
  return list;
}

/**
 * The form's worker and the check it runs. Each check has a number: a reply to an older check is
 * dropped, and so is a check still being sent when a newer one starts or its worker is replaced.
 */
class Checker {
  readonly output: HTMLElement;
  readonly init: Request;
  readonly workerUrl: URL;
  worker: Worker | undefined;
  /** Why the checker cannot run, once its worker failed to start or to load. */
  broken: string | undefined;
  current = 0;
  pending = false;
  slow: ReturnType<typeof setTimeout> | undefined;

  constructor(output: HTMLElement, init: Request, workerUrl: URL) {
    this.output = output;
    this.init = init;
    this.workerUrl = workerUrl;
    this.spawn();
  }

  /** The check asked for is answered (or failed): no longer busy. */
  settle(): void {
    this.pending = false;
    clearTimeout(this.slow);
    this.output.removeAttribute('aria-busy');
  }

  /** A new worker, given the validator and the settings. */
  spawn(): void {
    this.broken = undefined;
    let worker: Worker;
    try {
      worker = new Worker(this.workerUrl, { type: 'module' });
    } catch (error) {
      this.broken = `The checker could not start: ${String(error)}`;
      return;
    }
    this.worker = worker;
    worker.onmessage = ({ data }: MessageEvent<Reply>) => this.reply(data);
    worker.onerror = (event) => {
      this.broken = `The checker could not run: ${event.message || 'its script did not load'}`;
      if (this.pending) {
        this.settle();
        show(this.output, undefined, this.broken);
      }
    };
    worker.postMessage(this.init);
  }

  /** The worker's answer, shown when it is to the latest check. */
  reply(data: Reply): void {
    if (data.id !== this.current) return;
    this.settle();
    if ('failed' in data) show(this.output, undefined, data.failed);
    else {
      const { valid, headline, notes, lines, total } = data.answer;
      show(this.output, valid, headline, notes, lines, total);
    }
  }

  /** Checks a text, dropping any check still running. */
  run(value: string): void {
    // A check still running is dropped with its worker: the reader wants the answer to this text.
    if (this.pending || this.broken) {
      this.worker?.terminate();
      this.spawn();
    }
    if (this.broken || !this.worker) {
      show(this.output, undefined, this.broken ?? 'The checker could not start.');
      return;
    }
    const id = ++this.current;
    this.pending = true;
    this.output.setAttribute('aria-busy', 'true');
    clearTimeout(this.slow);
    this.slow = setTimeout(() => show(this.output, undefined, 'Checking…'), SLOW);
    void this.send(id, this.worker, value);
  }

  /** Sends the text in parts, one task each, then asks for the check. */
  async send(id: number, to: Worker, value: string): Promise<void> {
    for (let at = 0; at < value.length; at += PART) {
      // A newer check, or a new worker: this one is dropped.
      if (id !== this.current || to !== this.worker) return;
      to.postMessage({ kind: 'part', id, text: value.slice(at, at + PART) } satisfies Request);
      if (at + PART < value.length) await new Promise((resolve) => setTimeout(resolve, 0));
    }
    if (id === this.current && to === this.worker) to.postMessage({ kind: 'check', id } satisfies Request);
  }
}
