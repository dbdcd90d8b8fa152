/**
 * What a hook's answer came to, said as a hook author would say it: "Refused; the model read
 * …", "Ran the original command; the rewrite was ignored", "Ran; the hook's reason was
 * dropped". Read from one recorded case (or one release's outcome of it): the kind of answer
 * the hook gave, whether the tool's side effect happened, and what the model was sent next.
 * A surprise (a crashing hook that refuses the call, an `ask` that waits for ever) is named
 * apart, so that a page can warn of it. Pure.
 */

/** What the answer came to, for a cell's marking. */
export type Verdict =
  /** The tool did not run, and the model was told so. */
  | 'refused'
  /** The tool ran (what the hook said afterwards is in `dropped` and the sentence). */
  | 'ran'
  /** A rewrite was asked for and the tool ran the input as the model gave it. */
  | 'ran-original'
  /** A rewrite was asked for and the tool ran the hook's input. */
  | 'ran-rewritten'
  /** No result reached the model: the CLI was still waiting when the run was stopped. */
  | 'waited'
  /** The CLI settled the call without running the hook. */
  | 'not-asked'
  /** The CLI ended the whole run after the answer, without sending the model the call's result. */
  | 'stopped';

export interface PlainOutcome {
  verdict: Verdict;
  /** One or two sentences, ending with a full stop. */
  sentence: string;
  /** The hook said something meant for the model, and none of it reached the model. */
  dropped: boolean;
  /** What a hook author would not expect, as a warning, when there is something. */
  surprise: string | undefined;
}

/** What plainOutcome reads of a case: its kind (`pre-deny` …), tool role, and what happened. */
export interface OutcomeFacts {
  kind: string;
  toolRole: 'shell' | 'file-write' | 'mcp';
  /** The event the hook answered, and the events whose payloads the CLI sent. */
  event: string;
  answered: readonly string[];
  /** The side effect happened; null where the case has none to observe (an MCP echo). */
  ran: boolean | null;
  modelSaw: { result: string | null; isError: boolean; otherTexts: readonly string[] };
  killedAfterSeconds: number | null;
  /** Sentences of the hook's answer (answerSentences), and which of them the model got: in the result, or beside it. */
  hookWords: readonly string[];
  /** When the CLI ended by itself without sending a result: its own last words. */
  said?: string | undefined;
}

const EXCERPT_LENGTH = 90;

/** The first line of a text, cut at a word boundary to about EXCERPT_LENGTH characters, in quotation marks. */
export function excerpt(text: string): string {
  const line =
    text
      .trim()
      .split('\n')
      .find((l) => l.trim() !== '')
      ?.trim() ?? '';
  const more = line.length > EXCERPT_LENGTH || text.trim().includes('\n');
  let cut = line.length > EXCERPT_LENGTH ? line.slice(0, EXCERPT_LENGTH) : line;
  if (line.length > EXCERPT_LENGTH) {
    const space = cut.lastIndexOf(' ');
    if (space > EXCERPT_LENGTH / 2) cut = cut.slice(0, space);
  }
  return `“${cut}${more ? ' …' : ''}”`;
}

/** `the command`, `the write`, `the call`: what a rewrite replaced, by the tool's role. */
const WHAT = { shell: 'command', 'file-write': 'input', mcp: 'input' } as const;

/** Words of the hook the model got, in the result or beside it. */
function wordsReached(f: OutcomeFacts): { inResult: boolean; beside: boolean } {
  const result = f.modelSaw.result ?? '';
  const beside = f.modelSaw.otherTexts.join('\n');
  return { inResult: f.hookWords.some((w) => result.includes(w)), beside: f.hookWords.some((w) => beside.includes(w)) };
}

const read = (f: OutcomeFacts): string =>
  f.modelSaw.result === null ? 'no result reached the model' : `the model read ${excerpt(f.modelSaw.result)}`;

/** The answer before the call, in words: `deny`, `ask`, `exit code 2` … */
const PRE_ANSWER: Readonly<Record<string, string>> = {
  'pre-deny': 'deny',
  'pre-ask': 'ask',
  'pre-exit-2': 'exit code 2',
};

/** An answer before the call: a rewrite, or else whether the call was refused or ran. */
function before(f: OutcomeFacts): PlainOutcome {
  const reached = wordsReached(f);
  const got = reached.inResult || reached.beside;
  // An MCP echo has no side effect to observe: an error result is what says it did not run.
  const ranNot = f.ran === false || (f.ran === null && f.modelSaw.isError);
  if (f.kind === 'pre-rewrite') return rewritten(f, ranNot);
  return ranNot ? refusedBefore(f, got) : ranBefore(f, got);
}

