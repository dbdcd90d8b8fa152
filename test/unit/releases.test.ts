import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  agentReleaseLabel,
  agentReleases,
  releaseLabel,
  releaseMismatch,
  releaseSegment,
  toolReleases,
} from '../../src/lib/model/releases.ts';
import { AGENTS } from '../../src/lib/agents/index.ts';
import type { AgentRecord } from '../../src/lib/core/content-types.ts';
import type { SiteModel, ToolModel } from '../../src/lib/model/model.ts';
import { noToolFacts } from '../../src/lib/model/tool-facts.ts';
import { examplesRelease } from '../../src/lib/content/tool-facts.ts';

// An agent whose types bundle a CLI (its record says which) and one whose types follow its CLI.
const BUNDLING = 'claude-code' as const;
const FOLLOWING = 'gemini-cli' as const;
assert.equal(
  'none' in AGENTS[FOLLOWING].publishedTypes ? false : AGENTS[FOLLOWING].publishedTypes.withCli,
  true,
  'fixture: types released with the CLI',
);

function tool(
  agent: ToolModel['agent'],
  source: ToolModel['source'],
  provenance: { package: string; version: string }[],
  extra: Partial<ToolModel> = {},
): ToolModel {
  return {
    agent,
    source,
    slug: 'x',
    fullName: 'X',
    generated: { provenance } as unknown as ToolModel['generated'],
    ...extra,
  } as ToolModel;
}
function record(version: string, sdk: string, published: boolean): AgentRecord {
  return {
    id: BUNDLING,
    product: 'P',
    version,
    checked: '2026-12-01',
    bundledCli: { package: 'cli-pkg', published, listings: [{ package: 'cli-pkg', lists: published }] },
    sources: [{ package: 'types-pkg', version: sdk, integrity: 'sha512-x', files: [], role: 'r' }],
  };
}
function site(parts: Partial<SiteModel>): Pick<SiteModel, 'agents' | 'tools' | 'matrix' | 'inventory'> {
  return { agents: [], tools: [], inventory: [], ...parts };
}
const example = (version: string) =>
  ({ cli: { package: 'cli-pkg', version } }) as NonNullable<ToolModel['examples']>[number];
const matrixAt = (agent: string, version: string) =>
  ({
    agents: { [agent]: { package: 'cli-pkg', version, checked: '2026-12-01', configurations: [] } },
  }) as unknown as NonNullable<SiteModel['matrix']>;

test('types that bundle an unpublished CLI release: labelled with that release, and the mismatch names each source', () => {
  const sdkTool = tool(BUNDLING, 'sdk', [{ package: 'types-pkg', version: '7.0.2' }]);
  const captured = tool(BUNDLING, 'capture', [], { examples: [example('8.1.1')] });
  const releases = agentReleases(
    site({
      agents: [record('8.1.2', '7.0.2', false)],
      tools: [sdkTool, captured],
      matrix: matrixAt(BUNDLING, '8.1.1'),
    }),
    BUNDLING,
  );
  assert.equal(releases.types?.cliVersion, '8.1.2');
  assert.equal(releases.types?.cliUnpublished, true);
  assert.equal(releases.captures?.packageVersion, '8.1.1');
  assert.equal(releaseSegment(releases.types!), '8.1.2');
  assert.equal(
    releaseMismatch(releases),
    `Types from ${AGENTS[BUNDLING].product} 8.1.2 (read from types-pkg 7.0.2; not published as a CLI); captures and examples from ${AGENTS[BUNDLING].product} 8.1.1.`,
  );
  // Each part of a page names its own source's release.
  const sdkWithModel = { ...sdkTool, modelInput: {} } as ToolModel;
  const parts = toolReleases(sdkWithModel, releases);
  assert.equal(releaseLabel(parts.input!), `${AGENTS[BUNDLING].product} 8.1.2`);
  assert.equal(releaseLabel(parts.modelInput!), `${AGENTS[BUNDLING].product} 8.1.1`);
  assert.equal(releaseLabel(toolReleases(captured, releases).input!), `${AGENTS[BUNDLING].product} 8.1.1`);
});

