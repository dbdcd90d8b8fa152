/**
 * The worker of a tool page's "Check a payload" form: reads, validates and
 * words a pasted text off the page's main thread, so that a payload of
 * megabytes never blocks the page (JSON.parse alone takes about half a second
 * on 6.6 MB with 400,000 keys). Started by src/scripts/payload-check.ts when
 * the reader opens the form, at the URL pages/payload-check/[...module].ts
 * serves it from; it loads the tool's precompiled validator at once. The rules
 * and the words are in src/lib/check/payload-check-ui.ts.
 */
import { rowSteps } from '../lib/shapes/anchors.ts';
import {
  answer,
  outputAnswer,
  readPayload,
  topLevelFields,
  type Answer,
  type OutputVerdict,
  type CheckSettings,
  type EnvelopeCheck,
  type Validator,
  type Validators,
} from '../lib/check/payload-check-ui.ts';

/**
 * From the page: first the settings and the validator's URL, then per check
 * the text in parts (each its own message, so that the page is never blocked
 * copying megabytes) and the order to check them.
 */
export type Request =
  | { kind: 'init'; validator: string; settings: CheckSettings }
  | { kind: 'part'; id: number; text: string }
  | { kind: 'check'; id: number };
/** To the page, per check. */
export type Reply = { id: number; answer: Answer } | { id: number; failed: string };

interface WorkerScope {
  onmessage: ((event: MessageEvent<Request>) => void) | null;
  postMessage(message: Reply): void;
}
const scope = globalThis as unknown as WorkerScope;

let settings: CheckSettings | undefined;
let ownFields: Set<string> = new Set();
let validators: Promise<Validators> | undefined;
let validatorUrl = '';
/** The tool's hook schema validator (validate-hooks.js), when hook payloads of it are recorded. */
let hookValidator: Promise<Validator> | undefined;
/** The parts received of the check in progress. */
let parts: { id: number; texts: string[] } = { id: 0, texts: [] };

function check(id: number, text: string): void {
  if (!settings || !validators) throw new Error('the checker was not set up');
  const payload = readPayload(
    text,
    ownFields,
    settings.hook.fields ? [settings.hook.fields, ...(settings.hook.otherFields ?? [])] : undefined,
    settings.hook.outputs,
  );
  if (payload.kind === 'hook-output') {
    checkOutput(id, payload.value, payload.event);
    return;
  }
  if (payload.kind !== 'input' && payload.kind !== 'hook') {
    scope.postMessage({ id, answer: answer(payload, settings, undefined, text.length) });
    return;
  }
  const here = settings;
  // A hook payload: every member is checked against the tool's hook schema too.
  const envelope: Promise<EnvelopeCheck | undefined> =
    payload.kind === 'hook' && hookValidator
      ? hookValidator.then(
          (validate) =>
            validate(payload.envelope) ? { valid: true, errors: [] } : { valid: false, errors: validate.errors ?? [] },
          (error: unknown) => ({
            failed: `The hook schema's validator (${here.hook.validator ?? ''}) could not be loaded: ${String(error)}`,
          }),
        )
      : Promise.resolve(undefined);
  Promise.all([validators, envelope]).then(
    ([v, e]) => scope.postMessage({ id, answer: answer(payload, here, v, text.length, e) }),
    (error: unknown) =>
      scope.postMessage({
        id,
        failed: `The validator (${new URL(validatorUrl).pathname}) could not be loaded: ${String(error)}`,
      }),
  );
}

/** Output validators by URL, loaded when an answer of their event is first checked. */
const outputValidators = new Map<string, Promise<Validator>>();

/** A hook's answer: against the schema of the event it names, else of each tool-call event in turn. */
function checkOutput(id: number, value: unknown, named: string | undefined): void {
  const outputs = settings?.hook.outputs;
  if (!outputs) throw new Error('the checker has no hook output schemas');
  const events = outputs.events.filter((e) => named === undefined || e.event === named);
  const load = (url: string): Promise<Validator> => {
    const known =
      outputValidators.get(url) ?? import(/* @vite-ignore */ url).then((m: { validate: Validator }) => m.validate);
    outputValidators.set(url, known);
    return known;
  };
  Promise.all(
    events.map((e) =>
      load(e.validator).then((validate): OutputVerdict => {
        const valid = validate(value);
        return { event: e.event, valid, errors: valid ? [] : (validate.errors ?? []) };
      }),
    ),
  ).then(
    (verdicts) => scope.postMessage({ id, answer: outputAnswer(verdicts, outputs, named) }),
    (error: unknown) =>
      scope.postMessage({ id, failed: `A hook output validator could not be loaded: ${String(error)}` }),
  );
}

scope.onmessage = ({ data }) => {
  if (data.kind === 'init') {
    const { root } = data.settings;
    // Only the rows of the table checked against: `input.command`, `model-input:1.x`…
    const rowIds = data.settings.rowIds.filter((id) => rowSteps(id, root) !== undefined);
    settings = { ...data.settings, rowIds };
    ownFields = topLevelFields(rowIds, root);
    validatorUrl = data.validator;
    validators = import(/* @vite-ignore */ data.validator).then(
      (m: { validate: Validator; validateFirst?: Validator }) => ({
        validate: m.validate,
        validateFirst: m.validateFirst ?? m.validate,
      }),
    );
    validators.catch(() => {}); // reported when the reader checks
    const hookUrl = data.settings.hook.validator;
    hookValidator =
      hookUrl === undefined
        ? undefined
        : import(/* @vite-ignore */ hookUrl).then((m: { validate: Validator }) => m.validate);
    hookValidator?.catch(() => {});
    return;
  }
  if (data.kind === 'part') {
    if (parts.id !== data.id) parts = { id: data.id, texts: [] };
    parts.texts.push(data.text);
    return;
  }
  const text = parts.id === data.id ? parts.texts.join('') : '';
  parts = { id: 0, texts: [] };
  try {
    check(data.id, text);
  } catch (error) {
    scope.postMessage({ id: data.id, failed: `The check failed: ${String(error)}` });
  }
};
