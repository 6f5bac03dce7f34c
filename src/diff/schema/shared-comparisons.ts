import type { Finding } from "../findings/finding.js";

/**
 * The comparisons of component pairs, shared by every operation that reaches them: each pair's
 * own findings (its nested components left out), and which pairs each place reaches. A component
 * used by many operations, or inside many others, is compared once, and its findings are not
 * copied into every schema that contains it.
 */
export interface SharedComparisons {
  /** per pair: its own findings; undefined while it is being compared */
  readonly own: Map<string, readonly Finding[] | undefined>;
  /** per place (an operation, a component pair, a component): the pairs it reaches directly */
  readonly edges: Map<string, Set<string>>;
}

/** No comparisons yet. */
export function createSharedComparisons(): SharedComparisons {
  return { own: new Map(), edges: new Map() };
}

/** Notes that a place reaches a component pair. */
export function recordReach(shared: SharedComparisons, from: string, pair: string): void {
  const edges = shared.edges.get(from) ?? new Set<string>();
  edges.add(pair);
  shared.edges.set(from, edges);
}

/** Every component pair a place reaches, directly or through other pairs. */
export function pairsReachedFrom(shared: SharedComparisons, origin: string): string[] {
  const reached = new Set<string>();
  const pending = [...(shared.edges.get(origin) ?? [])];
  for (let pair = pending.pop(); pair !== undefined; pair = pending.pop()) {
    if (reached.has(pair)) continue;
    reached.add(pair);
    pending.push(...(shared.edges.get(pair) ?? []));
  }
  return [...reached];
}

/** Per pair, the origins (e.g. operations) that reach it, each listed once, in the order given. */
export function originsByPair(shared: SharedComparisons, origins: readonly string[]): Map<string, string[]> {
  const byPair = new Map<string, string[]>();
  for (const origin of origins) {
    for (const pair of pairsReachedFrom(shared, origin)) byPair.set(pair, [...(byPair.get(pair) ?? []), origin]);
  }
  return byPair;
}