test('sources at one release: no mismatch; a bundled release that is published is not flagged', () => {
  const releases = agentReleases(
    site({
      agents: [record('8.1.1', '7.0.1', true)],
      tools: [tool(BUNDLING, 'sdk', [{ package: 'types-pkg', version: '7.0.1' }], { examples: [example('8.1.1')] })],
      matrix: matrixAt(BUNDLING, '8.1.1'),
    }),
    BUNDLING,
  );
  assert.equal(releases.types?.cliUnpublished, undefined);
  assert.equal(releaseMismatch(releases), undefined);
});

test('types released with the CLI carry its release number; examples recorded with an older release are named apart', () => {
  const releases = agentReleases(
    site({
      tools: [tool(FOLLOWING, 'sdk', [{ package: 'core-pkg', version: '0.62.0' }], { examples: [example('0.61.0')] })],
      matrix: matrixAt(FOLLOWING, '0.62.0'),
    }),
    FOLLOWING,
  );
  assert.equal(releases.types?.cliVersion, '0.62.0');
  assert.equal(
    releaseMismatch(releases),
    `Types and captures from ${AGENTS[FOLLOWING].product} 0.62.0; examples from ${AGENTS[FOLLOWING].product} 0.61.0.`,
  );
});

test('types without a known CLI release are labelled by their package; a documented tool shows no release', () => {
  const releases = agentReleases(
    site({ agents: [], tools: [tool(BUNDLING, 'sdk', [{ package: 'types-pkg', version: '0.1.0' }])] }),
    BUNDLING,
  );
  assert.equal(releaseLabel(releases.types!), 'types-pkg 0.1.0');
  assert.equal(releaseSegment(releases.types!), '0.1.0');
  assert.deepEqual(toolReleases(tool(BUNDLING, 'documented', []), releases), {});
});

test('an agent with its release: one number when the sources agree, each number with its sources when not', () => {
  const cli = (v: string) => ({ kind: 'cli' as const, product: 'P', package: 'p', packageVersion: v, cliVersion: v });
  assert.equal(agentReleaseLabel('P', { captures: cli('1.0.0'), examples: [cli('1.0.0')] }), 'P 1.0.0');
  assert.equal(
    agentReleaseLabel('P', {
      types: { ...cli('1.1.0'), kind: 'types', package: 't', packageVersion: '0.1.1' },
      captures: cli('1.0.0'),
      examples: [cli('1.0.0')],
      inventory: cli('1.0.0'),
    }),
    'P 1.1.0 (types), 1.0.0 (captures, examples, tool names)',
  );
  assert.equal(agentReleaseLabel('P', { examples: [] }), 'P');
});

test('a tool page says which part comes from which release when they differ, and nothing when they agree', async () => {
  const { toolReleaseNote } = await import('../../src/lib/views/tool-page-view.ts');
  const product = AGENTS[BUNDLING].product;
  const types = {
    kind: 'types' as const,
    product,
    package: 'types-pkg',
    packageVersion: '7.0.2',
    cliVersion: '8.1.2',
    cliUnpublished: true as const,
  };
  const cli = { kind: 'cli' as const, product, package: 'cli-pkg', packageVersion: '8.1.1', cliVersion: '8.1.1' };
  const split = tool(BUNDLING, 'sdk', [], {
    releases: { input: types, result: types, modelInput: cli },
    examples: [example('8.1.1')],
  });
  // The examples' release is one of the tool's facts, which the loader computes.
  split.facts = { ...noToolFacts(), examplesRelease: examplesRelease(split) };
  assert.equal(
    toolReleaseNote(split),
    `Input and result from ${product} 8.1.2 (read from types-pkg 7.0.2; not published as a CLI); model-facing input and examples from ${product} 8.1.1.`,
  );
  const together = tool(BUNDLING, 'capture', [], {
    releases: { input: cli, result: cli },
    examples: [example('8.1.1')],
  });
  together.facts = { ...noToolFacts(), examplesRelease: examplesRelease(together) };
  assert.equal(toolReleaseNote(together), undefined);
});
