/**
 * Placeholders in captured text (src/lib/model/placeholders.ts): every token the
 * capture's own masking writes has a meaning, and text is cut at exactly those.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CAPTURE_PLACEHOLDERS, placeholderSegments, placeholdersIn } from '../../src/lib/model/placeholders.ts';
import { maskRules, maskText } from '../../scripts/lib/capture/placeholders.ts';
import { runVariables } from '../../scripts/lib/capture/runner.ts';

test('every placeholder the capture writes is known, and nothing else', () => {
  const paths = { home: '/h', workdir: '/w', node: '/n', mcpServer: '/m/server.js' } as Parameters<
    typeof runVariables
  >[0];
  const variables = runVariables(paths, 'http://127.0.0.1:1');
  const day = new Date(Date.UTC(2031, 4, 6));
  const written = new Set<string>(Object.keys(variables));
  // Text holding each kind of value the rules replace: the run's values, its dates, a year sentence, a UUID.
  const sample = [
    ...Object.values(variables),
    '2031-05-06',
    '2031/05/06',
    'May 6, 2031',
    'May 2031',
    'The current year is 2031, not 2030.',
    '123e4567-e89b-12d3-a456-426614174000',
  ].join(' | ');
  const masked = maskText(sample, maskRules(variables, [day]));
  for (const m of masked.matchAll(/\$([A-Z][A-Z0-9_]*)/g)) written.add(m[1]!);
  for (const rule of maskRules(variables, [day]))
    for (const m of rule.replace.matchAll(/\$([A-Z][A-Z0-9_]*)/g)) written.add(m[1]!);
  assert.deepEqual([...written].sort(), Object.keys(CAPTURE_PLACEHOLDERS).sort());
});

test('captured text is cut at the placeholders only', () => {
  assert.deepEqual(placeholderSegments('The current year is $YEAR, not $LAST_YEAR; keep $PATH and $'), [
    { text: 'The current year is ' },
    { text: '$YEAR', placeholder: 'YEAR', meaning: CAPTURE_PLACEHOLDERS['YEAR'] },
    { text: ', not ' },
    { text: '$LAST_YEAR', placeholder: 'LAST_YEAR', meaning: CAPTURE_PLACEHOLDERS['LAST_YEAR'] },
    { text: '; keep $PATH and $' },
  ]);
  // `$HOMEDIR` is not `$HOME` followed by text.
  assert.deepEqual(placeholderSegments('$HOMEDIR'), [{ text: '$HOMEDIR' }]);
  assert.deepEqual(placeholderSegments(''), []);
  assert.deepEqual(
    placeholdersIn('$UUID/$HOME/$UUID').map((p) => p.token),
    ['$UUID', '$HOME'],
  );
  assert.equal(
    placeholderSegments('a $DATE b')
      .map((s) => s.text)
      .join(''),
    'a $DATE b',
    'the segments give back the text',
  );
});
