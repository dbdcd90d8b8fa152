/**
 * Content problems, each named by file, JSON pointer and rule, and the one
 * collector every loading stage reports to. Warnings (files that will be
 * ignored, a byte-order mark removed) are printed but do not stop the build.
 */

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
    super(
      `Invalid content (${errors.length} problem${errors.length === 1 ? '' : 's'}):\n` +
        errors.map((e) => `  - ${e.message}`).join('\n'),
    );
    this.problems = errors;
  }
}

export interface ContentWarning {
  file: string;
  message: string;
}

export class Problems {
  readonly errors: ContentError[] = [];
  readonly warnings: ContentWarning[] = [];
  /** Files already reported as unreadable: later stages skip what depends on them. */
  private readonly unreadable = new Set<string>();

  error(file: string, pointer: string, rule: string, message: string): void {
    // One root cause, one error: the same problem reached twice is kept once.
    if (this.errors.some((e) => e.file === file && e.pointer === pointer && e.rule === rule)) return;
    this.errors.push(new ContentError(file, pointer, rule, message));
  }

  warn(file: string, message: string): void {
    this.warnings.push({ file, message });
  }

  markUnreadable(file: string): void {
    this.unreadable.add(file);
  }

  isUnreadable(file: string): boolean {
    return this.unreadable.has(file);
  }

  get count(): number {
    return this.errors.length;
  }

  throwIfAny(): void {
    if (this.errors.length > 0) throw new ContentErrors(this.errors);
  }
}
