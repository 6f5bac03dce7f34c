import fc from "fast-check";
import { define } from "./arbitrary.js";

/** Values that tend to sit on a boundary of some keyword. */
const TRICKY_VALUES: unknown[] = [
  1.0,
  1.5,
  "1",
  "",
  "-1",
  0,
  -1,
  2 ** 31,
  2 ** 53,
  1e21,
  0.07,
  19.99,
  0.071,
  null,
  true,
  [],
  {},
  [1, 1],
  [{ a: 1 }, { a: 1 }],
  "😀".repeat(151),
  "x".repeat(300),
  "abc-1",
  "-abc",
  "2023-02-29",
  "2024-02-29",
  "2024-01-15T10:00:00Z",
  "not-a-uuid",
];

/** Keys that tend to confuse property handling. */
const TRICKY_KEYS = ["__proto__", "constructor", "toString", "extra", "a/b", "~", ""];

interface Mutation {
  readonly kind: "replace" | "delete" | "add";
  readonly target: number;
  readonly key: string;
  readonly value: unknown;
}

const mutationArbitrary: fc.Arbitrary<Mutation> = fc.record({
  kind: fc.constantFrom("replace", "delete", "add"),
  target: fc.nat(),
  key: fc.oneof(fc.constantFrom(...TRICKY_KEYS), fc.string({ maxLength: 4 })),
  value: fc.oneof(fc.constantFrom(...TRICKY_VALUES), fc.jsonValue({ maxDepth: 1 })),
});

/** Mixes unchanged instances with mutated ones (one random edit somewhere in the value). */
export function withMutations(arbitrary: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  const mutated = fc.tuple(arbitrary, mutationArbitrary).map(([value, mutation]) => mutate(value, mutation));
  return fc.oneof({ weight: 3, arbitrary }, { weight: 2, arbitrary: mutated });
}

function containers(value: unknown, found: object[] = []): object[] {
  if (typeof value !== "object" || value === null) return found;
  found.push(value);
  for (const child of Object.values(value)) containers(child, found);
  return found;
}

function mutate(original: unknown, mutation: Mutation): unknown {
  const value = original === undefined ? null : (JSON.parse(JSON.stringify(original)) as unknown);
  const targets = containers(value);
  const target = targets[mutation.target % Math.max(targets.length, 1)];
  if (target === undefined) return mutation.value;
  const keys = Object.keys(target);
  const key = keys[mutation.target % Math.max(keys.length, 1)];
  if (Array.isArray(target)) {
    if (mutation.kind === "add" || key === undefined) target.push(mutation.value);
    else if (mutation.kind === "delete") target.splice(Number(key), 1);
    else target[Number(key)] = mutation.value;
  } else if (mutation.kind === "add" || key === undefined) {
    define(target, mutation.key, mutation.value);
  } else if (mutation.kind === "delete") {
    delete (target as Record<string, unknown>)[key];
  } else {
    define(target, key, mutation.value);
  }
  return value;
}
