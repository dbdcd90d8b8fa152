/** A content problem, named by file, JSON pointer and rule; and the list of all of them. */

export class ContentError extends Error {
  readonly file: string;
  readonly pointer: string;
  readonly rule: string;
  constructor(file: string, pointer: string, rule: string, message: string) {
    super(`${file}: ${pointer === '' ? '/' : pointer}: ${message} [rule: ${rule}]`);
    this.file = file;
    this.pointer = pointer;
    this.rule = rule;
  }
}

export class ContentErrors extends Error {
  // Not named `errors`: tools that treat such an object as an AggregateError would print only the first.
  readonly problems: ContentError[];
  constructor(errors: ContentError[]) {
    super(`Invalid content (${errors.length} problem${errors.length === 1 ? '' : 's'}):\n` + errors.map((e) => `  - ${e.message}`).join('\n'));
    this.problems = errors;
  }
}
