/**
 * What every model-API wire format module (src/lib/wire/<format>.ts) provides, and
 * the shapes they share: the capture file as extraction reads it, the tools
 * extracted from it, and the error a malformed capture raises.
 *
 * A module owns everything the project knows about its format: which requests
 * carry the tools, which request-body keys a capture keeps, how the recording
 * stub answers, how deferred tools are announced, and how tools are read back
 * from a capture. scripts/lib/capture/* (recording) and the site build
 * (extraction) both use the modules through src/lib/wire/index.ts.
 */
import type { Definition, DefinitionOrigin, PayloadCall } from '../core/content-types.ts';
import type { JsonRecord } from '../core/json.ts';

/** A request the stub recorded, as far as a wire format looks at it. */
export interface WireRequest {
  method: string;
  /** Path and query as sent, e.g. `/v1/messages?beta=true`. */
  url: string;
  /** Header names in lower case. */
  headers: Record<string, string>;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: unknown;
}

/** A complete HTTP reply of the recording stub. */
export interface StubReply {
  status: number;
  contentType: string;
  body: string;
}

/**
 * The parts of a capture file (content/captures/<agent>/<configuration>.json)
 * that extraction reads. The type generated from schemas/capture.schema.json is
 * assignable to it.
 */
export interface CaptureFile<Agent extends string = string> {
  agent: Agent;
  cli: { package: string; version: string };
  configuration: string;
  request: { method: string; path: string };
  /** The tool-related keys of the request body, verbatim (see WireFormat.captureBody). */
  body: JsonRecord;
}

/** How the model is told about a tool in one configuration. */
export type Delivery =
  | 'function' // JSON Schema function tool
  | 'custom' // freeform tool with a grammar
  | 'hosted' // run by the model provider (web_search, image_generation …)
  | 'client-builtin' // a typed built-in the client runs (Codex tool_search)
  | 'code-mode' // nested tool declared in TypeScript inside code mode's exec
  | 'deferred' // named only; its schema is loaded later through tool search
  | 'defer-loading'; // sent with its schema and `defer_loading: true`: the model reaches it through tool search

export interface CapturedTool {
  name: string;
  namespace?: string;
  /** `namespace.name`, or `name`. */
  fullName: string;
  delivery: Delivery;
  description?: string;
  input: Definition;
  output: Definition;
  /** Settings of a hosted tool, or other fields sent beside the definition. */
  settings?: Record<string, unknown>;
  /**
   * RFC 6901 JSON pointer, in the capture FILE, of the tool's input definition:
   * `/body/tools/12/input_schema`, `/body/tools/4/parameters`,
   * `/body/input/0/tools/2/tools/0/parameters`, a grammar's
   * `/body/tools/5/format/definition`; for a tool nested in code mode the `exec`
   * tool's `/body/tools/N/description`; for a deferred tool the text that names
   * it. Where the capture has no input definition (hosted tools, a function sent
   * without a schema) the tool itself: `/body/tools/7`.
   */
  pointer: string;
  /**
   * JSON pointer, in the capture file, of the text that gives the tool its name:
   * `/body/tools/12/name`, `/body/tools/9/type` for a hosted tool named by its
   * type, else the same text as `pointer` (code mode, deferred names).
   */
  namePointer: string;
}

/** A namespace a capture names without its tools (Codex: deferred to tool_search). */
export interface DeferredNamespace {
  name: string;
  /** JSON pointer, in the capture file, of the text that names it. */
  pointer: string;
  /** Why the tools of the namespace have no definition here (the announcing agent's words). */
  reason: string;
}

/** What a capture body declares, for the capture script's summary line. */
export interface ToolCount {
  /** Callable tools, wherever declared (top level, namespaces, `additional_tools`). */
  tools: number;
  /** Namespaces (OpenAI Responses `type: "namespace"`). */
  namespaces: number;
  /** Tools declared with `defer_loading: true` (counted in `tools` too). */
  deferred: number;
  /**
   * Tools declared only inside the description of code mode's `exec` tool
   * (`declare const tools: { name(`), as in code-mode-only. (With code mode beside direct
   * tools, each direct tool's own description carries its declaration instead; those are
   * not counted here.)
   */
  nested: number;
  /** Tool names, with `namespace.` prefixes, in order. */
  names: string[];
}

