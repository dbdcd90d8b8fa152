/**
 * What a tool's "Check a payload" form is given, as plain data: the schema it checks against, the names a payload may
 * call the tool by and what was recorded of its hook payloads. Computed when content is loaded
 * (content/tool-facts.ts); the page words it (views/tool-page-view.ts) and the browser's checker reads it
 * (check/payload-check-ui.ts).
 */

/** The table (and schema) a tool's checker uses: its root is also the id of that table's heading. */
export type CheckedSection = 'input' | 'model-input';

export interface PayloadCheckTarget {
  section: CheckedSection;
  /** The published schema, beside the page: `model-input.schema.json`. */
  schemaFile: string;
  /** The precompiled validator, beside the page: `validate-model-input.js`. */
  validatorFile: string;
}

/**
 * Where a hook payload of the tool's agent carries its event, tool name and input (the agent's
 * HookShape, as the page passes it): a member's name, or a dotted path to a nested one
 * (OpenCode's `output.args`).
 */
export interface HookFields {
  /** Absent where the payloads name no event (Copilot CLI's camelCase hooks). */
  event?: string | undefined;
  toolName: string;
  input: string;
  inputEncoding: 'object' | 'json-string';
}

/**
 * What the checker knows of the answers the tool's hooks may give (content/hook-outputs/): the
 * top-level members any of the checked events declares, where an answer names its event, and
 * per event the schema and its precompiled validator, relative to the page.
 */
export interface HookOutputCheck {
  /** `@anthropic-ai/claude-agent-sdk@0.3.335, sdk.d.ts`. */
  source: string;
  members: string[];
  /** `hookSpecificOutput.hookEventName`, where answers name their event. */
  eventField?: string;
  events: { event: string; schema: string; validator: string }[];
}

/** A recorded hook tool_input's form, when it is not the model's input. */
export interface HookForm {
  /** The JSON types the recorded tool_inputs had (`object`; numbers are `number`). */
  types: string[];
  /**
   * For object tool_inputs: each field seen, the JSON types of its unmasked values, and whether every recorded one had
   * it.
   */
  fields: { name: string; types: string[]; always: boolean }[];
}

/**
 * What the site recorded of a tool's hook payloads (content/payloads/, the
 * calls of this tool), as the build passes it to the form (`data-hook`).
 */
export interface HookRecord {
  /** The `tool_name`s the recorded hook payloads gave the tool, in order of first use. */
  names: string[];
  /** How many recorded hook payloads carry a tool_input. */
  count: number;
  /** `<product> <version>`s they were recorded with. */
  release?: string;
  /**
   * Present when the recorded tool_input is not the model's input (Ajv rejects it where the call's input passes): its
   * form.
   */
  form?: HookForm;
  /** The members its agent's hook payloads use, when the agent has a hook shape. */
  fields?: HookFields;
  /** Its other forms, tried after `fields` (Copilot CLI's PascalCase payloads; OpenCode's after-call input), if any. */
  otherFields?: HookFields[];
  /**
   * The hook schema of the tool (`hooks.schema.json`) and its precompiled validator (`validate-hooks.js`), relative to
   * the page, when payloads are recorded.
   */
  schema?: string;
  validator?: string;
  /** The answers its hooks may give, where the agent's published code declares them. */
  outputs?: HookOutputCheck;
}

/** A tool's checker, as the loader computes it: what it checks against, under which names, and its hook payloads. */
export interface PayloadCheckRecord {
  target: PayloadCheckTarget;
  /** Every name a payload may call it by (its own, then accepted aliases and former names). */
  names: string[];
  hook: HookRecord;
}
