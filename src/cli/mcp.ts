/**
 * `agent-tools mcp`: the same lookups as the command, as MCP tools over stdio (the official SDK's
 * low-level Server, so that each tool's input schema is plain JSON Schema), and every schema a
 * tool page publishes as a resource at its site URL. Each answer names the release and the page:
 * a text for the model to read, and the verb's JSON answer as structured content.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  CallToolRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { changes } from './changes.ts';
import { check } from './check.ts';
import { diff } from './diff.ts';
import { changesText, checkText, diffAnswerText, namesText, searchText, showText } from './format.ts';
import { names } from './names.ts';
import { search } from './search.ts';
import { show } from './show.ts';
import { pageUrl, type Snapshot } from './snapshot.ts';

const PLAIN = { colour: false };

const text = (description: string) => ({ type: 'string', description });
const AGENT = text('Agent id or product name, any letter case; the server instructions list the agents');
const TOOL = text('Tool name as the agent calls it (any letter case), its URL name or an alias, e.g. Bash');

interface McpTool extends Tool {
  answer(snapshot: Snapshot, args: Record<string, unknown>): { structured: object; text: string; isError?: boolean };
}

const str = (args: Record<string, unknown>, key: string): string => {
  const value = args[key];
  if (typeof value !== 'string' || value === '') throw new TypeError(`${key} must be a non-empty string`);
  return value;
};
const optional = (args: Record<string, unknown>, key: string): string | undefined =>
  args[key] === undefined ? undefined : str(args, key);
const payloadText = (args: Record<string, unknown>): string =>
  typeof args.payload === 'string' ? args.payload : JSON.stringify(args.payload);

function checkTool(name: string, answer: boolean): McpTool {
  return {
    name,
    description: answer
      ? "Validates a hook's answer (what it prints) against the event's output schema as the agent's code declares it."
      : "Validates a hook's stdin payload against the schema of the event's recorded payloads (or a tool's own).",
    inputSchema: {
      type: 'object',
      properties: {
        agent: AGENT,
        event: text('Hook event as the agent spells it, e.g. PreToolUse, BeforeTool, tool.execute.before'),
        payload: { description: 'The JSON, as a value or as its text' },
        ...(answer ? {} : { tool: text("Check against this tool's hook schema (its input as recorded)") }),
      },
      required: ['agent', 'event', 'payload'],
    },
    answer(snapshot, args) {
      const tool = answer ? undefined : optional(args, 'tool');
      const a = check(snapshot, str(args, 'agent'), str(args, 'event'), payloadText(args), {
        answer,
        ...(tool === undefined ? {} : { tool }),
      });
      return { structured: a, text: checkText(a, PLAIN) };
    },
  };
}

export const MCP_TOOLS: McpTool[] = [
  {
    name: 'lookup_tool',
    description: "One agent's tool: summary, where it is turned on, input and result fields, page and schema URLs.",
    inputSchema: {
      type: 'object',
      properties: { agent: AGENT, tool: TOOL, release: text('An earlier release whose schemas the site publishes') },
      required: ['agent', 'tool'],
    },
    answer(snapshot, args) {
      const a = show(snapshot, str(args, 'agent'), str(args, 'tool'), optional(args, 'release'));
      return { structured: a, text: showText(a, PLAIN) };
    },
  },
  {
    name: 'search',
    description: 'Tools, hook events, jobs and fields of every agent by name, exact spelling first.',
    inputSchema: {
      type: 'object',
      properties: { text: text('A name or part of one'), limit: { type: 'integer', minimum: 1, default: 50 } },
      required: ['text'],
    },
    answer(snapshot, args) {
      const a = search(snapshot, str(args, 'text'), typeof args.limit === 'number' ? args.limit : 50);
      return { structured: a, text: searchText(a, PLAIN) };
    },
  },
  {
    name: 'map_names',
    description:
      'The same job in every agent: which tool does it, the name its hook payloads give it, and the permission ' +
      'rules recorded against it.',
    inputSchema: {
      type: 'object',
      properties: { name: text('A job id or title (run-shell-command) or a tool name (Bash, apply_patch)') },
      required: ['name'],
    },
    answer(snapshot, args) {
      const a = names(snapshot, str(args, 'name'));
      return { structured: a, text: namesText(a, PLAIN) };
    },
  },
  {
    name: 'compare_releases',
    description: "A tool's definition change between two releases the site read, changed texts word for word.",
    inputSchema: {
      type: 'object',
      properties: {
        agent: AGENT,
        tool: TOOL,
        from: text('A release read'),
        to: text('Another release read'),
        source: { type: 'string', enum: ['capture', 'sdk'], description: 'Which history to read' },
      },
      required: ['agent', 'tool', 'from', 'to'],
    },
    answer(snapshot, args) {
      const a = diff(
        snapshot,
        str(args, 'agent'),
        str(args, 'tool'),
        str(args, 'from'),
        str(args, 'to'),
        optional(args, 'source'),
      );
      return { structured: a, text: diffAnswerText(a, PLAIN) };
    },
  },
  checkTool('check_hook_payload', false),
  checkTool('check_hook_answer', true),
  {
    name: 'what_changed',
    description: 'What changed in the tools, release by release, newest first; optionally since a day, one agent.',
    inputSchema: {
      type: 'object',
      properties: {
        since: text('A day (2026-11-01) or RFC 3339 time'),
        agent: AGENT,
        breaking: { type: 'boolean', description: 'Only changes that break callers' },
      },
    },
    answer(snapshot, args) {
      const since = optional(args, 'since');
      const agent = optional(args, 'agent');
      const a = changes(snapshot, {
        ...(since === undefined ? {} : { since }),
        ...(agent === undefined ? {} : { agent }),
        breaking: args.breaking === true,
      });
      return { structured: a, text: changesText(a, PLAIN) };
    },
  },
];

/** Every schema a tool page publishes (latest), and its hook schema: URI, name, site path. */
export function schemaResources(snapshot: Snapshot): { uri: string; name: string; path: string }[] {
  const out: { uri: string; name: string; path: string }[] = [];
  for (const tool of snapshot.catalog().tools) {
    const links: [string, string | undefined][] = [
      ['input', tool.links.schemas.input?.latest],
      ['result', tool.links.schemas.result?.latest],
      ['model-input', tool.links.schemas.modelInput?.latest],
      ['hooks', tool.links.hookSchema],
    ];
    for (const [what, path] of links)
      if (path !== undefined)
        out.push({ uri: pageUrl(snapshot.info, path), name: `${tool.agent} ${tool.fullName} ${what} schema`, path });
  }
  return out;
}

