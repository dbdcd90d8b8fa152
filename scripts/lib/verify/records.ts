/**
 * `npm run verify`'s recorded facts: a payload scenario, hook behaviour case or permission case is re-recorded by its
 * own script (`--only <key> --out <folder>`, at the pinned release), and the new file compared with the committed one
 * text for text (key order included; both went through the same masking).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { firstLines, runBounded, type Bounded } from './bounded.ts';
import { compareJsonTexts } from './compare-json.ts';
import type { VerifyRun } from './release-captures.ts';
import type { Fact } from './report.ts';

/** A recorded file `npm run verify` re-records: its `--only` key and its path under its content folder. */
export interface Rerecordable {
  key: string;
  file: string;
}

/** How one kind of recorded file is re-recorded: its script (which takes --only and --out) and its content folder. */
export interface Recorder {
  kind: Fact['kind'];
  script: string;
  content: string;
}

export const PAYLOAD_RECORDER: Recorder = {
  kind: 'payload',
  script: 'scripts/payloads.ts',
  content: 'content/payloads',
};
export const CASE_RECORDER: Recorder = {
  kind: 'hook case',
  script: 'scripts/hook-behaviour.ts',
  content: 'content/hook-behaviour',
};
/** A pinned configuration captured again (`scripts/capture.ts --only <agent/configuration> --out <folder>`). */
export const CAPTURE_RECORDER: Recorder = {
  kind: 'capture',
  script: 'scripts/capture.ts',
  content: 'content/captures',
};
export const PERMISSION_RECORDER: Recorder = {
  kind: 'permission case',
  script: 'scripts/permissions.ts',
  content: 'content/permissions',
};

/** Installing the pinned release (the first time) can take minutes; the run itself is bounded by the scenario. */
const RERECORD_MS = 25 * 60_000;

export async function verifyRecords(
  recorder: Recorder,
  sample: readonly Rerecordable[],
  run: VerifyRun,
): Promise<Fact[]> {
  const facts: Fact[] = [];
  for (const s of sample) facts.push(await recordFact(recorder, s, run));
  return facts;
}

/** One file's fact: re-recorded and compared, or why it could not be. */
async function recordFact(recorder: Recorder, s: Rerecordable, run: VerifyRun): Promise<Fact> {
  const { kind } = recorder;
  const out = join(run.folder, recorder.content.replace(/^content\//, ''));
  const committed = join(run.root, recorder.content, s.file);
  const fresh = join(out, s.file);
  const label = `${s.key} (${recorder.content}/${s.file})`;
  if (Date.now() > run.deadline) {
    const detail = 'the time budget (--minutes) was spent before this one started';
    return { kind, label, status: 'could not run', detail, evidence: [] };
  }
  console.log(`\n${kind} ${s.key}: re-recording`);
  const r = await runBounded(process.execPath, [join(run.root, recorder.script), '--only', s.key, '--out', out], {
    cwd: run.root,
    timeoutMs: RERECORD_MS,
    echo: true,
  });
  if (r.timedOut || r.status !== 0 || !existsSync(fresh)) {
    const detail = rerecordFailure(recorder, s.key, r);
    return {
      kind,
      label,
      status: 'could not run',
      detail,
      evidence: [],
      ...(r.timedOut || r.signal ? { blame: 'ours' as const } : {}),
    };
  }
  if (!existsSync(committed))
    return { kind, label, status: 'contradicted', detail: `no committed file for this ${kind}`, evidence: [fresh] };
  const c = compareJsonTexts(readFileSync(committed, 'utf8'), readFileSync(fresh, 'utf8'));
  if (c.equal)
    return {
      kind,
      label,
      status: 'confirmed',
      detail: 're-recorded file identical to the committed one',
      evidence: [fresh],
    };
  const shown = committed.startsWith(run.root + '/') ? relative(run.root, committed) : committed;
  return {
    kind,
    label,
    status: 'contradicted',
    detail: `differs at ${c.pointer}: ${c.detail}`,
    evidence: [fresh, shown],
  };
}

/** Why a re-recording failed: the script's own lines about this key (or about itself), else its first words. */
function rerecordFailure(recorder: Recorder, key: string, r: Bounded): string {
  if (r.timedOut) return `${recorder.script} did not finish within 25 minutes`;
  const script = recorder.script.replace(/^scripts\/|\.ts$/g, '');
  const said = r.stderr
    .split('\n')
    .filter((l) => l.startsWith(`- ${key}: `) || l.startsWith(`${script}: `))
    .map((l) => l.replace(/^- [^:]+: /, ''));
  return firstLines(said.length > 0 ? said.join('\n') : r.stderr || `exit ${r.status ?? r.signal}`);
}
