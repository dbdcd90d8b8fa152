/**
 * The small fixture site of the layout and accessibility tests: the fixture
 * content (test/fixtures/content, which hostile-text.test.ts also starts from)
 * with one captured tool planted whose names and values are as long as the
 * content rules let them be, built by the project's own build with CONTENT_DIR
 * into a temporary folder, as hostile-text.test.ts does.
 */
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, runBuild } from './browser.ts';
import { editJson } from './files.ts';

/**
 * A tool name of 125 characters, near the 128 the loader accepts, with one run of
 * 40 letters and no break point: every place that shows a tool name (title,
 * sidebar, the payload checker's text and hint) must break it rather than widen
 * the page. (Until 2026-12 the checker's hint could not break a name: 39
 * characters widened the page at 320 px.)
 */
export const LONG_TOOL = `tool_with_a_very_long_name_${'x'.repeat(40)}_${'segment_'.repeat(5)}ends_here_at_last`;
/** A field name far longer than real ones: the field tables break it between camelCase words. */
export const LONG_FIELD = `${'aVeryLongCamelCaseFieldName'.repeat(4)}ThatEnds`;

/** A nested object `depth` levels deep whose innermost field has a long enum, a long default and a long URL. */
function nested(depth: number): Record<string, unknown> {
  if (depth === 0) {
    return {
      type: 'string',
      enum: ['a-value-written-as-one-long-word-with-hyphens-and-no-spaces-at-all-anywhere', 'short'],
      default: 'a-value-written-as-one-long-word-with-hyphens-and-no-spaces-at-all-anywhere',
      description: `See https://example.invalid/${'a-very-long-path-segment/'.repeat(8)}?query=${'x'.repeat(60)} for details.`,
    };
  }
  return {
    type: 'object',
    description: `Level ${depth}.`,
    properties: { [`${LONG_FIELD.slice(0, 40)}_${depth}`]: nested(depth - 1) },
    required: [],
  };
}

/** Adds the long tool to the Claude Code capture of a copy of the fixture content. */
function plantLongText(content: string): void {
  editJson(join(content, 'captures/claude-code/print.json'), (c) => {
    c.body.tools.push({
      name: LONG_TOOL,
      description: `A tool whose every name is long. ${'Words that wrap normally. '.repeat(20)}`,
      input_schema: {
        type: 'object',
        properties: {
          [LONG_FIELD]: {
            type: 'array',
            items: { type: 'object', properties: { [LONG_FIELD]: nested(8) } },
            description: 'An array of deeply nested objects.',
          },
          [`${LONG_FIELD}Union`]: {
            anyOf: [
              { type: 'string' },
              { type: 'number' },
              { type: 'boolean' },
              { type: 'array', items: { type: 'string' } },
              { type: 'null' },
            ],
          },
        },
        required: [LONG_FIELD],
      },
    });
  });
}

export interface FixtureSite {
  /** The built site. */
  out: string;
  remove(): void;
}

/** Builds the fixture site into `out`; throws with the build's output when it fails. */
function buildInto(out: string, scratch: string): void {
  const content = join(scratch, 'content');
  cpSync(join(ROOT, 'test/fixtures/content'), content, { recursive: true });
  plantLongText(content);
  const result = runBuild(['--out', out], { CONTENT_DIR: content });
  if (result.status !== 0) throw new Error(`the fixture site must build:\n${result.stdout}\n${result.stderr}`);
}

/**
 * The fixture site. `npm test` builds it once before the tests that read it (this file run
 * as a script, into FIXTURE_SITE) and they share it; a test file run on its own builds its
 * own into a fresh temporary folder, removed by `remove()`.
 */
export function buildFixtureSite(): FixtureSite {
  const shared = process.env.FIXTURE_SITE;
  if (shared && existsSync(join(shared, 'index.html'))) return { out: shared, remove: () => {} };
  const dir = mkdtempSync(join(tmpdir(), 'fixture-site-'));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  try {
    const out = join(dir, 'out');
    buildInto(out, dir);
    return { out, remove };
  } catch (error) {
    remove();
    throw error;
  }
}

if (import.meta.main) {
  const out = process.env.FIXTURE_SITE;
  if (!out) throw new Error('FIXTURE_SITE names the folder to build the fixture site into');
  const scratch = mkdtempSync(join(tmpdir(), 'fixture-content-'));
  try {
    buildInto(out, scratch);
    console.log(`fixture site: built into ${out}`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