/** A rewrite: the rewritten input ran, or the original one (the rewrite ignored), or nothing. */
function rewritten(f: OutcomeFacts, ranNot: boolean): PlainOutcome {
  if (ranNot && !f.modelSaw.isError && f.modelSaw.result !== null)
    return {
      verdict: 'ran-original',
      sentence: `Ran the original ${WHAT[f.toolRole]}; the rewrite was ignored: ${read(f)}.`,
      dropped: false,
      surprise: `The rewrite was ignored and the ${WHAT[f.toolRole]} the model gave ran instead.`,
    };
  if (ranNot) return { verdict: 'refused', sentence: `Refused; ${read(f)}.`, dropped: false, surprise: undefined };
  return {
    verdict: 'ran-rewritten',
    sentence: `Ran the rewritten ${WHAT[f.toolRole]}: ${read(f)}.`,
    dropped: false,
    surprise: undefined,
  };
}

/** The call did not run: a surprise when the hook did not mean to refuse it (it crashed, was slow, or malformed). */
function refusedBefore(f: OutcomeFacts, got: boolean): PlainOutcome {
  const surprise =
    f.kind === 'pre-crash'
      ? 'A hook that crashes refuses the call.'
      : f.kind === 'pre-timeout'
        ? 'A hook that outlives its time limit refuses the call.'
        : f.kind === 'pre-malformed'
          ? 'A hook whose answer is not valid refuses the call.'
          : undefined;
  const words = f.hookWords.length === 0 || got ? '' : ", without the hook's words";
  return {
    verdict: 'refused',
    sentence: `Refused${words}; ${read(f)}.`,
    dropped: f.hookWords.length > 0 && !got && f.kind !== 'pre-crash',
    surprise,
  };
}

/** The call ran: a surprise when the hook refused it, or when a crash's output reached the model. */
function ranBefore(f: OutcomeFacts, got: boolean): PlainOutcome {
  const ignored = PRE_ANSWER[f.kind];
  if (ignored !== undefined) {
    return {
      verdict: 'ran',
      sentence: `Ran anyway: the hook's ${ignored} was not obeyed; ${read(f)}.`,
      dropped: !got && f.hookWords.length > 0,
      surprise: `A hook's ${ignored} before the call does not stop it.`,
    };
  }
  if (f.kind === 'pre-crash') {
    return got
      ? {
          verdict: 'ran',
          sentence: `Ran; the crashed hook's error output reached the model: ${read(f)}.`,
          dropped: false,
          surprise: "A crashed hook's error output (its stack trace) reaches the model.",
        }
      : { verdict: 'ran', sentence: `Ran; the crash was ignored: ${read(f)}.`, dropped: false, surprise: undefined };
  }
  const why =
    f.kind === 'pre-malformed'
      ? '; the malformed answer was ignored'
      : f.kind === 'pre-timeout'
        ? '; the slow hook did not stop it'
        : '';
  return { verdict: 'ran', sentence: `Ran${why}: ${read(f)}.`, dropped: false, surprise: undefined };
}

/** What the hook said after the call, as the sentence names it. */
const POST_WORDS: Readonly<Record<string, string>> = {
  'post-block': 'reason',
  'post-context': 'context',
  'failure-context': 'context',
  'post-exit-2': 'standard error',
  'post-replace': 'replacement',
};

function after(f: OutcomeFacts): PlainOutcome {
  const reached = wordsReached(f);
  const what = POST_WORDS[f.kind] ?? 'words';
  const ran = f.kind === 'failure-context' ? 'Failed' : 'Ran';
  const errorNote = f.modelSaw.isError && f.kind !== 'failure-context' ? ' (marked as an error)' : '';
  if (f.kind === 'post-replace') {
    return reached.inResult
      ? {
          verdict: 'ran',
          sentence:
            `${ran}; the model read the hook's replacement instead of the output${errorNote}: ` +
            `${excerpt(f.modelSaw.result ?? '')}.`,
          dropped: false,
          surprise: undefined,
        }
      : {
          verdict: 'ran',
          sentence: `${ran}; the replacement was ignored: ${read(f)}.`,
          dropped: true,
          surprise: "The hook's replacement output was ignored.",
        };
  }
  if (reached.beside)
    return {
      verdict: 'ran',
      sentence: `${ran}; the model read the result${errorNote} and, beside it, the hook's ${what}.`,
      dropped: false,
      surprise: undefined,
    };
  if (reached.inResult) {
    // The hook's words in the result: in place of the output, or added to it.
    const instead = f.hookWords.some((w) => w.trim() === f.modelSaw.result?.trim());
    return instead
      ? {
          verdict: 'ran',
          sentence:
            `${ran}; the model read the hook's ${what} instead of the output${errorNote}: ` +
            `${excerpt(f.modelSaw.result ?? '')}.`,
          dropped: false,
          surprise: undefined,
        }
      : {
          verdict: 'ran',
          sentence:
            `${ran}; the model read the output with the hook's ${what} added${errorNote}: ` +
            `${excerpt(f.modelSaw.result ?? '')}.`,
          dropped: false,
          surprise: undefined,
        };
  }
  if (f.hookWords.length === 0)
    return { verdict: 'ran', sentence: `${ran}: ${read(f)}.`, dropped: false, surprise: undefined };
  return {
    verdict: 'ran',
    sentence: `${ran}; the hook's ${what} was dropped: ${read(f)}.`,
    dropped: true,
    surprise: `The hook's ${what} after the call does not reach the model.`,
  };
}

