import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  dateForms,
  expandPlaceholders,
  maskJson,
  maskRules,
  maskText,
  PlaceholderError,
} from '../../scripts/lib/capture/placeholders.ts';

const VARS = {
  STUB_URL: 'http://127.0.0.1:4123',
  HOME: '/cache/run/home',
  WORKDIR: '/cache/run/work',
  NODE: '/usr/bin/node',
  MCP_SERVER: '/repo/mcp.ts',
};

test('expandPlaceholders replaces every known $NAME, in args, JSON and TOML alike', () => {
  assert.equal(expandPlaceholders('$STUB_URL/v1', VARS), 'http://127.0.0.1:4123/v1');
  assert.equal(
    expandPlaceholders('{"command":"$NODE","args":["$MCP_SERVER"]}', VARS),
    '{"command":"/usr/bin/node","args":["/repo/mcp.ts"]}',
  );
  assert.equal(expandPlaceholders('cwd = "$WORKDIR" # in $HOME', VARS), 'cwd = "/cache/run/work" # in /cache/run/home');
  assert.equal(expandPlaceholders('no tokens, lower $case and a lone $', VARS), 'no tokens, lower $case and a lone $');
});

test('expandPlaceholders refuses an unknown placeholder and names it', () => {
  assert.throws(
    () => expandPlaceholders('--x $HOMEDIR', VARS),
    (e: unknown) => e instanceof PlaceholderError && /\$HOMEDIR/.test(e.message),
  );
});

test('masking: the longest exact value wins, so a path inside $HOME is not half-replaced', () => {
  const rules = maskRules({ HOME: '/run', WORKDIR: '/run/work' });
  assert.equal(maskText('cd /run/work && ls /run/.codex', rules), 'cd $WORKDIR && ls $HOME/.codex');
});

test('masking: the stub URL with its random port becomes $STUB_URL', () => {
  assert.equal(maskText('base http://127.0.0.1:4123/v1', maskRules(VARS)), 'base $STUB_URL/v1');
});

test('masking: only the days the run touched are dates; fixed dates in descriptions stay', () => {
  const day = new Date(Date.UTC(2026, 10, 29, 23, 59));
  const next = new Date(Date.UTC(2026, 10, 30, 0, 1));
  const rules = maskRules({}, [day, next]);
  assert.equal(maskText('Today is 2026-11-29; tomorrow 2026-11-30.', rules), 'Today is $DATE; tomorrow $DATE.');
  assert.equal(maskText('It is November 29, 2026 (November 2026).', rules), 'It is $DATE ($MONTH_YEAR).');
  // A year alone is masked only where the text says it is the current one; a fixed date keeps its year.
  assert.equal(
    maskText('The current year is 2026: search "news 2026", not "news 2025".', rules),
    'The current year is $YEAR: search "news $YEAR", not "news $LAST_YEAR".',
  );
  assert.equal(
    maskText('Closes by December 14, 2026, before 2025 ends.', rules),
    'Closes by December 14, 2026, before 2025 ends.',
  );
  assert.equal(
    maskText('closes by December 14, 2026; schema draft/2020-12; 2026-11-290', rules),
    'closes by December 14, 2026; schema draft/2020-12; 2026-11-290',
  );
  assert.deepEqual(
    dateForms(day).map((f) => f.text),
    ['2026-11-29', '2026/11/29', 'November 29, 2026', 'November 2026'],
  );
});

test('masking: UUIDs (session and item ids) become $UUID, also inside prefixed ids', () => {
  const rules = maskRules({});
  assert.equal(maskText('at_01a2291e-2011-7b23-a56e-8526e5a7f07a', rules), 'at_$UUID');
  assert.equal(maskText('not-a-uuid-01a2291e-2011', rules), 'not-a-uuid-01a2291e-2011');
});

test('maskJson rewrites strings in values and keys and keeps key order and other types', () => {
  const rules = maskRules({ HOME: '/h' });
  const masked = maskJson({ b: '/h/x', a: [1, true, null, { '/h': '/h' }] }, rules);
  assert.deepEqual(masked, { b: '$HOME/x', a: [1, true, null, { $HOME: '$HOME' }] });
  assert.deepEqual(Object.keys(masked), ['b', 'a']);
});