/** The server, not yet connected: tests connect it to an in-memory transport. */
export function mcpServer(snapshot: Snapshot): Server {
  const server = new Server(
    { name: 'agent-tools', version: snapshot.info.version },
    {
      capabilities: { tools: {}, resources: {} },
      instructions:
        'Exact tool definitions, hook payloads and answers, and release-by-release changes of coding-agent CLIs, ' +
        `from ${snapshot.info.site}. Agents (id: product release): ` +
        `${snapshot.info.agents.map((a) => `${a.id}: ${a.product} ${a.version}`).join('; ')}.`,
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: MCP_TOOLS.map(({ answer: _answer, ...tool }) => tool),
  }));
  server.setRequestHandler(CallToolRequestSchema, (request): CallToolResult => {
    const tool = MCP_TOOLS.find((t) => t.name === request.params.name);
    if (!tool) return { isError: true, content: [{ type: 'text', text: `No tool ${request.params.name}.` }] };
    try {
      const { structured, text } = tool.answer(snapshot, request.params.arguments ?? {});
      return { content: [{ type: 'text', text }], structuredContent: structured as Record<string, unknown> };
    } catch (error) {
      return { isError: true, content: [{ type: 'text', text: (error as Error).message }] };
    }
  });
  server.setRequestHandler(ListResourcesRequestSchema, () => ({
    resources: schemaResources(snapshot).map(({ uri, name }) => ({ uri, name, mimeType: 'application/schema+json' })),
  }));
  server.setRequestHandler(ReadResourceRequestSchema, (request) => {
    const found = schemaResources(snapshot).find((r) => r.uri === request.params.uri);
    const text = found && snapshot.text(found.path);
    if (text === undefined) throw new Error(`No resource ${request.params.uri}`);
    return { contents: [{ uri: request.params.uri, mimeType: 'application/schema+json', text }] };
  });
  return server;
}

/** Serves over stdio until the client closes its end. */
export async function serveStdio(snapshot: Snapshot): Promise<void> {
  const server = mcpServer(snapshot);
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  await server.connect(new StdioServerTransport());
  process.stdin.on('end', () => void server.close());
  await closed;
}
