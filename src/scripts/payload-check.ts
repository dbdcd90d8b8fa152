/**
 * The "Check a payload" form of a tool page, loaded only when the reader opens
 * it (PayloadCheck.astro's toggle imports this module). Loads the tool's
 * precompiled Ajv validator from beside the page, reads the pasted JSON (a hook
 * payload's `tool_input` is what gets checked) and writes the verdict into the
 * form's status region, each error linking to the nearest row of the table
 * checked against. The words and the row choice are in src/lib/payload-check-ui.ts.
 */
import { rowSteps } from '../lib/anchors.ts';
import type { ValidationError } from '../lib/error-rows.ts';
import { errorLines, readPayload, topLevelFields, verdict } from '../lib/payload-check-ui.ts';

interface Validator {
  (value: unknown): boolean;
  errors?: ValidationError[] | null;
}

/** At most this many errors are listed; the headline gives the count. */
const MAX_LINES = 50;

function element<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, text?: string): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (className) el.className = className;
  if (text !== undefined) el.textContent = text;
  return el;
}

export function start(details: HTMLDetailsElement): void {
  if (details.dataset.ready) return;
  details.dataset.ready = 'true';
  const form = details.querySelector('form')!;
  const text = form.querySelector('textarea')!;
  const output = details.querySelector<HTMLElement>('[role="status"]')!;
  const root = details.dataset.root ?? 'input';
  const names = JSON.parse(details.dataset.names ?? '[]') as string[];
  const schemaLabel = details.dataset.schemaLabel ?? 'the schema';
  const file = details.dataset.validator ?? '';
  // The rows of the table checked against, in page order: `input.command`, `model-input:1.x`…
  const rowIds = [...document.querySelectorAll<HTMLElement>('tr.field-row[id]')]
    .map((row) => row.id)
    .filter((id) => rowSteps(id, root) !== undefined);
  const ownFields = topLevelFields(rowIds, root);
  // Relative to the page, not to this module.
  const validator: Promise<Validator> = import(/* @vite-ignore */ new URL(file, location.href).href).then((m: { default: Validator }) => m.default);
  validator.catch(() => {}); // reported when the reader checks

  details.querySelector<HTMLElement>('.payload-check-fallback')!.hidden = true;
  form.hidden = false;

  const show = (valid: boolean | undefined, headline: string, notes: string[], lines: ReturnType<typeof errorLines> = []) => {
    const parts: HTMLElement[] = [element('p', `payload-check-headline${valid === true ? ' is-valid' : valid === false ? ' is-invalid' : ''}`, headline)];
    for (const note of notes) parts.push(element('p', 'payload-check-note', note));
    if (lines.length > 0) {
      const list = element('ul', 'payload-check-errors');
      for (const line of lines.slice(0, MAX_LINES)) {
        const item = element('li');
        const link = element('a');
        link.href = `#${line.anchor}`;
        link.append(element('code', undefined, line.path));
        item.append(link, ` ${line.text}`);
        list.append(item);
      }
      if (lines.length > MAX_LINES) list.append(element('li', undefined, `… and ${lines.length - MAX_LINES} more`));
      parts.push(list);
    }
    output.replaceChildren(...parts);
  };

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const payload = readPayload(text.value, ownFields);
    if (payload.kind === 'empty' || payload.kind === 'not-json') {
      const v = verdict(payload, undefined, schemaLabel, names);
      show(v.valid, v.headline, v.notes);
      return;
    }
    validator.then(
      (validate) => {
        const valid = validate(payload.value);
        const lines = valid ? [] : errorLines(validate.errors ?? [], payload.value, rowIds, root);
        const v = verdict(payload, { valid, errorCount: lines.length }, schemaLabel, names);
        show(v.valid, v.headline, v.notes, lines);
      },
      (error: unknown) => show(undefined, `The validator (${file}) could not be loaded: ${String(error)}`, []),
    );
  });
  text.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      form.requestSubmit();
    }
  });
}
