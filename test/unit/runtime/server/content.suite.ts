import { describe, expect, it } from "vitest";
import {
  compileContentMatcher,
  decodeBody,
  firstMalformed,
  hasBody,
  MAX_JSON_DEPTH,
  nestedDeeperThan,
  tooLarge,
  unsupportedMediaType,
} from "../../../../runtime/server/runtime/content.js";
import { ProblemError } from "../../../../runtime/server/runtime/problems.js";
import { fakeRequest } from "../support/fastify.js";
import { content } from "../support/routes.js";

describe("compileContentMatcher", () => {
  const json = content("application/json");
  const jsonUtf8 = content("application/json; charset=utf-8");
  const images = content("image/*");
  const anything = content("*/*");
  const text = content("text/plain");

  it.each([
    ["application/json", json],
    ["application/json; charset=utf-8", jsonUtf8],
    ["Application/JSON ; charset=latin1", json],
    ["text/plain;format=flowed", text],
    ["image/png", images],
    ["IMAGE/SVG+XML", images],
    ["video/mp4", anything],
    ["", anything],
    ["garbage", anything],
  ])("%j selects %j", (header, expected) => {
    const match = compileContentMatcher([json, jsonUtf8, text, images, anything]);
    expect(match(header)).toBe(expected);
  });

  it("prefers an exact media type to the first of the same essence", () => {
    expect(compileContentMatcher([json, jsonUtf8])("application/json; charset=utf-8")).toBe(jsonUtf8);
    expect(compileContentMatcher([jsonUtf8, json])("application/json")).toBe(json);
  });

  it.each(["", "text/html", "application/jsonx", "image", "application/*"])(
    "finds nothing for %j among exact types",
    (header) => {
      expect(compileContentMatcher([json, text])(header)).toBeUndefined();
    },
  );

  it("matches nothing when no content is declared", () => {
    expect(compileContentMatcher([])("application/json")).toBeUndefined();
  });
});

describe("hasBody", () => {
  it.each([
    [{}, false],
    [{ "content-length": "0" }, false],
    [{ "content-length": "1" }, true],
    [{ "content-type": "application/json" }, true],
    [{ "content-type": "application/json", "content-length": "0" }, true],
    [{ "transfer-encoding": "chunked" }, true],
  ])("%j → %s", (headers, expected) => {
    expect(hasBody(fakeRequest({ headers }).request)).toBe(expected);
  });
});

describe("unsupportedMediaType and tooLarge", () => {
  const accepted = [content("application/json"), content("multipart/form-data")];

  it("names what the operation accepts when the Content-Type is missing", () => {
    expect(unsupportedMediaType(undefined, accepted)).toEqual({
      type: "urn:problem-type:unsupported-media-type",
      title: "Unsupported Media Type",
      status: 415,
      detail: "A Content-Type header is required; use application/json or multipart/form-data.",
    });
  });

  it("names the essence of the refused type, never its parameters", () => {
    expect(unsupportedMediaType("Text/Plain; secret=x", accepted).detail).toBe(
      "Content-Type text/plain is not accepted; use application/json or multipart/form-data.",
    );
  });

  it("is a 413 naming the limit", () => {
    expect(tooLarge(1024)).toEqual({
      type: "urn:problem-type:payload-too-large",
      title: "Payload Too Large",
      status: 413,
      detail: "The request body is larger than 1024 bytes.",
    });
  });
});