/**
 * Text an agent writes into the conversation that names tools (or namespaces) whose
 * schemas it sends only later, through its own tool search. The wire formats keep the
 * passages in a capture, verbatim, and read the names back; which words mark them is
 * the agent's, declared in its module (src/lib/agents).
 */
export interface Announcement {
  /** The announcing passages inside one text of a message, verbatim (none: the text announces nothing). */
  passages(text: string): string[];
  /** The names one text of a message announces, in order. */
  names(text: string): string[];
  /**
   * What the model is told of a named tool (or namespace) and how it gets the schema: the reason its input is shown as
   * unavailable.
   */
  reason(name: string): string;
}

/** One nested tool as a code-mode layout declares it: TypeScript texts, not yet parsed into types. */
export interface DeclaredTool {
  /** Name as a JavaScript identifier on `tools` (`exec_command`, `clock__curr_time`). */
  identifier: string;
  /** The tool's name where the declaration gives one beside the identifier. */
  name?: string;
  /** The type text of its argument. */
  input: string;
  /** The type text of what its promise resolves to. */
  result: string;
  description?: string;
}

/** A nested tool of code mode, with self-contained declaration texts for its input and result. */
export interface NestedTool {
  /** Name as a JavaScript identifier on `tools` (`exec_command`, `clock__curr_time`). */
  identifier: string;
  /** The tool's name where the declaration gives one beside the identifier. */
  name?: string;
  description?: string;
  input: { typeName: string; source: string };
  /** Absent when the tool is declared to return only the layout's envelope, the same for every nested tool. */
  result?: { typeName: string; source: string };
}

/**
 * How an agent's code-mode `exec` tool declares, in TypeScript inside its description,
 * the tools it nests (./code-mode.ts reads the declarations the layout returns).
 */
export interface CodeModeLayout {
  /** Does this `exec` description declare nested tools in the layout? */
  declares(description: string): boolean;
  /** The identifiers it declares, read without parsing (for counting a request's tools). */
  identifiers(description: string): string[];
  /** The shared declarations and each nested tool; throws CodeModeError (./code-mode.ts) when they do not read. */
  declarations(description: string): { shared: string[]; tools: DeclaredTool[] };
  /**
   * A result type every nested tool returns (an envelope): a tool declared to return it has
   * no result type of its own, and its result is shown as unavailable for `reason`.
   */
  envelope?: { type: string; reason: string };
  /** A nested tool's name and namespace, given the `exec` tool's namespace. */
  nameOf(tool: NestedTool, execNamespace: string | undefined): { name: string; namespace?: string | undefined };
}

/**
 * What an agent does on a wire format that the format itself does not define: the
 * announcements of deferred tools and namespaces, and its code-mode layout. Declared
 * in the agent's module; the formats apply them and name no agent.
 */
export interface WireQuirks {
  /** Tools named in a message and loaded later through the agent's tool search. */
  deferredTools?: Announcement;
  /** Namespaces named in a message whose tools load later (OpenAI Responses). */
  deferredNamespaces?: Announcement;
  codeMode?: CodeModeLayout;
}

/**
 * Where extraction runs: the definitions' origin, the pointer of the body in the capture file, and the capturing
 * agent's quirks.
 */
export interface ExtractContext {
  origin: DefinitionOrigin;
  /** JSON pointer of the request body inside the capture file: `/body`. */
  pointer: string;
  quirks: WireQuirks;
}

/**
 * A capture whose body is not what its wire format allows. `pointer` is the RFC
 * 6901 JSON pointer, in the capture file, of the offending value (for a missing
 * member, of the object that lacks it); `tool` the tool's full name when known.
 * `message` says what is wrong, without the place.
 */
export class CaptureFormatError extends Error {
  readonly pointer: string;
  readonly tool: string | undefined;
  constructor(message: string, pointer: string, tool?: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'CaptureFormatError';
    this.pointer = pointer;
    this.tool = tool;
  }
}

