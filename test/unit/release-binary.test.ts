/** Where an earlier release keeps the program: the module's path, else the package's own `bin` (scripts/lib/capture/release-binary.ts). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { binaryCandidates, movedProgram, platformFolder } from '../../scripts/lib/capture/release-binary.ts';
import { npmErrorSummary } from '../../scripts/lib/capture/install.ts';

const PKG = '@example/some-cli';
const SCRIPT = `node_modules/${PKG}/entry.js`;

test('a Node-script CLI whose release runs another file: the file its single bin command names comes second', () => {
  assert.deepEqual(binaryCandidates(SCRIPT, PKG, { bin: { some: 'cli.js' } }), [SCRIPT, `node_modules/${PKG}/cli.js`]);
  assert.deepEqual(binaryCandidates(SCRIPT, PKG, { bin: './dist/main.js' }), [SCRIPT, `node_modules/${PKG}/dist/main.js`]);
});

test('the module path is the only candidate when bin names it too, is missing, ambiguous or leaves the package', () => {
  assert.deepEqual(binaryCandidates(SCRIPT, PKG, { bin: { some: 'entry.js' } }), [SCRIPT]);
  assert.deepEqual(binaryCandidates(SCRIPT, PKG, {}), [SCRIPT]);
  assert.deepEqual(binaryCandidates(SCRIPT, PKG, undefined), [SCRIPT]);
  assert.deepEqual(binaryCandidates(SCRIPT, PKG, { bin: { a: 'a.js', b: 'b.js' } }), [SCRIPT]);
  assert.deepEqual(binaryCandidates(SCRIPT, PKG, { bin: '../other/cli.js' }), [SCRIPT]);
  assert.deepEqual(binaryCandidates(SCRIPT, PKG, { bin: '/usr/bin/env' }), [SCRIPT]);
  assert.deepEqual(binaryCandidates(SCRIPT, PKG, { bin: { some: 42 } }), [SCRIPT]);
});

test('a release that depends on the platform package holding the binary has no fallback', () => {
  const native = `node_modules/${PKG}-linux-x64/bin/some`;
  assert.deepEqual(binaryCandidates(native, PKG, { bin: { some: 'bin/some.js' }, optionalDependencies: { [`${PKG}-linux-x64`]: '1.0.0' } }), [native]);
  assert.deepEqual(binaryCandidates(native, PKG, { bin: { some: 'bin/some.js' }, dependencies: { [`${PKG}-linux-x64`]: '1.0.0' } }), [native]);
});

test('a release from before the platform package (it does not depend on it) runs what its bin names', () => {
  const native = `node_modules/${PKG}-linux-x64/bin/some`;
  assert.deepEqual(binaryCandidates(native, PKG, { bin: { some: 'cli.js' }, optionalDependencies: { 'other-linux-x64': '1.0.0' } }), [native, `node_modules/${PKG}/cli.js`]);
  assert.deepEqual(binaryCandidates(native, PKG, { bin: 'bin/some.js' }), [native, `node_modules/${PKG}/bin/some.js`]);
  assert.deepEqual(binaryCandidates(native, PKG, { bin: { a: 'a.js', b: 'b.js' } }), [native]);
});

test('a platform package that moved its program inside its platform folder: the one file of that name there', () => {
  const codex = 'node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex';
  const platform = 'node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl';
  assert.equal(platformFolder(codex), platform);
  // The layout of the Codex 0.99.0 platform package (npm pack @openai/codex@0.99.0-linux-x64).
  const files = [`${platform}/codex/codex`, `${platform}/path/rg`, 'node_modules/@openai/codex-linux-x64/package.json'];
  assert.equal(movedProgram(codex, files), `${platform}/codex/codex`);
  assert.equal(movedProgram(codex, [`${platform}/path/rg`]), undefined, 'no file of that name');
  assert.equal(movedProgram(codex, [`${platform}/a/codex`, `${platform}/b/codex`]), undefined, 'two candidates: no guess');
  assert.equal(movedProgram(codex, ['node_modules/@openai/codex-linux-x64/vendor/aarch64-unknown-linux-musl/bin/codex']), undefined, 'another platform is not this one');
  assert.equal(movedProgram(codex, [`${platform}-old/codex`]), undefined, 'a folder that only starts alike');
  // A program directly in its package folder (or one level down) has no narrower folder to look in.
  assert.equal(platformFolder('node_modules/@google/gemini-cli/bundle/gemini.js'), undefined);
  assert.equal(movedProgram('node_modules/@google/gemini-cli/bundle/gemini.js', ['node_modules/@google/gemini-cli/dist/gemini.js']), undefined);
  assert.equal(platformFolder('bin/x'), undefined, 'outside node_modules');
});

test('npmErrorSummary: what npm said, without its boilerplate or the path and time of its log', () => {
  // The shape of npm 10's stderr for a dependency missing from the registry (Copilot CLI 0.0.340).
  const stderr = [
    'npm error code E404',
    'npm error 404 Not Found - GET http://127.0.0.1:4873/keytar-forked-forked - Not found',
    "npm error 404  The requested resource 'keytar-forked-forked@^7.10.2' could not be found or you do not have permission to access it.",
    'npm error 404',
    'npm error 404 Note that you can also install from a',
    'npm error 404 tarball, folder, http url, or git url.',
    'npm error A complete log of this run can be found in: /root/.npm/_logs/2026-12-02T11_09_31_179Z-debug-0.log',
    '',
  ].join('\n');
  const summary = npmErrorSummary(stderr);
  assert.equal(summary, "404 The requested resource 'keytar-forked-forked@^7.10.2' could not be found or you do not have permission to access it.");
  assert.doesNotMatch(summary, /_logs|debug-0|\/root|:\/\/|127\.0\.0\.1/);
  assert.equal(npmErrorSummary('npm ERR! code ETARGET\nnpm ERR! notarget No matching version found for x@9.9.9.\nnpm ERR! notarget No matching version found for x@9.9.9.'), 'notarget No matching version found for x@9.9.9.', 'each line once');
  assert.equal(npmErrorSummary(''), '');
});
