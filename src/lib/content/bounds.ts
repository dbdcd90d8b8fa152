/**
 * Size bounds of content JSON, checked right after parsing and before anything
 * else walks the data: Ajv, the payload checker and Astro's content store all
 * recurse, so 100,000 levels of nesting would end in a bare stack overflow, and
 * a 1 MB key or string would end up on a page. A `__proto__` key is refused too: Astro's
 * content store (devalue) cannot hold it and the build would fail with an empty message.
 * Each bound broken is one rule
 * error at the first place it is broken. The walk itself is iterative.
 *
 * The bounds leave wide room over today's content (deepest 20 levels, longest
 * key 40 characters, longest string 86,000 characters: a TypeScript
 * declaration in an SDK tool file).
 */
import { jsonPointer } from '../core/json.ts';

export const CONTENT_BOUNDS = {
  /** Levels of objects and arrays below the root. */
  depth: 64,
  /** Characters in one object key (field names become ids and table rows). */
  keyLength: 256,
  /** Characters in one string value. */
  stringLength: 256 * 1024,
} as const;

export interface BoundProblem {
  pointer: string;
  rule: 'json-depth' | 'json-key-length' | 'json-string-length' | 'json-key-stored';
  message: string;
}

/** The first place each bound is broken (at most one problem per rule), in document order. */
export function boundProblems(data: unknown, bounds: typeof CONTENT_BOUNDS = CONTENT_BOUNDS): BoundProblem[] {
  const found = new Map<BoundProblem['rule'], BoundProblem>();
  const report = (problem: BoundProblem): void => {
    if (!found.has(problem.rule)) found.set(problem.rule, problem);
  };
  // Depth-first with an explicit stack, children pushed in reverse so that document order is kept.
  const stack: { value: unknown; pointer: string; depth: number }[] = [{ value: data, pointer: '', depth: 0 }];
  while (stack.length > 0) {
    const { value, pointer, depth } = stack.pop()!;
    if (typeof value === 'string') {
      if (value.length > bounds.stringLength)
        report({
          pointer,
          rule: 'json-string-length',
          message: `a string of ${value.length} characters; content strings hold at most ${bounds.stringLength}`,
        });
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (depth >= bounds.depth) {
      report({
        pointer,
        rule: 'json-depth',
        message:
          `nested more than ${bounds.depth} levels deep; content is at most ${bounds.depth} levels of ` +
          `objects and arrays`,
      });
      continue; // nothing below is looked at
    }
    const children: { value: unknown; pointer: string; depth: number }[] = [];
    if (Array.isArray(value))
      value.forEach((item, i) => children.push({ value: item, pointer: jsonPointer(pointer, i), depth: depth + 1 }));
    else {
      for (const [key, item] of Object.entries(value)) {
        if (key === '__proto__') {
          report({
            pointer: jsonPointer(pointer, key),
            rule: 'json-key-stored',
            message:
              `the key "__proto__": Astro's content store cannot hold an object with this key (it would end ` +
              `the build with no message), so no content file may use it`,
          });
          continue;
        }
        if (key.length > bounds.keyLength) {
          report({
            pointer: jsonPointer(pointer, key.slice(0, 40) + '…'),
            rule: 'json-key-length',
            message: `a key of ${key.length} characters; keys hold at most ${bounds.keyLength}`,
          });
          continue;
        }
        children.push({ value: item, pointer: jsonPointer(pointer, key), depth: depth + 1 });
      }
    }
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return [...found.values()];
}
