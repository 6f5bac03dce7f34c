/**
 * How the sandbox writes dates (sandbox/service/dates.ts): a day's text, which is kept from one
 * call to the next, changes exactly at midnight UTC, back and forth.
 */
import { describe, expect, it } from "vitest";
import { dateText } from "../../../../sandbox/service/dates.js";

describe("dateText", () => {
  it("writes each time's own day, in UTC, whichever day came before", () => {
    const times = [
      ["2024-02-29T23:59:59.999Z", "2024-02-29"],
      ["2024-03-01T00:00:00.000Z", "2024-03-01"],
      ["2024-03-01T23:59:59.999Z", "2024-03-01"],
      ["2024-02-29T12:00:00.000Z", "2024-02-29"],
      ["1969-12-31T23:59:59.999Z", "1969-12-31"],
      ["1970-01-01T00:00:00.000Z", "1970-01-01"],
      ["2024-03-01T00:00:00.001+01:00", "2024-02-29"],
    ] as const;
    for (const [time, day] of times) expect(dateText(new Date(time)), time).toBe(day);
  });

  it("refuses a date that is no time, as toISOString does", () => {
    expect(() => dateText(new Date(Number.NaN))).toThrow(RangeError);
  });
});