/** What the outcome says of a run the CLI ended without sending the model a result. */
const STOPPED_BEFORE_RESULT =
  'Stopped the run: the tool did not run, and the CLI ended without sending the model a result';
const RAN_WITHOUT_RESULT = 'Ran; then the CLI ended the run without sending the model the result';

/** A case's outcome in a hook author's words. */
export function plainOutcome(f: OutcomeFacts): PlainOutcome {
  if (f.killedAfterSeconds !== null) {
    return {
      verdict: 'waited',
      sentence: `Waited: no result reached the model, and the CLI was still waiting after ${f.killedAfterSeconds} s.`,
      dropped: false,
      surprise: f.kind === 'pre-ask' ? '`ask` waits for ever when no one can be asked.' : 'The CLI waited for ever.',
    };
  }
  if (!f.answered.includes(f.event)) {
    const ranNot = f.ran === false || (f.ran === null && f.modelSaw.isError);
    return ranNot
      ? {
          verdict: 'not-asked',
          sentence: `Refused before the hook was asked; ${read(f)}.`,
          dropped: false,
          surprise: undefined,
        }
      : {
          verdict: 'not-asked',
          sentence: `${f.kind.startsWith('pre-') ? 'Ran' : 'The call ended'} without asking the hook; ${read(f)}.`,
          dropped: false,
          surprise: f.kind.startsWith('failure-')
            ? 'The hook for failed calls was not run for this failure.'
            : undefined,
        };
  }
  if (f.modelSaw.result === null) {
    // The CLI ended by itself without sending the call's result: the answer stopped the whole run.
    const ranNot = f.ran === false || (f.ran === null && f.kind.startsWith('pre-'));
    return {
      verdict: 'stopped',
      sentence:
        `${ranNot ? STOPPED_BEFORE_RESULT : RAN_WITHOUT_RESULT}` +
        `${f.said === undefined ? '' : `; it said ${excerpt(f.said)}`}.`,
      dropped: f.hookWords.length > 0,
      surprise: 'The answer ended the whole run: the model was never told what happened to the call.',
    };
  }
  return f.kind.startsWith('pre-') ? before(f) : after(f);
}

/** What the hook said after a call, by kind, as a clause names it. */
const SPOKEN: Readonly<Record<string, string>> = {
  'post-block': 'reason for blocking',
  'post-context': 'added context',
  'post-replace': 'replacement output',
  'post-exit-2': 'standard error (exit 2)',
  'failure-context': 'context for a failure',
};

/**
 * An outcome in short: `clause` for a rule of thumb (`refused, and the model reads the hook's
 * reason`), `mark` in two or three words for a comparison grid's cell (`refused, reason read`).
 */
export function outcomeTerms(
  kind: string,
  plain: PlainOutcome,
  hookWordsReached: boolean,
): { clause: string; mark: string } {
  const terms = (clause: string, mark: string) => ({ clause, mark });
  switch (plain.verdict) {
    case 'refused':
      if (hookWordsReached) return terms("refused, and the model reads the hook's reason", 'refused, reason read');
      return plain.dropped
        ? terms("refused, but the model does not read the hook's words", 'refused, reason lost')
        : terms('refused', 'refused');
    case 'ran-rewritten':
      return terms('the rewritten input runs', 'rewrite ran');
    case 'ran-original':
      return terms('the original input runs: the rewrite is ignored', 'original ran');
    case 'waited':
      return terms('the CLI waits for ever', 'waits for ever');
    case 'not-asked':
      return terms('the CLI refuses before it asks the hook', 'hook not asked');
    case 'stopped':
      return terms('the CLI ends the whole run, and the model is never told', 'run ended');
    case 'ran':
      if (kind in SPOKEN)
        return terms(
          `the model ${plain.dropped ? 'never reads' : 'reads'} the hook's ${SPOKEN[kind]}`,
          plain.dropped ? 'words dropped' : 'words read',
        );
      return kind === 'pre-allow' || kind === 'pre-silent'
        ? terms('the call runs', 'ran')
        : terms('the call runs anyway', 'ran anyway');
  }
}
