/**
 * The README is read in a minute: under 300 lines, with the commands that set up, serve, test and check the
 * project on its first screen; it names every npm script and says why each dependency is there (in full in
 * docs/dependencies.md); and every link of the README and of docs/ reaches a file, and a heading where it
 * names one. The facts come from package.json and the files linked, not from the README itself.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';

const ROOT = join(import.meta.dirname, '../..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const readme = read('README.md');
const pkg = JSON.parse(read('package.json')) as {
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const markdownFiles = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** The text outside fenced code blocks. */
const prose = (text: string) => text.replace(/^```[\s\S]*?^```/gm, '');

/** The anchor GitHub gives a heading: lowercase, punctuation dropped, spaces as hyphens. */
function headingSlug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

test('the README is under 300 lines, and its first screen says how to set up, serve, preview, test and check', () => {
  const lines = readme.split('\n');
  assert.ok(lines.length < 300, `README.md has ${lines.length} lines`);
  const firstScreen = lines.slice(0, 40).join('\n');
  const missing = ['npm ci', 'npm start', 'npm run preview', 'npm test', 'npm run check', 'SITE_URL', 'dist/'].filter(
    (command) => !firstScreen.includes(command),
  );
  assert.deepEqual(missing, [], 'the first 40 lines of README.md name these');
});

test('the README names every npm script of package.json', () => {
  const named = (script: string) =>
    readme.includes(`npm run ${script}`) || (['start', 'test'].includes(script) && readme.includes(`npm ${script}`));
  const missing = Object.keys(pkg.scripts).filter((script) => !named(script));
  assert.deepEqual(missing, [], 'scripts the README does not name');
  assert.ok(!named('no-such-script'), 'the check can fail');
});

test("the README's table and docs/dependencies.md say why each dependency of package.json is there", () => {
  const packages = [...Object.keys(pkg.dependencies), ...Object.keys(pkg.devDependencies)];
  const rows = (text: string) =>
    new Set(
      text
        .split('\n')
        .filter((line) => line.startsWith('| `'))
        .flatMap((line) => [...line.split('|')[1]!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!)),
    );
  for (const [path, text] of [
    ['README.md', readme],
    ['docs/dependencies.md', read('docs/dependencies.md')],
  ] as const) {
    const listed = rows(text);
    assert.deepEqual(
      packages.filter((name) => !listed.has(name)),
      [],
      `${path}: dependencies without a row of the table`,
    );
  }
});

test('every link of the README and of docs/ reaches a file, and a heading of it when it names one', () => {
  const broken: string[] = [];
  for (const from of markdownFiles) {
    for (const match of prose(read(from)).matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = match[1]!;
      if (/^[a-z]+:/i.test(target)) continue;
      const [path, fragment] = target.split('#') as [string, string | undefined];
      const file = path === '' ? from : normalize(join(dirname(from), path));
      if (!existsSync(join(ROOT, file))) {
        broken.push(`${from}: ${target} (no ${file})`);
        continue;
      }
      if (fragment === undefined || !file.endsWith('.md')) continue;
      const headings = [...prose(read(file)).matchAll(/^#{1,6} (.+)$/gm)].map((m) => headingSlug(m[1]!));
      if (!headings.includes(fragment)) broken.push(`${from}: ${target} (no such heading in ${file})`);
    }
  }
  assert.deepEqual(broken, []);
  assert.equal(headingSlug("Built-in subagents' tool sets"), 'built-in-subagents-tool-sets');
  assert.equal(headingSlug('Permission rules, run'), 'permission-rules-run');
});
