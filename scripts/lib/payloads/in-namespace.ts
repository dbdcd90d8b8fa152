/**
 * The outer half of every script that runs the real CLIs (payloads, hook-behaviour,
 * subagents, permissions): refuse anything but root on Linux, install what the runs need,
 * check that `unshare -n` works, then run the same script again inside a network
 * namespace with only loopback (`--inside`), and exit with its status.
 */
import { spawnSync } from 'node:child_process';

export interface NamespaceRerun {
  /** The script's name in messages (`hook-behaviour`). */
  name: string;
  /** The script to run again inside the namespace. */
  script: string;
  /** The arguments it was given. */
  argv: readonly string[];
  /** Installs what the runs need; returns more arguments for the inner run and what to remove afterwards. */
  // biome-ignore lint/suspicious/noConfusingVoidType: a module that needs nothing returns nothing
  prepare(log: (line: string) => void): { extraArgs?: string[]; cleanUp?: () => void } | void;
}

export class NamespaceRerunError extends Error {}

/**
 * Runs `spec.script --inside …` under `unshare -n` and exits with its status; throws NamespaceRerunError when that
 * cannot be done.
 */
export function rerunInNamespace(spec: NamespaceRerun): never {
  if (process.platform !== 'linux')
    throw new NamespaceRerunError(`${spec.name} runs only on Linux (it needs network namespaces)`);
  if (process.getuid?.() !== 0)
    throw new NamespaceRerunError(
      `${spec.name} must run as root: each CLI runs inside a network namespace with only loopback (\`unshare ` +
        `-n\`), which needs root`,
    );
  const probe = spawnSync('unshare', ['-n', 'true'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0)
    throw new NamespaceRerunError(
      `\`unshare -n\` failed, so the CLIs cannot be isolated from the network; refusing to run them ` +
        `(${probe.error?.message ?? (probe.stderr.trim() || `exit ${probe.status}`)})`,
    );
  const prepared = spec.prepare((line) => console.log(line)) ?? {};
  let inner: ReturnType<typeof spawnSync>;
  try {
    inner = spawnSync(
      'unshare',
      ['-n', process.execPath, spec.script, '--inside', ...spec.argv, ...(prepared.extraArgs ?? [])],
      { stdio: 'inherit' },
    );
  } finally {
    prepared.cleanUp?.();
  }
  if (inner.error)
    throw new NamespaceRerunError(`could not start the runs inside the namespace: ${inner.error.message}`);
  process.exit(inner.status ?? 1);
}
