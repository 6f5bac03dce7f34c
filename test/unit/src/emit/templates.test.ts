import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { toCodeLiteral } from "../../../../src/emit/literal.js";
import { loadTemplates } from "../../../../src/emit/templates.js";

const dir = mkdtempSync(join(tmpdir(), "templates-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
mkdirSync(join(dir, "t"));
writeFileSync(
  join(dir, "t", "data.ts.hbs"),
  "export const table = {{literal table}} as const;\nexport const list = {{literal list}};\nexport const small = {{literal small}};\nexport const name = {{json name}};\n",
);
writeFileSync(join(dir, "t", "plain.ts.hbs"), "export const name = {{json name}};\n");

const table = Object.fromEntries(
  Array.from({ length: 6 }, (_, i) => [
    `operation${i}`,
    { method: "GET", path: `/items/${i}/with/a/long/enough/path` },
  ]),
);
const list = Array.from({ length: 30 }, (_, i) => `item number ${i}`);

describe("templates", () => {
  const templates = loadTemplates(dir);

  it("renders the file with every literal printed", () => {
    const file = templates.file("data.ts", "t/data.ts", { table, list, small: { a: 1 }, name: "x" });
    expect(file).toEqual({
      path: "data.ts",
      content: `export const table = ${toCodeLiteral(table)} as const;\nexport const list = ${toCodeLiteral(list)};\nexport const small = { a: 1 };\nexport const name = "x";\n`,
    });
    expect(templates.file("plain.ts", "t/plain.ts", { name: "x" })).toEqual({
      path: "plain.ts",
      content: 'export const name = "x";\n',
    });
  });

  it("prints spec strings with control characters as the strings they are", () => {
    const odd = "\u0000a\u0000";
    const file = templates.file("data.ts", "t/data.ts", { table, list, small: odd, name: odd });
    expect(file.content).toContain(`export const name = ${JSON.stringify(odd)};`);
    expect(file.content).not.toContain("\u0000");
  });

  it("names the template it cannot find", () => {
    expect(() => templates.file("x.ts", "t/missing", {})).toThrow(/no template "t\/missing"/);
  });
});
