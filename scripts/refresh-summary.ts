/**
 * npm run refresh:summary — after `npm run refresh`, prints Markdown saying what moved
 * (the body of the refresh workflow's pull request): per agent, the releases its
 * histories newly cover and the changes credited to them, comparing content/history/
 * of the working tree with the last commit (`git show HEAD:…`), then `git diff --stat HEAD`
 * and the new files. Logic: scripts/lib/refresh/summary.ts.
 *
 *   node scripts/refresh-summary.ts [--out FILE] [--base REV]
 *
 *   --out   write the Markdown to FILE instead of standard output
 *   --base  compare with this commit instead of HEAD
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { AGENT_PRODUCTS } from '../src/lib/agents/index.ts';
import type { HistoryFile } from '../src/lib/core/content-types.ts';
import { refreshSummary } from './lib/refresh/summary.ts';

const ROOT = join(import.meta.dirname, '..');
const HISTORY = 'content/history';

function git(args: string[]): { ok: boolean; stdout: string; stderr: string } {
  const result = spawnSync('git', args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (result.error) throw new Error(`git ${args[0]}: ${result.error.message}`);
  return { ok: result.status === 0, stdout: result.stdout, stderr: result.stderr };
}

function main(argv: string[]): void {
  const { values } = parseArgs({
    args: argv,
    options: { out: { type: 'string' }, base: { type: 'string', default: 'HEAD' } },
    strict: true,
    allowPositionals: false,
  });
  const base = values.base;
  if (!git(['rev-parse', '--verify', '--quiet', `${base}^{commit}`]).ok)
    throw new Error(`no commit ${base} to compare with`);

  const names = readdirSync(join(ROOT, HISTORY))
    .filter((f) => f.endsWith('.json'))
    .sort();
  const after = names.map((f) => JSON.parse(readFileSync(join(ROOT, HISTORY, f), 'utf8')) as HistoryFile);
  const before = names.flatMap((f) => {
    const shown = git(['show', `${base}:${HISTORY}/${f}`]);
    return shown.ok ? [JSON.parse(shown.stdout) as HistoryFile] : []; // a history file new since the last commit
  });
  const stat = git(['diff', '--stat', base]).stdout.trimEnd();
  const untracked = git(['ls-files', '--others', '--exclude-standard']).stdout.split('\n').filter(Boolean);
  const diffStat = [
    stat,
    ...(untracked.length > 0
      ? ['', `${untracked.length} new file${untracked.length === 1 ? '' : 's'}:`, ...untracked.map((f) => ` ${f}`)]
      : []),
  ].join('\n');
  const markdown = refreshSummary({ before, after, products: AGENT_PRODUCTS, diffStat });
  if (values.out) writeFileSync(values.out, markdown);
  else process.stdout.write(markdown);
}

try {
  main(process.argv.slice(2));
} catch (error) {
  console.error(`refresh-summary: ${(error as Error).message}`);
  process.exit(1);
}