/**
 * How a tool call is sent, as its wire format spells it: an Anthropic `tool_use` block; an
 * OpenAI Responses `function_call` or (freeform) `custom_tool_call` item; a Gemini API
 * `functionCall` part; an OpenAI Chat Completions tool call of type `function` or (freeform)
 * `custom`. Declared once, by the payload file schema (`kind` of a call).
 */
export type CallKind = NonNullable<PayloadCall['kind']>;

/** The input of a tool call: an arguments object, or the text of a freeform call. */
export type CallInput = Record<string, unknown> | string;

/** A tool call the stub makes in place of a reply (payload runs). */
export interface StubToolCall {
  /** From ToolCallWire.callId. */
  id: string;
  /** The tool's full name as the model calls it (`namespace.name` where the format has namespaces). */
  tool: string;
  input: CallInput;
}

/**
 * Tool calls through a wire format, as payload runs (scripts/lib/payloads) use them:
 * the stub replies with a call, and a later request carries the call's result.
 */
export interface ToolCallWire {
  /** How a call with this input is sent. */
  callKind(input: CallInput): CallKind;
  /** The id the stub gives its index-th call (0-based). */
  callId(index: number): string;
  /**
   * The reply that makes `call`; undefined when the request is not a model request of this format, or the format cannot
   * send such an input (a freeform call where it has none).
   */
  callReply(request: { method: string; path: string; json: unknown }, call: StubToolCall): StubReply | undefined;
  /** The result of call `id` that a request body carries, verbatim; undefined when it carries none. */
  findResult(body: unknown, id: string): JsonRecord | undefined;
  /** The text of such a result: its string content, or its text parts joined by newlines. */
  resultText(result: JsonRecord): string;
}

export interface WireFormat {
  /** The id agents refer to (src/lib/agents), e.g. `anthropic-messages`. */
  readonly id: string;
  /** e.g. `Anthropic Messages`. */
  readonly label: string;
  /** Used in messages: `an Anthropic Messages request`. */
  readonly requestLabel: string;
  /** The path of the request that carries the tools, for messages (may show a pattern). */
  readonly requestPath: string;
  /** Does a POST to `path` (no query string) carry the tools? Also picks the format of a capture file. */
  isToolRequestPath(path: string): boolean;
  /** Top-level request-body keys a capture keeps (in the order sent, not this order). */
  readonly keptKeys: readonly string[];

  // Recording (scripts/lib/capture)
  /** Why `body` is not a request body of this format; undefined when it is one. */
  problem(body: unknown): string | undefined;
  /** Does the client ask for a streamed reply? */
  isStreaming(request: WireRequest): boolean;
  /** The text of the last text part of the last user message. */
  lastUserText(body: unknown): string | undefined;
  /** Does the request body offer the model tools? */
  hasTools(body: unknown): boolean;
  /** The model a request asks for (its body's `model`, or the model in its path), or undefined when it names none. */
  requestModel(request: Pick<WireRequest, 'url' | 'json'>): string | undefined;
  /**
   * The tool-related part of a request body, verbatim and in the order sent (with the passages the agent's
   * announcements mark): what a capture stores.
   */
  captureBody(body: JsonRecord, quirks: WireQuirks): JsonRecord;
  /** Counts what a kept body declares. */
  countTools(body: JsonRecord, quirks: WireQuirks): ToolCount;
  /** The stub's minimal valid reply to a request of this format, or undefined when the request is not one. */
  stubReply(request: { method: string; path: string; json: unknown }): StubReply | undefined;

  // Extraction (the site build)
  /** Every tool a capture body advertises, in the order the model sees them; throws CaptureFormatError. */
  extractTools(body: JsonRecord, context: ExtractContext): CapturedTool[];
  /** Namespaces the body names without their tools. */
  deferredNamespaces(body: JsonRecord, context: ExtractContext): DeferredNamespace[];

  // Payload runs (scripts/lib/payloads); absent: the stub cannot make tool calls in this format yet.
  readonly toolCalls?: ToolCallWire;
}

/** A wire format through which the stub can make tool calls. */
export type CallingWireFormat = WireFormat & { readonly toolCalls: ToolCallWire };
