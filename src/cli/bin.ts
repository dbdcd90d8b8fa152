/**
 * The entry of the packed command (`bin/agent-tools.js`, bundled by scripts/package.ts): the
 * package's data folder beside `bin/`, the process's streams, and the exit code. During
 * development `AGENT_TOOLS_DATA` names a data folder written by `npm run package`.
 */
import { fileURLToPath } from 'node:url';
import { main, type Io } from './main.ts';
import { serveStdio } from './mcp.ts';
import { folderSnapshot } from './snapshot.ts';

const dataDir = process.env['AGENT_TOOLS_DATA'] ?? fileURLToPath(new URL('../data', import.meta.url));

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const io: Io = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  readStdin,
  colour: process.stdout.isTTY === true && process.env['NO_COLOR'] === undefined,
  serveMcp: serveStdio,
};

try {
  process.exitCode = await main(process.argv.slice(2), () => folderSnapshot(dataDir), io);
} catch (error) {
  process.stderr.write(`agent-tools: ${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = 70;
}
