import { describe, expect, it } from "vitest";
import { validatorFor } from "./support/compile-helpers.js";

describe("string length counts Unicode code points", () => {
  it("accepts 150 astral characters under maxLength 150 and rejects 151", async () => {
    const validate = await validatorFor({ type: "string", maxLength: 150 });
    expect(validate("😀".repeat(150)).valid).toBe(true);
    expect(validate("😀".repeat(151)).valid).toBe(false);
    expect(validate("a".repeat(150)).valid).toBe(true);
    expect(validate("a".repeat(151)).valid).toBe(false);
  });

  it("counts astral characters once for minLength", async () => {
    const validate = await validatorFor({ type: "string", minLength: 3 });
    expect(validate("😀😀").valid).toBe(false);
    expect(validate("😀😀😀").valid).toBe(true);
    expect(validate("ab").valid).toBe(false);
  });

  it("counts a lone surrogate as one character", async () => {
    const validate = await validatorFor({ type: "string", maxLength: 1 });
    expect(validate("\ud800").valid).toBe(true);
    expect(validate("\ud800\ud800").valid).toBe(false);
  });
});

describe("pattern is an ECMA-262 regex with the u flag, searched not anchored", () => {
  it("accepts abc-1 and rejects -abc for ^[A-Za-z0-9]+", async () => {
    const validate = await validatorFor({ type: "string", pattern: "^[A-Za-z0-9]+" });
    expect(validate("abc-1").valid).toBe(true);
    expect(validate("-abc").valid).toBe(false);
  });

  it("finds a match anywhere in the string", async () => {
    const validate = await validatorFor({ pattern: "b+" });
    expect(validate("aaabbbccc").valid).toBe(true);
    expect(validate("aaaccc").valid).toBe(false);
  });

  it("uses Unicode semantics", async () => {
    const validate = await validatorFor({ pattern: "^.$" });
    expect(validate("😀").valid).toBe(true);
  });
});

describe("date format knows leap years", () => {
  it("rejects 2023-02-29 and accepts 2024-02-29", async () => {
    const validate = await validatorFor({ type: "string", format: "date" });
    expect(validate("2023-02-29").valid).toBe(false);
    expect(validate("2024-02-29").valid).toBe(true);
    expect(validate("1900-02-29").valid).toBe(false);
    expect(validate("2000-02-29").valid).toBe(true);
  });

  it("checks formats only on strings", async () => {
    const validate = await validatorFor({ format: "date" });
    expect(validate(20240229).valid).toBe(true);
    expect(validate("not a date").valid).toBe(false);
  });

  it("does not check formats in annotate mode", async () => {
    const validate = await validatorFor({ type: "string", format: "date" }, "annotate");
    expect(validate("2023-02-29").valid).toBe(true);
  });

  it("ignores unknown formats", async () => {
    const validate = await validatorFor({ type: "string", format: "snowflake" });
    expect(validate("anything").valid).toBe(true);
  });

  it("checks date-time with leap seconds and time zones", async () => {
    const validate = await validatorFor({ type: "string", format: "date-time" });
    expect(validate("1998-12-31T23:59:60Z").valid).toBe(true);
    expect(validate("1998-12-31T15:59:60.123-08:00").valid).toBe(true);
    expect(validate("1998-12-31T23:58:60Z").valid).toBe(false);
    expect(validate("2024-01-15T10:00:00").valid).toBe(false);
  });
});

describe("integers", () => {
  const saved = { type: "object", properties: { saved: { type: "integer", minimum: 0, maximum: 1 } } };

  it('accepts 1.0 as an integer and rejects the string "1"', async () => {
    const validate = await validatorFor(saved);
    expect(validate(JSON.parse('{"saved": 1.0}')).valid).toBe(true);
    expect(validate({ saved: 1.0 }).valid).toBe(true);
    const result = validate({ saved: "1" });
    expect(result.valid).toBe(false);
    expect(result.errors?.[0]?.message).toBe("/saved must be integer");
  });

  it("applies the bounds", async () => {
    const validate = await validatorFor(saved);
    expect(validate({ saved: 2 }).valid).toBe(false);
    expect(validate({ saved: -1 }).valid).toBe(false);
    expect(validate({ saved: 0.5 }).valid).toBe(false);
  });

  it("checks int32 and int64 ranges", async () => {
    const int32 = await validatorFor({ type: "integer", format: "int32" });
    expect(int32(2147483647).valid).toBe(true);
    expect(int32(2147483648).valid).toBe(false);
    expect(int32(-2147483648).valid).toBe(true);
    const int64 = await validatorFor({ type: "number", format: "int64" });
    expect(int64(2 ** 62).valid).toBe(true);
    expect(int64(2 ** 64).valid).toBe(false);
    expect(int64(1.5).valid).toBe(false);
  });
});

describe("multipleOf is exact for decimals", () => {
  it("accepts 19.99 and 0.07 and rejects 0.071 for multipleOf 0.01", async () => {
    const validate = await validatorFor({ type: "number", multipleOf: 0.01 });
    expect(validate(19.99).valid).toBe(true);
    expect(validate(0.07).valid).toBe(true);
    expect(validate(0.071).valid).toBe(false);
    expect(validate(1e21).valid).toBe(true);
    expect(validate(-4.35).valid).toBe(true);
  });

  it("handles decimal divisors with a mantissa other than one", async () => {
    const validate = await validatorFor({ multipleOf: 0.25 });
    expect(validate(1.75).valid).toBe(true);
    expect(validate(1.8).valid).toBe(false);
    const tiny = await validatorFor({ multipleOf: 1e-8 });
    expect(tiny(0.00000003).valid).toBe(true);
    expect(tiny(3.000000001e-8).valid).toBe(false);
  });

  it("uses exact remainder for integer divisors", async () => {
    const validate = await validatorFor({ multipleOf: 3 });
    expect(validate(9).valid).toBe(true);
    expect(validate(10).valid).toBe(false);
    expect(validate(-9).valid).toBe(true);
  });
});
