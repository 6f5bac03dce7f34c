import ts from "typescript";
import { describe, expect, it } from "vitest";
import { compileSchema, compileValidatorModule } from "../../../../src/compiler/index.js";
import { nested, validatorFor } from "./support/compile-helpers.js";
import { loadModule, validatorOf } from "./support/load.js";
import { typecheck } from "./support/typecheck.js";

function scan(source: string): { comments: string[]; strings: Set<string> } {
  const scanner = ts.createScanner(ts.ScriptTarget.ES2022, false, ts.LanguageVariant.Standard, source);
  const comments: string[] = [];
  const strings = new Set<string>();
  for (let token = scanner.scan(); token !== ts.SyntaxKind.EndOfFileToken; token = scanner.scan()) {
    if (token === ts.SyntaxKind.SingleLineCommentTrivia || token === ts.SyntaxKind.MultiLineCommentTrivia)
      comments.push(scanner.getTokenText());
    if (token === ts.SyntaxKind.StringLiteral) strings.add(scanner.getTokenValue());
    if (token === ts.SyntaxKind.SlashToken || token === ts.SyntaxKind.SlashEqualsToken) scanner.reScanSlashToken();
  }
  return { comments, strings };
}

const HOSTILE = [
  'a"b',
  "a'b",
  "a`b",
  "*/ x /*",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: one of the hostile strings, on purpose
  "${x}",
  "line\nbreak",
  "sep\u2028arator",
  "par\u2029agraph",
  "back\\slash",
  "</script>",
];

