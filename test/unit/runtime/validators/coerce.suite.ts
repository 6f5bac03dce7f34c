import { describe, expect, it } from "vitest";
import {
  $coerce,
  $coercePlan,
  $coerceProps,
  $integerProps,
  $integerText,
  $invalidIntegerText,
  $invalidText,
  $withOwn,
} from "../../../../runtime/validators/helpers/coerce.js";

const INTEGER = 1;
const NUMBER = 2;
const BOOLEAN = 4;
const NULL = 8;
const STRING = 16;

/** Values converted by property name: own keys, "__proto__", inherited ones, and no object at all. */
const BY_NAME: readonly unknown[] = [
  JSON.parse('{"__proto__":"5","a":"2"}'),
  { a: "x", id: 4 },
  { c: "keep" },
  Object.create({ a: "1" }),
  "1",
  ["1"],
  null,
];

describe("coercion helpers", () => {
  it("$coerce converts canonical text only: integers in the safe range, JSON numbers, true/false, null", () => {
    expect($coerce("42", INTEGER)).toBe(42);
    expect($coerce("-0", INTEGER)).toBe("-0");
    expect($coerce("007", INTEGER)).toBe("007");
    expect($coerce("9007199254740993", INTEGER)).toBe("9007199254740993");
    expect($coerce("1.5e3", NUMBER)).toBe(1500);
    expect($coerce("1e999", NUMBER)).toBe("1e999");
    expect($coerce("true", BOOLEAN)).toBe(true);
    expect($coerce("null", NULL)).toBeNull();
    expect($coerce("42", INTEGER | STRING)).toBe("42");
    expect($coerce(42, INTEGER)).toBe(42);
  });

  it("$coercePlan converts along a plan and copies only what changes", () => {
    const value = { a: "1", b: ["true", "x"], c: "keep" };
    const plan = [0, { a: INTEGER, b: [1, BOOLEAN] }, 0] as const;
    const converted = $coercePlan(value, plan);
    expect(converted).toEqual({ a: 1, b: [true, "x"], c: "keep" });
    expect(value).toEqual({ a: "1", b: ["true", "x"], c: "keep" });
    const unchanged = { c: "keep" };
    expect($coercePlan(unchanged, plan)).toBe(unchanged);
    // a single value where a list is expected is a list of one
    expect($coercePlan("2", [1, INTEGER])).toEqual([2]);
  });

  it("$integerText converts as $coerce converts an integer alone", () => {
    for (const text of [
      "42",
      "-7",
      "0",
      "-0",
      "007",
      "+1",
      "1e3",
      "1.0",
      "9007199254740991",
      "9007199254740992",
      "x",
      "",
    ])
      expect($integerText(text)).toBe($coerce(text, INTEGER));
    expect($integerText(42)).toBe(42);
    expect($integerText(null)).toBeNull();
  });

  it("$integerText reads only the canonical decimal of a safe integer", () => {
    const integers = ["0", "42", "-7", "9007199254740991", "-9007199254740991"];
    expect(integers.map($integerText)).toEqual([0, 42, -7, 9007199254740991, -9007199254740991]);
    const others = [" 1", "1 ", "0x10", "0b1", "Infinity", "-9007199254740992", "1e21", "-", "-00", "٣"];
    expect(others.filter((text) => $integerText(text) !== text)).toEqual([]);
  });

  it("$coerceProps converts a plan of scalars by name as $coercePlan does, and copies only what changes", () => {
    const plan = JSON.parse(`{"a":${INTEGER},"b":${BOOLEAN | NULL},"__proto__":${INTEGER}}`) as Readonly<
      Record<string, number>
    >;
    const values: unknown[] = [{ a: "1", b: "null", c: "3" }, { a: "x", b: "true" }, ...BY_NAME];
    for (const value of values) {
      const general = $coercePlan(value, [0, plan, 0]);
      expect($coerceProps(value, plan)).toEqual(general);
      if (general === value) expect($coerceProps(value, plan)).toBe(value);
    }
    expect(Object.hasOwn($coerceProps(JSON.parse('{"__proto__":"5"}'), plan) as object, "__proto__")).toBe(true);
  });

  it("$integerProps converts integers by name as $coercePlan does, and copies only what changes", () => {
    const names = ["a", "__proto__", "id"];
    const plan = [0, JSON.parse(`{"a":${INTEGER},"__proto__":${INTEGER},"id":${INTEGER}}`), 0] as const;
    const values: unknown[] = [{ id: "7", other: "8" }, { id: "07" }, { other: "1", a: "2", id: "-3" }, ...BY_NAME];
    for (const value of values) {
      const general = $coercePlan(value, plan);
      const converted = $integerProps(value, names);
      expect(converted).toEqual(general);
      // the keys in their order
      if (typeof general === "object" && general !== null)
        expect(Object.keys(converted as object)).toEqual(Object.keys(general));
      if (general === value) expect(converted).toBe(value);
    }
    const proto = $integerProps(JSON.parse('{"__proto__":"5"}'), names) as object;
    expect(Object.hasOwn(proto, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(proto)).toBe(Object.prototype);
    expect($integerProps({ id: "7", other: "8" }, ["id"])).toEqual({ id: 7, other: "8" });
    expect($integerProps({ id: "07" }, ["id"])).toEqual({ id: "07" });
  });

  it("$withOwn sets an own property, even one named __proto__", () => {
    const copy = $withOwn({ a: 1 }, null, "__proto__", 2);
    expect(Object.hasOwn(copy, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
  });

  it("$withOwn copies the object once more for each key, in place, the source untouched", () => {
    const src = { a: "1", b: "x", c: "3" };
    const first = $withOwn(src, null, "c", 3);
    const second = $withOwn(src, first, "a", 1);
    expect(Object.entries(second)).toEqual([
      ["a", 1],
      ["b", "x"],
      ["c", 3],
    ]);
    expect(src).toEqual({ a: "1", b: "x", c: "3" });
  });

  it("$invalidText says which texts convert, and that a name was sent several times", () => {
    const r = {
      valid: true,
      value: { limit: "ten", ids: ["1", "2"] },
      errors: [
        {
          instancePath: "/limit",
          schemaPath: "#",
          keyword: "type",
          params: { type: "integer" },
          message: "/limit must be integer",
        },
        {
          instancePath: "/ids",
          schemaPath: "#",
          keyword: "type",
          params: { type: "integer" },
          message: "/ids must be integer",
        },
      ],
    };
    const result = $invalidText(r);
    expect(result.valid).toBe(false);
    expect(result.errors.map((error) => error.message)).toEqual([
      expect.stringMatching(/^\/limit must be integer \(an integer is written in decimal digits/),
      "/ids must be integer (it was sent 2 times)",
    ]);
  });

  it("$invalidIntegerText says what $invalidText says of values whose every conversion is of an integer", () => {
    const failure = (instancePath: string, keyword: string, type?: string) => ({
      instancePath,
      schemaPath: "#",
      keyword,
      params: type === undefined ? {} : { type },
      message: `${instancePath} must be ${type ?? "something"}`,
    });
    const sink = () => ({
      valid: true,
      // __proto__ as an own property, as a parameter of that name is read
      value: JSON.parse(
        '{"limit":"ten","ids":["1","2"],"a/b~c":"x","__proto__":"y","n":5,"name":["p","q"]}',
      ) as unknown,
      errors: [
        failure("/limit", "type", "integer"),
        failure("/ids", "type", "integer"),
        failure("/a~1b~0c", "type", "integer"),
        failure("/__proto__", "type", "integer"),
        failure("/n", "type", "integer"),
        failure("/name", "type", "string"),
        failure("/limit", "minimum"),
        failure("/missing", "type", "integer"),
        failure("", "type", "object"),
      ],
    });
    const general = $invalidText(sink());
    const integers = $invalidIntegerText(sink());
    expect(integers).toEqual(general);
    expect(integers.errors.map((error) => error.message)).toEqual([
      expect.stringMatching(/^\/limit must be integer \(an integer is written in decimal digits/),
      "/ids must be integer (it was sent 2 times)",
      expect.stringMatching(/^\/a~1b~0c must be integer \(an integer is written/),
      expect.stringMatching(/^\/__proto__ must be integer \(an integer is written/),
      "/n must be integer",
      "/name must be string (it was sent 2 times)",
      "/limit must be something",
      "/missing must be integer",
      " must be object",
    ]);
  });
});
