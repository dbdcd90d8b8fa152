/**
 * Build time only: the state of an Ajv instance that compiling a schema
 * changes, saved once and put back before each compile, so that one instance
 * can stand in for a fresh one.
 *
 * Why: Ajv's standalone code names its functions and constants by counters
 * of the instance (`validate20`, `schema31`, `pattern4`), and a fresh instance
 * first compiles the 2020-12 meta-schema (to check the schema), which takes
 * `validate0`…`validate19` and most of the time. A validator module is
 * generated per tool (src/lib/check/payload-validator.ts), each by a fresh instance:
 * a few hundred meta-schema compiles per build. Saving the instance right
 * after that compile and restoring it gives the same counters and the same
 * registered values, so the same code, for the cost of one.
 *
 * What a compile changes: the value scope (name counters, values by prefix
 * and key, the store behind them) and the schema registries (`refs`,
 * `schemas`, and the cache by schema object). These are Ajv's own fields,
 * some of them protected: test/unit/payload-validator.test.ts checks that
 * the code is exactly what a fresh instance writes, for the site's schemas
 * and for schemas that reuse what the meta-schema registered.
 */
import type { Ajv2020 } from 'ajv/dist/2020.js';

/** Ajv's own fields behind the public types (ajv 8: lib/compile/codegen/scope.ts, lib/core.ts). */
interface Internals {
  scope: {
    _names: Record<string, { prefix: string; index: number } | undefined>;
    _values: Record<string, Map<unknown, unknown> | undefined>;
    get(): Record<string, unknown[] | undefined>;
  };
  refs: Record<string, unknown>;
  schemas: Record<string, unknown>;
  _cache: Map<unknown, unknown>;
}

export interface AjvState {
  names: Map<string, number>;
  values: Map<string, Map<unknown, unknown>>;
  store: Map<string, number>;
  refs: Map<string, unknown>;
  schemas: Map<string, unknown>;
  cache: Map<unknown, unknown>;
}

function internals(ajv: Ajv2020): Internals {
  const self = ajv as unknown as Internals;
  const { scope } = self;
  if (
    typeof scope?._names !== 'object' ||
    typeof scope._values !== 'object' ||
    typeof scope.get !== 'function' ||
    !(self._cache instanceof Map)
  ) {
    throw new Error('this version of Ajv keeps its compile state elsewhere: src/lib/check/ajv-state.ts needs updating');
  }
  return self;
}

export function saveState(ajv: Ajv2020): AjvState {
  const { scope, refs, schemas, _cache } = internals(ajv);
  const entries = <T>(record: Record<string, T | undefined>) =>
    [...Object.entries(record)].filter((e): e is [string, T] => e[1] !== undefined);
  return {
    names: new Map(entries(scope._names).map(([prefix, group]) => [prefix, group.index])),
    values: new Map(entries(scope._values).map(([prefix, values]) => [prefix, new Map(values)])),
    store: new Map(entries(scope.get()).map(([prefix, items]) => [prefix, items.length])),
    refs: new Map(Object.entries(refs)),
    schemas: new Map(Object.entries(schemas)),
    cache: new Map(_cache),
  };
}

/** Puts every saved field back as it was; what was added since is removed. */
export function restoreState(ajv: Ajv2020, state: AjvState): void {
  const { scope, refs, schemas, _cache } = internals(ajv);
  for (const prefix of Object.keys(scope._names)) {
    const index = state.names.get(prefix);
    if (index === undefined) delete scope._names[prefix];
    else scope._names[prefix]!.index = index;
  }
  for (const prefix of Object.keys(scope._values)) {
    const saved = state.values.get(prefix);
    if (saved === undefined) delete scope._values[prefix];
    else {
      const values = scope._values[prefix]!;
      values.clear();
      for (const [key, name] of saved) values.set(key, name);
    }
  }
  const store = scope.get();
  for (const prefix of Object.keys(store)) {
    const length = state.store.get(prefix);
    if (length === undefined) delete store[prefix];
    else store[prefix]!.length = length;
  }
  const reset = (record: Record<string, unknown>, saved: Map<string, unknown>) => {
    for (const key of Object.keys(record)) if (!saved.has(key)) delete record[key];
    for (const [key, value] of saved) record[key] = value;
  };
  reset(refs, state.refs);
  reset(schemas, state.schemas);
  _cache.clear();
  for (const [key, value] of state.cache) _cache.set(key, value);
}
