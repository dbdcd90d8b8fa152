/**
 * The seeded random sample `npm run verify` re-checks. Pure: the same seed and the same
 * items give the same sample, so a run can be repeated (`--seed N`).
 *
 * The sample is spread across agents: the agents are put in a seeded random order, each gets
 * `floor(count / agents)` items and the first `count % agents` one more; an agent that has
 * fewer items than its share gives the rest to the others (in that order). Within an agent,
 * items are drawn uniformly without replacement. The result lists the items agent by agent
 * (the seeded order), each agent's in the order drawn.
 */

/** A 32-bit seeded generator (mulberry32): numbers in [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A seed when none is given: random, printed by the caller so that the run can be repeated. */
export function randomSeed(): number {
  return Math.floor(Math.random() * 2 ** 31);
}

/** `items` in a seeded random order (Fisher–Yates); the input is left alone. */
export function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/**
 * How many items each agent gives: an even share, the remainder to the first agents, the shortfall of small agents to
 * the others.
 */
export function shares(available: readonly (readonly [string, number])[], count: number): Map<string, number> {
  const out = new Map<string, number>(available.map(([agent]) => [agent, 0]));
  let left = Math.min(
    count,
    available.reduce((n, [, k]) => n + k, 0),
  );
  // Deal one at a time, round-robin, to the agents that still have items.
  while (left > 0) {
    for (const [agent, k] of available) {
      if (left === 0) break;
      const taken = out.get(agent)!;
      if (taken < k) {
        out.set(agent, taken + 1);
        left--;
      }
    }
  }
  return out;
}

export interface Drawn<T> {
  agent: string;
  item: T;
}

/** `count` items of `byAgent` (agent → its items), spread across agents (see above). */
export function drawSample<T>(byAgent: ReadonlyMap<string, readonly T[]>, count: number, seed: number): Drawn<T>[] {
  if (!Number.isInteger(count) || count < 0)
    throw new Error(`a sample size must be a whole number of at least 0, not ${count}`);
  const random = seededRandom(seed);
  const agents = shuffled([...byAgent.keys()].sort(), random);
  const share = shares(
    agents.map((a) => [a, byAgent.get(a)!.length] as const),
    count,
  );
  const out: Drawn<T>[] = [];
  for (const agent of agents) {
    const picked = shuffled(byAgent.get(agent)!, random).slice(0, share.get(agent)!);
    for (const item of picked) out.push({ agent, item });
  }
  return out;
}
