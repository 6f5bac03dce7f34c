/** Run-time record of evaluated properties/items, for unevaluated* when static analysis is not enough. */

export interface $Evaluated { all: boolean; n: number; k: Set<string | number> }
export function $tracker(): $Evaluated {
  return { all: false, n: 0, k: new Set() };
}

export function $merge(t: $Evaluated, s: $Evaluated): void {
  if (s.all) t.all = true;
  if (s.n > t.n) t.n = s.n;
  for (const x of s.k) t.k.add(x);
}
