/**
 * The alternatives a sample builder picks among, per instance path, and how a failed check moves
 * them on. Each path has a counter; the choice points met at that path while building read it as
 * a mixed-radix number (the first point its lowest digit), so counting it up goes through every
 * combination of that path's alternatives. A failure at a path moves on the counter of the
 * deepest path that led to it and still has untried alternatives; deeper counters start over.
 */
export class Choices {
  readonly #counters = new Map<string, number>();
  #remaining = new Map<string, number>();
  #capacity = new Map<string, number>();

  /** Starts a build: every counter is read afresh. */
  start(): void {
    this.#remaining = new Map();
    this.#capacity = new Map();
  }

  /** Which of `count` alternatives to take at `path` (0 when there is no choice). */
  pick(path: string, count: number): number {
    if (count <= 1) return 0;
    const remaining = this.#remaining.get(path) ?? this.#counters.get(path) ?? 0;
    this.#remaining.set(path, Math.floor(remaining / count));
    this.#capacity.set(path, (this.#capacity.get(path) ?? 1) * count);
    return remaining % count;
  }

  /** Moves on after failures at these instance paths; false when nothing is left to try. */
  advance(failedAt: readonly string[]): boolean {
    let moved = false;
    for (const path of new Set(failedAt)) moved = this.#advanceFrom(path) || moved;
    return moved;
  }

  #advanceFrom(failed: string): boolean {
    const leading = [...this.#capacity.keys()].filter(
      (path) => path === failed || failed.startsWith(`${path}/`) || path === "",
    );
    for (const path of leading.sort((a, b) => b.length - a.length)) {
      const next = (this.#counters.get(path) ?? 0) + 1;
      if (next >= (this.#capacity.get(path) ?? 1)) continue;
      this.#counters.set(path, next);
      for (const key of [...this.#counters.keys()]) if (key.startsWith(`${path}/`)) this.#counters.delete(key);
      return true;
    }
    return false;
  }
}