describe("hostile schema text cannot break the generated code", () => {
  const properties = Object.fromEntries(HOSTILE.map((name) => [name, { type: "string", const: name }]));
  const patterns = { "^\\$\\{y\\}$": { type: "number" }, "^[`'\"]$": { type: "boolean" }, "^\\*/$": { type: "null" } };
  const schema = {
    type: "object",
    required: HOSTILE,
    properties,
    patternProperties: patterns,
    additionalProperties: false,
  };

  it("compiles to a module that behaves correctly", async () => {
    const validate = await validatorFor(schema);
    const valid = Object.fromEntries(HOSTILE.map((name) => [name, name]));
    expect(validate(valid).valid).toBe(true);
    expect(validate({ ...valid, "${y}": 1, "`": true, "*/": null }).valid).toBe(true);
    expect(validate({ ...valid, "${y}": "no" }).valid).toBe(false);
    const missing = validate({ ...valid, 'a"b': undefined });
    expect(missing.valid).toBe(false);
    expect(validate({ ...valid, "line\nbreak": "other" }).errors?.[0]?.instancePath).toBe("/line\nbreak");
  });

  it("typechecks", () => {
    expect(typecheck(compileSchema(schema))).toEqual([]);
  });

  it("keeps schema text inside string literals, never in comments", () => {
    const source = compileSchema(schema);
    expect(source).not.toMatch(/[\u2028\u2029]/);
    const { comments, strings } = scan(source);
    // the fixed comments (those of a module whose recursive schema reports errors), and the
    // annotation that marks each hoisted constant pure for bundlers
    const recursive = { type: "object", properties: { next: { $ref: "#" } } };
    const fixed = new Set([...scan(compileSchema(recursive)).comments, "/* @__PURE__ */"]);
    for (const text of comments) if (!fixed.has(text)) expect(text).toMatch(/^\/\/ [A-Za-z0-9_#/.:@~ -]*$/);
    for (const name of HOSTILE) expect(strings.has(name)).toBe(true);
  });
});

describe("the generated module is CSP-safe", () => {
  it("contains no eval or Function constructor", () => {
    const source = compileSchema({
      type: "object",
      properties: { a: { type: "string", pattern: "^a", format: "email" } },
    });
    expect(source).not.toMatch(/\beval\s*\(/);
    expect(source).not.toMatch(/\bFunction\s*\(/);
  });

  it("compiles every regex once at module load, as a literal where the pattern can be one", () => {
    const source = compileSchema({
      type: "object",
      properties: {
        a: { type: "string", pattern: "^a" },
        b: { type: "string", pattern: "^a" },
        c: { type: "string", pattern: "z$" },
        d: { type: "string", pattern: "^\\p{L}+$" },
        e: { type: "string", pattern: "^\\p{L}+$" },
      },
    });
    const literals = source.match(/^const \$re\d+ = \/.*\/u;$/gm) ?? [];
    expect(literals).toEqual(["const $re0 = /^a/u;", "const $re1 = /z$/u;"]);
    const hoisted = source.match(/^const \$re\d+ = \/\* @__PURE__ \*\/ \$regex\(/gm) ?? [];
    expect(hoisted).toHaveLength(1);
    expect(source).toContain('$regex("^\\\\p{L}+$")');
    // the one RegExp constructor call, in the helper that builds each hoisted pattern
    expect(source.match(/new RegExp\(/g)).toHaveLength(1);
    expect(source).toContain('new RegExp(pattern, "u")');
    expect(source).toMatch(/\$re0\.test\(/);
    expect(source).toMatch(/\$re2\.test\(/);
  });
});

describe("recursion is bounded", () => {
  const tree = {
    $defs: { node: { type: "object", properties: { child: { $ref: "#/$defs/node" } } } },
    $ref: "#/$defs/node",
  };

  it("returns a maxDepth error for a 10,000-level instance instead of overflowing the stack", async () => {
    const validate = await validatorFor(tree);
    const deep = nested(10_000);
    const result = validate(deep);
    expect(result.valid).toBe(false);
    expect(result.errors?.[0]?.keyword).toBe("maxDepth");
    expect(validate(deep, { allErrors: true }).valid).toBe(false);
  });

  it("accepts ordinary nesting", async () => {
    const validate = await validatorFor(tree);
    expect(validate(nested(200)).valid).toBe(true);
  });

  it("does not overflow on deep data compared by const", async () => {
    const validate = await validatorFor({ const: [[1]] });
    let deep: unknown = [];
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(validate(deep).valid).toBe(false);
  });
});

describe("module layout", () => {
  const document = {
    openapi: "3.1.0",
    components: {
      schemas: {
        Venue: { type: "object", properties: { name: { type: "string", maxLength: 10 } } },
        Event: {
          type: "object",
          properties: { venue: { $ref: "#/components/schemas/Venue" }, backup: { $ref: "#/components/schemas/Venue" } },
        },
      },
    },
  };
  const options = {
    document,
    entries: [
      { name: "validateVenue", guardName: "isVenue", schema: { pointer: "#/components/schemas/Venue" } },
      { name: "validateEvent", schema: { pointer: "#/components/schemas/Event" } },
      { name: "validateVenueAgain", schema: { pointer: "#/components/schemas/Venue" } },
    ],
  };

  it("compiles each referenced schema once and shares it", () => {
    const source = compileValidatorModule(options);
    expect(source.match(/^function \$v_Venue\(/gm)).toHaveLength(1);
    expect(source.match(/^function \$v_/gm)).toHaveLength(2);
  });

  it("emits only the helpers the code uses", () => {
    const source = compileValidatorModule(options);
    expect(source).toContain("function $cpLen(");
    expect(source).not.toContain("function $equal(");
    expect(source).not.toContain("function $fmtDate(");
    expect(source).not.toContain("function $multipleOf(");
  });

  it("is deterministic", () => {
    expect(compileValidatorModule(options)).toBe(compileValidatorModule(options));
  });

  it("exports validators and type guards that work", async () => {
    const module = await loadModule(compileValidatorModule(options));
    expect(validatorOf(module, "validateEvent")({ venue: { name: "x".repeat(11) } }).errors?.[0]?.message).toBe(
      "/venue/name must be at most 10 characters",
    );
    const isVenue = module["isVenue"] as (value: unknown) => boolean;
    expect(isVenue({ name: "ok" })).toBe(true);
    expect(isVenue({ name: 1 })).toBe(false);
  });

  it("typechecks with a preamble and type names", () => {
    const source = compileValidatorModule({
      ...options,
      preamble: "type Venue = { name?: string };\ntype Event = { venue?: Venue };",
      entries: [
        {
          name: "validateVenue",
          guardName: "isVenue",
          typeName: "Venue",
          schema: { pointer: "#/components/schemas/Venue" },
        },
        { name: "validateEvent", typeName: "Event", schema: { pointer: "#/components/schemas/Event" } },
      ],
    });
    expect(typecheck(source)).toEqual([]);
  });
});
