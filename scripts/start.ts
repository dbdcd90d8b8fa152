/**
 * npm start: serve the site on this machine, built for the address it is served at.
 *
 * The preview server (Astro's, as `astro preview` runs it) starts first, on PORT (default
 * 4321; PORT=0 lets the system pick one), so the port is known, and never assumed free,
 * before the build; then scripts/build.ts builds with SITE_URL set to the server's own
 * address (unless SITE_URL is set: see scripts/lib/start-settings.ts), and the server,
 * which reads each file when it is asked for, serves the new build as soon as it replaces
 * the old one. Until then it serves what the output folder held (an empty folder on a
 * first run). A port in use stops it at once, before the build, naming PORT.
 *
 *   npm start                         → dist/ at http://localhost:4321/
 *   PORT=8080 npm start               → at http://localhost:8080/
 *   node scripts/start.ts --out X     → X/ (tests)
 *
 * However it is stopped, nothing is left holding the port: SIGINT, SIGTERM or SIGHUP stop the
 * build (which removes its staging folder, in a process group of its own, so that whatever it
 * started ends with it) and the server, and it exits once both have ended, with the shell's
 * 128 + signal number. A parent that goes away counts as a SIGTERM (./lib/system/exit-with-parent.ts):
 * npm passes its SIGTERM to the shell it runs this script in, not to this script; and the build
 * ends by itself if this script is killed outright.
 */
import { PARENT_VARIABLE } from './lib/system/exit-with-parent.ts';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PREVIEW_HOST, previewPort, servingLine, startSiteUrl } from './lib/start-settings.ts';
import { onStopSignal, signalExitCode } from './lib/system/child-group.ts';

const ROOT = resolve(import.meta.dirname, '..');
/** How long the build may take to end after SIGTERM before its group gets SIGKILL. */
const BUILD_GRACE_MS = 10_000;

function outDirFromArgs(argv: string[]): string {
  const i = argv.indexOf('--out');
  const value = i >= 0 ? argv[i + 1] : undefined;
  return value ? resolve(value) : join(ROOT, 'dist');
}

/**
 * Runs scripts/build.ts for `siteUrl` into `outDir`, output inherited, in a process group of its own and
 * watching its parent (this script); resolves with its exit code.
 */
function build(outDir: string, siteUrl: string, started: (child: ChildProcess) => void): Promise<number> {
  return new Promise((done) => {
    const watch = pathToFileURL(join(ROOT, 'scripts/lib/system/exit-with-parent.ts')).href;
    const child = spawn(process.execPath, ['--import', watch, join(ROOT, 'scripts/build.ts'), '--out', outDir], {
      cwd: ROOT,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, SITE_URL: siteUrl, ASTRO_TELEMETRY_DISABLED: '1', [PARENT_VARIABLE]: String(process.pid) },
      detached: true,
    });
    started(child);
    child.on('error', () => done(1));
    child.on('exit', (code, signal) => done(code ?? (signal ? signalExitCode(signal) : 1)));
  });
}

/** Sends `signal` to the build's process group (the build and whatever it started); false once it has ended. */
function signalBuild(child: ChildProcess, signal: NodeJS.Signals): boolean {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return false;
  try {
    process.kill(-child.pid, signal);
    return true;
  } catch {
    return false;
  }
}

/** Stops a running build: SIGTERM to its group (it removes its staging folder), SIGKILL after BUILD_GRACE_MS. */
async function stopBuild(child: ChildProcess | undefined, ended: Promise<number> | undefined): Promise<void> {
  if (!child || !ended || !signalBuild(child, 'SIGTERM')) return;
  const timer = setTimeout(() => signalBuild(child, 'SIGKILL'), BUILD_GRACE_MS);
  await ended;
  clearTimeout(timer);
}

async function start(): Promise<number> {
  const port = previewPort(process.env);
  const outDir = outDirFromArgs(process.argv.slice(2));
  // Astro's preview refuses an output folder that does not exist.
  mkdirSync(outDir, { recursive: true });
  const { preview } = await import('astro');
  const server = await preview({
    root: ROOT,
    outDir,
    server: { host: PREVIEW_HOST, port },
    // A port in use is an error, not a move to the next one: the build is for this port.
    vite: { preview: { strictPort: true } },
    telemetry: false,
  } as Parameters<typeof preview>[0]).catch((error: Error) => {
    if (!/\bport\b/i.test(error.message)) throw error;
    throw new Error(`${error.message} (PORT=${port}: set PORT to another port, or PORT=0 for one the system picks)`, {
      cause: error,
    });
  });
  let child: ChildProcess | undefined;
  let building: Promise<number> | undefined;
  let stoppedBy: NodeJS.Signals | undefined;
  onStopSignal((signal) => {
    stoppedBy = signal;
    void Promise.allSettled([stopBuild(child, building), server.stop()]).finally(() =>
      process.exit(signalExitCode(signal)),
    );
  });
  const siteUrl = startSiteUrl(process.env, server.port);
  console.log(`start: building ${outDir} for ${siteUrl}/ (the server answers meanwhile with what the folder holds)`);
  building = build(outDir, siteUrl, (c) => (child = c));
  const status = await building;
  // Stopped by a signal: the handler stops the server and ends the process.
  if (stoppedBy) return signalExitCode(stoppedBy);
  if (status !== 0) {
    await server.stop();
    return status;
  }
  console.log(servingLine(outDir, siteUrl, server.port));
  await server.closed();
  return 0;
}

try {
  process.exitCode = await start();
} catch (error) {
  console.error(`start failed: ${(error as Error).message}`);
  process.exitCode = 1;
}
