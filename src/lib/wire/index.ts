/**
 * The model-API wire formats, by id, and what the site build reads from a
 * capture through them. Adding a format: one module beside this file that
 * implements WireFormat (./types.ts), and one line below.
 */
import { anthropicMessages } from './anthropic-messages.ts';
import { chatStreamNodes } from './chat-stream-nodes.ts';
import { geminiApi } from './gemini-api.ts';
import { openaiChatCompletions } from './openai-chat-completions.ts';
import { openaiResponses } from './openai-responses.ts';
import {
  CaptureFormatError,
  type CaptureFile,
  type CapturedTool,
  type DeferredNamespace,
  type ExtractContext,
  type WireFormat,
  type WireQuirks,
} from './types.ts';

export const WIRE_FORMATS = {
  'anthropic-messages': anthropicMessages,
  'chat-stream-nodes': chatStreamNodes,
  'gemini-api': geminiApi,
  'openai-chat-completions': openaiChatCompletions,
  'openai-responses': openaiResponses,
} as const satisfies Record<string, WireFormat>;

export type WireFormatId = keyof typeof WIRE_FORMATS;

export const WIRE_FORMAT_IDS = Object.keys(WIRE_FORMATS) as WireFormatId[];

export function wireFormat(id: WireFormatId): WireFormat {
  return WIRE_FORMATS[id];
}

/** The format whose tool-carrying request goes to `path` (no query string), or undefined. */
export function wireFormatForPath(path: string): WireFormat | undefined {
  return Object.values(WIRE_FORMATS).find((w) => w.isToolRequestPath(path));
}

/** The format of a capture file, from the path of its request; throws CaptureFormatError at `/request/path`. */
export function captureWireFormat(capture: CaptureFile): WireFormat {
  const wire = wireFormatForPath(capture.request.path);
  if (!wire)
    throw new CaptureFormatError(
      `unknown wire format: ${capture.request.method} ${capture.request.path}`,
      '/request/path',
    );
  return wire;
}

function contextOf(capture: CaptureFile, quirks: WireQuirks): ExtractContext {
  return {
    origin: {
      package: capture.cli.package,
      version: capture.cli.version,
      file: `content/captures/${capture.agent}/${capture.configuration}.json`,
    },
    pointer: '/body',
    quirks,
  };
}

/**
 * Every tool a capture advertises, in the order the model sees them, read with the quirks of
 * the agent that sent it (src/lib/agents: capturedTools looks them up). Throws CaptureFormatError.
 */
export function extractCapturedTools(capture: CaptureFile, quirks: WireQuirks): CapturedTool[] {
  return captureWireFormat(capture).extractTools(capture.body, contextOf(capture, quirks));
}

/**
 * Namespaces a capture names without their tools (deferred to the agent's tool search), each with the pointer of the
 * text naming it.
 */
export function deferredNamespaces(capture: CaptureFile, quirks: WireQuirks): DeferredNamespace[] {
  return captureWireFormat(capture).deferredNamespaces(capture.body, contextOf(capture, quirks));
}

export { deferredNamespaceTool } from './openai-responses.ts';
export { CaptureFormatError } from './types.ts';
export type {
  CaptureFile,
  CapturedTool,
  DeferredNamespace,
  Delivery,
  ExtractContext,
  StubReply,
  ToolCount,
  WireFormat,
  WireQuirks,
  WireRequest,
} from './types.ts';
