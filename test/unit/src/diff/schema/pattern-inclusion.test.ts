/**
 * Pattern inclusion (src/diff/schema/pattern-inclusion.ts): which of two patterns accepts more,
 * for the shapes it reads, and "not worked out" for the others; every verdict it gives holds on
 * the strings tried.
 */
import { describe, expect, it } from "vitest";
import { comparePatterns } from "../../../../../src/diff/schema/pattern-inclusion.js";

const CASES: readonly (readonly [string, string, ReturnType<typeof comparePatterns>])[] = [
  ["^[a-z]+$", ".+", "more"],
  ["^[a-z]+$", "^[a-c]+$", "fewer"],
  ["^[a-z]+$", "^[a-z]*$", "more"],
  ["^[a-z]{2,5}$", "^[a-z]{3,4}$", "fewer"],
  ["^\\d+$", "^[0-9]+$", "same"],
  ["^[^,]+$", "^[a-z]+$", "fewer"],
  ["^[A-Z]", "^[A-Z]{2}", "fewer"],
  ["[0-9]", "[0-9]{3}", "fewer"],
  ["[a-z]$", "^[a-z]+$", "fewer"],
  ["^(draft|final)$", "^(draft|final|void)$", "more"],
  ["^(?:a|b)$", "^[a-z]$", "more"],
  ["^(a|b)$", "^(b|a)$", "same"],
  ["^[a-z]+$", "^[A-Z]+$", undefined],
  ["^[A-Z][a-z]", "^[A-Z]", undefined],
  ["^\\s+$", "^ +$", undefined],
  ["^(a|b)+$", "^a+$", undefined],
];

/** Strings to try each pattern on: short ones over a small alphabet, and a few longer ones. */
const SAMPLES = (() => {
  const alphabet = ["a", "c", "z", "A", "0", "5", ",", " ", "\n", "-"];
  const strings = [""];
  for (let length = 1; length <= 3; length++)
    for (const prefix of strings.filter((text) => text.length === length - 1))
      for (const char of alphabet) strings.push(prefix + char);
  return [...strings, "draft", "final", "void", "abcdef", "ABC", "12345", "Aa", "b"];
})();

describe("pattern inclusion", () => {
  it.each(CASES)("%s → %s: %s", (before, after, expected) => {
    expect(comparePatterns(before, after)).toBe(expected);
  });

  it("holds on every string tried, for each verdict it gives", () => {
    for (const [before, after, verdict] of CASES) {
      const [was, is] = [new RegExp(before, "u"), new RegExp(after, "u")];
      const lost = SAMPLES.filter((text) => was.test(text) && !is.test(text));
      const gained = SAMPLES.filter((text) => !was.test(text) && is.test(text));
      if (verdict === "fewer" || verdict === "same") expect(gained, `${before} → ${after}`).toEqual([]);
      if (verdict === "more" || verdict === "same") expect(lost, `${before} → ${after}`).toEqual([]);
    }
  });
});
