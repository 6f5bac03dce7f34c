import { describe, expect, it } from "vitest";
import { regexLiteral } from "../../../../../src/compiler/code/code.js";

describe("regexLiteral", () => {
  it("writes a pattern that can be one as a literal with the u flag, the same expression as the constructor's", () => {
    for (const pattern of ["^[A-Za-z0-9]+", "z$", "^\\d{4}-\\d{2}$", "^a\\/b$", "(?:x|y)(?=z)(?!w)", "[\\]\\\\]"]) {
      const literal = regexLiteral(pattern)?.toString();
      expect(literal).toBe(`/${pattern}/u`);
      const made = new Function(`return ${literal};`)() as RegExp;
      expect(made.source).toBe(new RegExp(pattern, "u").source);
      expect(made.flags).toBe("u");
    }
  });

  it("leaves to the constructor what would end the literal, start a comment, or be checked by TypeScript's target", () => {
    const refused = [
      "",
      "a/b",
      "[/]",
      "*a",
      "a\\",
      "line\nbreak",
      "caf\u00e9",
      "(?<year>\\d{4})",
      "(?<=a)b",
      "(?i:a)",
      "^\\p{L}+$",
      "\\P{L}",
      "(?<n>a)\\k<n>",
    ];
    for (const pattern of refused) expect(regexLiteral(pattern)).toBeUndefined();
  });
});
