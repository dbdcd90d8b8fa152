/**
 * The benchmark's command line: `--runs N` (builds of each site, interleaved),
 * `--lighthouse-runs N` (Lighthouse runs of each page, interleaved; medians),
 * `--page /path/` (also measure this page; repeatable), `--before REV` (also
 * build this project at an earlier git revision, or `none`), `--json FILE`
 * (also write the rows as JSON) and `--keep` (leave the temp folder). Pure:
 * arguments in, options or a message out.
 */

export interface BenchArgs {
  /** How many times each site is built; the builds alternate site, baseline, site, … */
  runs: number;
  /** How many times Lighthouse scores each page of each site; the table shows the medians. */
  lighthouseRuns: number;
  /** Pages measured besides the chosen ones: site paths such as `/claude-code/bash/`. */
  pages: string[];
  /** Where to write the JSON report, as given (relative to the working directory). */
  json?: string;
  keep: boolean;
  /**
   * A git revision of this project to build beside the checkout, for build time before and
   * after a change; null: none. `explicit` is false for the default, which a clone without
   * that commit skips instead of failing.
   */
  before: { revision: string; explicit: boolean } | null;
}

export const BENCH_USAGE =
  'npm run bench [-- --runs N] [--lighthouse-runs N] [--page /path/]... [--before REV|none] [--json FILE] [--keep]';

/**
 * The revision built beside the checkout when `--before` is not given: the last commit before
 * the release histories grew back to each tool's first release (645 history events, against
 * 2,748 at 896acb5), so that the build time of the larger history is reported against it.
 */
export const DEFAULT_BEFORE = 'd700cbecd129542dcf6acb169bff6c23d34a44e9';

/** A git revision as `git rev-parse` takes it (a commit, tag, branch, `HEAD~3`), never an option. */
const REVISION = /^[A-Za-z0-9][A-Za-z0-9._/~^-]{0,199}$/;

/** Lighthouse runs per page when none is asked for: one run moves by hundreds of milliseconds of blocking time. */
export const DEFAULT_LIGHTHOUSE_RUNS = 3;

/** A site path: absolute, ending in a slash (the site's trailingSlash), no query, fragment, `..` or scheme. */
const PAGE = /^\/(?:[A-Za-z0-9_.~-]+\/)*$/;

/** A whole number of runs, written in digits: 1, 3, 10 (not 0, 2.5, 1e1 or 03). */
const RUNS = /^[1-9][0-9]{0,3}$/;

/** The value an error names, when the option had one. */
const given = (value: string | undefined) => (value === undefined ? '' : `, not "${value}"`);

/** Parses `argv`; an error is a message for the caller to print (the first problem found). */
export function parseBenchArgs(argv: readonly string[]): BenchArgs | { help: string } | { error: string } {
  const options: BenchArgs = {
    runs: 1,
    lighthouseRuns: DEFAULT_LIGHTHOUSE_RUNS,
    pages: [],
    keep: false,
    before: { revision: DEFAULT_BEFORE, explicit: false },
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [name, inline] =
      arg.startsWith('--') && arg.includes('=')
        ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
        : [arg, undefined];
    // A value is the next argument (or the part after `=`), never another option.
    const value = (): string | undefined => {
      if (inline !== undefined) return inline === '' ? undefined : inline;
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--')) return undefined;
      i++;
      return next;
    };
    if (name === '--runs') {
      const v = value();
      if (v === undefined || !RUNS.test(v))
        return {
          error: `--runs needs a whole number of builds from 1 to 9999${given(v)}`,
        };
      options.runs = Number(v);
    } else if (name === '--lighthouse-runs') {
      const v = value();
      if (v === undefined || !RUNS.test(v))
        return {
          error: `--lighthouse-runs needs a whole number of runs from 1 to 9999${given(v)}`,
        };
      options.lighthouseRuns = Number(v);
    } else if (name === '--page') {
      const v = value();
      if (v === undefined || !PAGE.test(v) || v.split('/').some((part) => part === '.' || part === '..'))
        return { error: `--page needs a site path such as /agent/tool/${given(v)}` };
      if (!options.pages.includes(v)) options.pages.push(v);
    } else if (name === '--before') {
      const v = value();
      if (v === undefined || !REVISION.test(v) || v.includes('..'))
        return {
          error: `--before needs a git revision (a commit, tag or branch) or none${given(v)}`,
        };
      options.before = v === 'none' ? null : { revision: v, explicit: true };
    } else if (name === '--json') {
      const v = value();
      if (v === undefined) return { error: '--json needs a file name' };
      options.json = v;
    } else if (arg === '--keep') options.keep = true;
    else if (arg === '--help' || arg === '-h') return { help: `usage: ${BENCH_USAGE}` };
    else return { error: `unknown argument ${arg}\nusage: ${BENCH_USAGE}` };
  }
  return options;
}
