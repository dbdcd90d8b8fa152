// The hook of `npm run hook-behaviour`: the agent runs it for every hook event. It logs
// the payload exactly as the payload runs' hook does (scripts/lib/payloads/drivers.ts),
// then, for the one event (and tool) the case names, answers as the case says: standard
// output, standard error, a delay, an exit code, or a crash. Every other event gets the
// silent exit 0 of the logging hook. Plain JavaScript, no imports but node's: the CLI
// runs it as `node answer-hook.mjs <hook log> <answer file> [event]`.
//
// The answer file: { event, eventField?, toolField?, tool?, stdout?, stderr?, exitCode?,
// sleepSeconds?, crash? }. A tagged configuration passes the event as the third argument
// (agents whose payloads do not name their event); else it is read from `eventField`.
import { appendFileSync, readFileSync } from 'node:fs';

const [log, answerFile, taggedEvent] = process.argv.slice(2);
const input = readFileSync(0, 'utf8');
const answer = JSON.parse(readFileSync(answerFile, 'utf8'));

function member(value, path) {
  let v = value;
  for (const key of String(path).split('.')) {
    if (v === null || typeof v !== 'object' || !Object.hasOwn(v, key)) return undefined;
    v = v[key];
  }
  return v;
}

let payload;
try {
  payload = JSON.parse(input);
} catch {
  payload = undefined;
}
const event = taggedEvent ?? (answer.eventField ? member(payload, answer.eventField) : undefined);
const tool = answer.toolField ? member(payload, answer.toolField) : undefined;
const answers = event === answer.event && (answer.tool === undefined || tool === answer.tool);

const tag = taggedEvent === undefined ? '' : JSON.stringify({ $hookEvent: taggedEvent }) + '\x1e';
appendFileSync(log, tag + input + '\x1e');
if (answers) {
  appendFileSync(log + '.answered', `${event}\n`);
  if (answer.sleepSeconds) await new Promise((resolve) => setTimeout(resolve, answer.sleepSeconds * 1000));
  if (answer.stdout) process.stdout.write(answer.stdout);
  if (answer.stderr) process.stderr.write(answer.stderr);
  if (answer.crash) throw new Error(answer.crash);
  process.exitCode = answer.exitCode ?? 0;
}
