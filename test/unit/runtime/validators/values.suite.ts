import { describe, expect, it } from "vitest";
import { $merge, $tracker } from "../../../../runtime/validators/helpers/tracking.js";
import {
  $cpLen,
  $duplicate,
  $equal,
  $hop,
  $json,
  $multipleOf,
  $ownKeys,
  $regex,
  $regexWithoutUnicode,
  $setOf,
} from "../../../../runtime/validators/helpers/values.js";

describe("value helpers", () => {
  it("$cpLen counts code points: a surrogate pair is one, a lone surrogate is one", () => {
    expect($cpLen("abc")).toBe(3);
    expect($cpLen("a😀b")).toBe(3);
    expect($cpLen("\ud83d")).toBe(1);
    expect($cpLen("")).toBe(0);
    // pairs are taken left to right: a high surrogate before a pair, a low one after it, stand alone
    expect($cpLen("\ud83d\ud83d\ude00\ude00")).toBe(3);
    expect($cpLen("\ude00\ud83d")).toBe(2);
  });

  it("$equal compares JSON values deeply, key order aside", () => {
    expect($equal({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] })).toBe(true);
    expect($equal({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(true);
    expect($equal([1, 2], [2, 1])).toBe(false);
    expect($equal({ a: undefined }, { b: undefined })).toBe(false);
    expect($equal(1, "1")).toBe(false);
    expect($equal(null, {})).toBe(false);
  });

  it("$duplicate finds the first pair of equal items", () => {
    expect($duplicate([1, 2, 3, 2])).toEqual([1, 3]);
    expect($duplicate([{ a: 1 }, { a: 2 }, { a: 1 }])).toEqual([0, 2]);
    expect($duplicate([1, "1", true])).toBeNull();
    expect($duplicate([])).toBeNull();
  });

  it("$multipleOf is exact for decimal divisors (m / 10^k)", () => {
    expect($multipleOf(0.3, 1, 1)).toBe(true);
    expect($multipleOf(19.99, 1, 2)).toBe(true);
    expect($multipleOf(0.35, 1, 1)).toBe(false);
    expect($multipleOf(1e21, 5, 1)).toBe(true);
    expect($multipleOf(1.23e-7, 1, 2)).toBe(false);
    expect($multipleOf(Number.POSITIVE_INFINITY, 1, 1)).toBe(false);
  });

  it("builds module constants: JSON, patterns with and without the u flag, sets", () => {
    expect($json('{"__proto__":1}')).toEqual(JSON.parse('{"__proto__":1}'));
    expect($regex("^\\p{L}+$").test("été")).toBe(true);
    expect($regexWithoutUnicode("\\:").test(":")).toBe(true);
    expect($setOf([1, "a"]).has("a")).toBe(true);
  });

  it("$ownKeys gives an object's own names, without a prototype", () => {
    const keys = $ownKeys({ a: 1, constructor: 2 });
    expect(Object.getPrototypeOf(keys)).toBeNull();
    expect($hop.call(keys, "constructor")).toBe(true);
    expect($hop.call(keys, "toString")).toBe(false);
  });

  it("$tracker and $merge record evaluated names and item counts", () => {
    const target = $tracker();
    const source = $tracker();
    source.n = 2;
    source.k.add("a");
    $merge(target, source);
    expect(target).toEqual({ all: false, n: 2, k: new Set(["a"]) });
    source.all = true;
    $merge(target, source);
    expect(target.all).toBe(true);
  });
});
