/**
 * The command line shared by the scripts that run the pinned CLIs inside the
 * loopback namespace (scripts/capture.ts, scripts/payloads.ts): `--only` selectors,
 * `--check`, `--raw DIR`, the internal `--inside`, and script-specific options
 * (`--matrix FILE` for capture, `--out DIR` for payloads).
 */
import { resolve } from 'node:path';

export interface RunArgs {
  only: string[];
  check: boolean;
  inside: boolean;
  /** Also write every recorded request, unmasked, to this folder (for debugging and fixtures). */
  raw?: string;
  /** capture only: another matrix file instead of content/capture-matrix.json (for trying configurations). */
  matrix?: string;
  /**
   * payloads only: write the recorded files into this folder (by their relative paths) and touch nothing under content/
   * (`npm run verify`).
   */
  out?: string;
  /** hook-behaviour only: run this release of the (one) selected agent instead of its pin; needs --out. */
  release?: string;
  /** Internal, with --release: the program installed for that release. */
  binary?: string;
}

export interface RunArgsSpec {
  /** For `--help`: `node scripts/capture.ts [--only agent[/id]]... …`. */
  usage: string;
  /** What `--only` takes, for its error: `agent or agent/id`. */
  onlyTakes: string;
  /** Whether `--matrix FILE` is accepted. */
  matrix?: boolean;
  /** Whether `--out DIR` is accepted. */
  out?: boolean;
  /** Whether `--release VERSION` (and the internal `--binary PATH`) is accepted. */
  release?: boolean;
}

/** Parses `argv`; an error is a message for the caller to print (the first problem found). */
export function parseRunArgs(
  argv: readonly string[],
  spec: RunArgsSpec,
): RunArgs | { help: string } | { error: string } {
  const options: RunArgs = { only: [], check: false, inside: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--only') {
      const v = argv[++i];
      if (!v) return { error: `--only needs ${spec.onlyTakes}` };
      options.only.push(v);
    } else if (a.startsWith('--only=')) options.only.push(a.slice(7));
    else if (a === '--check') options.check = true;
    else if (a === '--matrix' && spec.matrix) {
      const v = argv[++i];
      if (!v) return { error: '--matrix needs a file' };
      options.matrix = resolve(v);
    } else if (a === '--out' && spec.out) {
      const v = argv[++i];
      if (!v) return { error: '--out needs a folder' };
      options.out = resolve(v);
    } else if ((a === '--release' || a === '--binary') && spec.release) {
      const v = argv[++i];
      if (!v) return { error: `${a} needs ${a === '--release' ? 'a version' : 'a path'}` };
      if (a === '--release') options.release = v;
      else options.binary = v;
    } else if (a === '--raw') {
      const v = argv[++i];
      if (!v) return { error: '--raw needs a folder' };
      options.raw = v;
    } else if (a === '--inside') options.inside = true;
    else if (a === '--help' || a === '-h') return { help: `usage: ${spec.usage}` };
    else return { error: `unknown argument ${a}` };
  }
  if (options.release !== undefined && options.out === undefined)
    return { error: '--release needs --out: only the pinned release is recorded under content/' };
  return options;
}
