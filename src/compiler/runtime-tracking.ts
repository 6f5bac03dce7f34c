import { code } from "./code.js";
import type { HelperDefinition } from "./runtime.js";

/** Names of the annotation-tracking helpers. */
export type TrackingHelperName = "tracker" | "merge";

/** Run-time record of evaluated properties/items, for unevaluated* when static analysis is not enough. */
export const TRACKING_HELPERS: Record<TrackingHelperName, HelperDefinition> = {
  tracker: {
    deps: [],
    source: code`interface $Evaluated { all: boolean; n: number; k: Set<string | number> }
function $tracker(): $Evaluated {
  return { all: false, n: 0, k: new Set() };
}`,
  },
  merge: {
    deps: ["tracker"],
    source: code`function $merge(t: $Evaluated, s: $Evaluated): void {
  if (s.all) t.all = true;
  if (s.n > t.n) t.n = s.n;
  for (const x of s.k) t.k.add(x);
}`,
  },
};
