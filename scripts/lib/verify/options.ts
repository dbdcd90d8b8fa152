/**
 * The command line of `npm run verify` (scripts/verify.ts): the sample's sizes, seed and agents, where the evidence
 * and report go, and the `--inside` run that captures one installed release in the network namespace.
 */
import { resolve } from 'node:path';
import { AGENT_IDS, isAgentId, type AgentId } from '../../../src/lib/agents/index.ts';
import { randomSeed } from './sample.ts';

/** The run inside the namespace: capture these configurations of one installed release into `into`. */
export interface InsideOptions {
  agent: AgentId;
  version: string;
  binary: string;
  configurations: string[];
  into: string;
  limitFactor: number;
}

export interface Options {
  seed: number;
  seedGiven: boolean;
  events: number;
  payloads: number;
  cases: number;
  permissions: number;
  /** Pinned configurations to capture again (`agent/configuration`), compared with content/captures/. */
  captures: number;
  /** `agent/release/configuration`: check every event of that release and configuration instead of a drawn sample. */
  pick: string[];
  agents: AgentId[];
  report?: string;
  out?: string;
  minutes: number;
  /** Print the sample and stop (no root needed). */
  dryRun: boolean;
  inside?: InsideOptions;
}

const USAGE =
  'usage: node scripts/verify.ts [--seed N] [--events N] [--payloads N] [--cases N] [--permissions N] [--captures N] ' +
  '[--event ' +
  'AGENT/RELEASE/CONFIGURATION]... [--agent ID]... [--report FILE] [--out DIR] [--minutes N] [--dry-run]';

/** Says what is wrong with the command line (or the run) and exits 2. */
export function fail(message: string): never {
  console.error(`verify: ${message}`);
  process.exit(2);
}

function count(text: string, flag: string, min: number): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < min)
    fail(`${flag} needs a whole number of at least ${min}, not ${JSON.stringify(text)}`);
  return n;
}

/** Applies one flag of the outside run; says whether `flag` is one. `next` takes the flag's value. */
function outsideFlag(o: Options, flag: string, next: () => string): boolean {
  switch (flag) {
    case '--seed':
      o.seed = count(next(), flag, 0);
      o.seedGiven = true;
      return true;
    case '--events':
      o.events = count(next(), flag, 0);
      return true;
    case '--payloads':
      o.payloads = count(next(), flag, 0);
      return true;
    case '--cases':
      o.cases = count(next(), flag, 0);
      return true;
    case '--permissions':
      o.permissions = count(next(), flag, 0);
      return true;
    case '--captures':
      o.captures = count(next(), flag, 0);
      return true;
    case '--event':
      o.pick.push(next());
      return true;
    case '--minutes':
      o.minutes = count(next(), flag, 1);
      return true;
    case '--report':
      o.report = resolve(next());
      return true;
    case '--out':
      o.out = resolve(next());
      return true;
    case '--agent': {
      const v = next();
      if (!isAgentId(v)) fail(`unknown agent ${v} (${AGENT_IDS.join(', ')})`);
      o.agents.push(v);
      return true;
    }
    case '--dry-run':
      o.dryRun = true;
      return true;
    default:
      return false;
  }
}

/** The flags of the run inside the namespace, as given (checked once all are read). */
interface InsideArgs {
  inside: boolean;
  version?: string;
  binary?: string;
  into?: string;
  configurations: string[];
  limitFactor: number;
}

/** Applies one flag of the inside run; says whether `flag` is one. */
function insideFlag(args: InsideArgs, flag: string, next: () => string): boolean {
  if (flag === '--inside') args.inside = true;
  else if (flag === '--version') args.version = next();
  else if (flag === '--binary') args.binary = next();
  else if (flag === '--config') args.configurations.push(next());
  else if (flag === '--into') args.into = next();
  else if (flag === '--limit-factor') args.limitFactor = Number(next());
  else return false;
  return true;
}

function insideOptions(agents: readonly AgentId[], args: InsideArgs): InsideOptions {
  if (agents.length !== 1 || !args.version || !args.binary || !args.into)
    fail('--inside needs --agent, --version, --binary and --into');
  if (!(args.limitFactor >= 1)) fail('--limit-factor needs a number of at least 1');
  return {
    agent: agents[0]!,
    version: args.version,
    binary: args.binary,
    configurations: args.configurations,
    into: args.into,
    limitFactor: args.limitFactor,
  };
}

export function parseArgs(argv: readonly string[]): Options {
  const o: Options = {
    seed: 0,
    seedGiven: false,
    events: 20,
    payloads: 8,
    cases: 6,
    permissions: 6,
    captures: 6,
    pick: [],
    agents: [],
    minutes: 120,
    dryRun: false,
  };
  const inside: InsideArgs = { inside: false, configurations: [], limitFactor: 1 };
  const rest = [...argv];
  for (let flag = rest.shift(); flag !== undefined; flag = rest.shift()) {
    const f = flag;
    const next = (): string => rest.shift() ?? fail(`${f} needs a value`);
    if (outsideFlag(o, f, next) || insideFlag(inside, f, next)) continue;
    if (f === '--help' || f === '-h') {
      console.log(USAGE);
      process.exit(0);
    }
    fail(`unknown argument ${f}`);
  }
  if (inside.inside) o.inside = insideOptions(o.agents, inside);
  if (!o.seedGiven) o.seed = randomSeed();
  if (o.agents.length === 0) o.agents = [...AGENT_IDS];
  return o;
}
