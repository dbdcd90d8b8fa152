/**
 * A tool's place in its agent's built-in subagents' tool sets (content/subagents/), as plain data: the table on the
 * page of the tool that starts them, and each tool's line saying which types were offered it. Computed when content
 * is loaded (behaviour/subagents.ts, content/tool-facts.ts).
 */

export interface SubagentRow {
  type: string;
  /** What the main thread is told the type gets, in the CLI's words. */
  declared: string | undefined;
  tools: { name: string; url: string | undefined }[];
  /** Tools the main thread was offered and this type was not. */
  notOffered: string[];
}

export interface SubagentTable {
  /** `Claude Code 2.1.335`, configuration `print-no-tool-search`. */
  release: string;
  configuration: string;
  file: string;
  /**
   * Whether the agent's module says where its main thread is told what a type gets (the table then has that column).
   */
  declared: boolean;
  rows: SubagentRow[];
}

export interface SubagentLine {
  /** Types whose first request offered the tool. */
  offeredTo: string[];
  /** Types whose first request did not. */
  notTo: string[];
  /** The table, on the starting tool's page. */
  href: string | undefined;
  release: string;
}
