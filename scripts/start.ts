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
 * SIGINT, SIGTERM or SIGHUP stop the build (which removes its staging folder) and the
 * server; the exit code is the shell's 128 + signal number.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PREVIEW_HOST, previewPort, servingLine, startSiteUrl } from './lib/start-settings.ts';
import { signalExitCode } from './lib/system/child-group.ts';

const ROOT = resolve(import.meta.dirname, '..');

function outDirFromArgs(argv: string[]): string {
  const i = argv.indexOf('--out');
  const value = i >= 0 ? argv[i + 1] : undefined;
  return value ? resolve(value) : join(ROOT, 'dist');
}

/** Runs scripts/build.ts for `siteUrl` into `outDir`, output inherited; resolves with its exit code. */
function build(outDir: string, siteUrl: string, started: (child: ChildProcess) => void): Promise<number> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [join(ROOT, 'scripts/build.ts'), '--out', outDir], {
      cwd: ROOT,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, SITE_URL: siteUrl, ASTRO_TELEMETRY_DISABLED: '1' },
    });
    started(child);
    child.on('error', () => done(1));
    child.on('exit', (code, signal) => done(code ?? (signal ? signalExitCode(signal) : 1)));
  });
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
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      child?.kill(signal);
      void server.stop().finally(() => process.exit(signalExitCode(signal)));
    });
  }
  const siteUrl = startSiteUrl(process.env, server.port);
  console.log(`start: building ${outDir} for ${siteUrl}/ (the server answers meanwhile with what the folder holds)`);
  const status = await build(outDir, siteUrl, (c) => (child = c));
  child = undefined;
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