describe("decodeBody", () => {
  const bytes = (text: string): Buffer => Buffer.from(text, "utf8");

  it.each([
    ["json", "", undefined],
    ["json", '{"a":[1,"ä"]}', { a: [1, "ä"] }],
    ["json", "null", null],
    ["json", ' "x" ', "x"],
    ["form", "", undefined],
    ["form", "a=1&b[c]=2", { a: "1", b: { c: "2" } }],
    ["text", "", ""],
    ["text", "héllo ✓", "héllo ✓"],
  ] as const)("%s %j → %j", (kind, text, expected) => {
    expect(decodeBody(kind, bytes(text))).toEqual(expected);
  });

  it("keeps __proto__ and constructor of a JSON body as own data keys", () => {
    const body = decodeBody(
      "json",
      bytes('{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}}}'),
    ) as Record<string, unknown>;
    expect(Object.hasOwn(body, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(body)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("hands binary (and multipart) bodies over as the same bytes", () => {
    const raw = Buffer.from([0, 255, 1]);
    expect(decodeBody("binary", raw)).toBe(raw);
    expect(decodeBody("multipart", raw)).toBe(raw);
  });

  it("replaces invalid UTF-8 in a text body", () => {
    expect(decodeBody("text", Buffer.from([0x61, 0xff, 0x62]))).toBe("a\uFFFDb");
  });

  it.each([
    ["{", "it ends at line 1, column 2, before the JSON value does"],
    ["   ", "it ends at line 1, column 4, before the JSON value does"],
    ["{'a':1}", `unexpected character "'" at line 1, column 2`],
    ["[1,]", 'unexpected character "]" at line 1, column 4'],
    ["\uFEFF{}", "unexpected character U+FEFF at line 1, column 1"],
    ["NaN", 'unexpected character "N" at line 1, column 1'],
    ['{"a":1}x', 'unexpected character "x" at line 1, column 8'],
    ['{\n  "name": \n}', 'unexpected character "}" at line 3, column 1'],
    ['{"a":"\\x"}', 'unexpected character "\\\\" at line 1, column 7'],
    ["[01]", 'unexpected character "1" at line 1, column 3'],
    ['{"a" 1}', 'unexpected character "1" at line 1, column 6'],
    ['["a\tb"]', "unexpected control character U+0009 at line 1, column 4"],
    ['{"a":1,}', 'unexpected character "}" at line 1, column 8'],
    ["1e5e", 'unexpected character "e" at line 1, column 4'],
    [`${"[".repeat(100_000)}}`, 'unexpected character "}" at line 1, column 100001'],
  ])("refuses malformed JSON %j with a 400 problem saying where: %s", (text, where) => {
    const thrown = catchProblem(() => decodeBody("json", bytes(text)));
    expect(thrown.problem).toEqual({
      type: "urn:problem-type:malformed-body",
      title: "Malformed request body",
      status: 400,
      detail: `The request body is not well-formed JSON: ${where}.`,
    });
  });

  it.each([
    ["a stray byte", [0xff], 11],
    ["a lead byte without its continuation", [0xe2, 0x28], 11],
    ["an overlong form of /", [0xc0, 0xaf], 11],
    ["a surrogate", [0xed, 0xa0, 0x80], 11],
    ["a code point above U+10FFFF", [0xf4, 0x90, 0x80, 0x80], 11],
  ])("refuses JSON holding %s, naming the byte offset, never stores U+FFFD", (_what, bad, offset) => {
    const raw = Buffer.concat([bytes('{"name":"ü'), Buffer.from(bad), bytes('x"}')]);
    const thrown = catchProblem(() => decodeBody("json", raw));
    const byte = `0x${(bad[0] as number).toString(16)}`;
    expect(thrown.problem).toEqual({
      type: "urn:problem-type:malformed-body",
      title: "Malformed request body",
      status: 400,
      detail: `The request body is not valid UTF-8: the byte at offset ${offset} (${byte}) starts no well-formed UTF-8 character; send the text encoded as UTF-8.`,
    });
  });

  it("refuses a JSON body cut inside a character, at the character's first byte", () => {
    const thrown = catchProblem(() => decodeBody("json", bytes('"€"').subarray(0, 3)));
    expect(thrown.problem.detail).toMatch(/^The request body is not valid UTF-8: the byte at offset 1 \(0xe2\)/);
  });

  it("finds no malformed byte in well-formed UTF-8 of every length", () => {
    const text = bytes("aé€😀\u{10FFFF}\u{E000}");
    expect(firstMalformed(text)).toBe(text.length);
    expect(decodeBody("json", bytes(JSON.stringify("aé€😀")))).toBe("aé€😀");
  });

  it("refuses a form whose bytes, or percent-encoded bytes, are not UTF-8, naming the field", () => {
    expect(catchProblem(() => decodeBody("form", Buffer.from([0x61, 0x3d, 0xff]))).problem.detail).toMatch(
      /^The request body is not valid UTF-8: the byte at offset 2 \(0xff\)/,
    );
    expect(catchProblem(() => decodeBody("form", bytes("a=1&note=caf%E9"))).problem).toEqual({
      type: "urn:problem-type:malformed-body",
      title: "Malformed request body",
      status: 400,
      detail: 'The form field "note" is not valid UTF-8 once percent-decoded (%E9): percent-encode its text as UTF-8.',
    });
    expect(decodeBody("form", bytes("note=caf%C3%A9&pct=100%&a=%41"))).toEqual({ note: "café", pct: "100%", a: "A" });
  });

  it(`accepts JSON nested ${MAX_JSON_DEPTH} levels deep and refuses one level more`, () => {
    const nested = (depth: number, open = "[", close = "]"): Buffer => bytes(open.repeat(depth) + close.repeat(depth));
    expect(decodeBody("json", nested(MAX_JSON_DEPTH))).toBeInstanceOf(Array);
    for (const body of [
      nested(MAX_JSON_DEPTH + 1),
      bytes(`{"a":${'{"a":'.repeat(MAX_JSON_DEPTH)}1${"}".repeat(MAX_JSON_DEPTH)}}`),
    ]) {
      expect(catchProblem(() => decodeBody("json", body)).problem.detail).toBe(
        `The request body is nested more than ${MAX_JSON_DEPTH} levels deep.`,
      );
    }
  });

  it("does not count brackets inside strings as nesting", () => {
    const text = JSON.stringify({ s: "[".repeat(5000), t: "{".repeat(5000) });
    expect(decodeBody("json", bytes(text))).toEqual({ s: "[".repeat(5000), t: "{".repeat(5000) });
  });
});

function catchProblem(run: () => unknown): ProblemError {
  try {
    run();
  } catch (error) {
    if (error instanceof ProblemError) return error;
    throw error;
  }
  throw new Error("no ProblemError thrown");
}

describe("nestedDeeperThan", () => {
  const deeper = (text: string, limit: number): boolean => nestedDeeperThan(Buffer.from(text, "utf8"), limit);

  it.each([
    ["", 0, false],
    ["1", 0, false],
    ["[]", 0, true],
    ["[]", 1, false],
    ["[[]]", 1, true],
    ["[[]]", 2, false],
    ["[][][][]", 1, false],
    ['{"a":{"b":[1]}}', 2, true],
    ['{"a":{"b":[1]}}', 3, false],
    ['["[[[[", "{{{{"]', 1, false],
    ['["\\"[[[["]', 1, false],
    ['["\\\\", [[1]]]', 2, true],
    ['["\\\\", [[1]]]', 3, false],
    ['{"ä✓": [["x"]]}', 2, true],
    ['"unterminated [[[', 0, false],
  ])("%j deeper than %i: %s", (text, limit, expected) => {
    expect(deeper(text, limit)).toBe(expected);
  });

  it("reads a Uint8Array as well as a Buffer", () => {
    expect(nestedDeeperThan(new TextEncoder().encode("[[[]]]"), 2)).toBe(true);
  });
});
