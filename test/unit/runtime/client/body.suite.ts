import { describe, expect, it } from "vitest";
import {
  bodyEncoder,
  bodyEncoderWithoutForms,
  bodyEncoding,
  bodyEncodingWithoutForms,
  contentTypeOf,
  encodeBody,
  hasFiles,
  isBytes,
  multipartBodyEncoder,
  withFilesAsText,
} from "../../../../runtime/client/body.js";
import type { BodyEncoder, RouteContent } from "../../../../runtime/route-types.js";
import { parseForm } from "../../../../runtime/server/runtime/form.js";
import { content } from "../support/routes.js";

const UPLOAD = content("multipart/form-data", ["file", "scans"]);

/** What an encoder sends for a body of a route whose one content is `sent`: the body and its content type. */
function sentBy(encoder: BodyEncoder, sent: RouteContent, body: unknown): readonly [BodyInit, string | undefined] {
  return encoder.prepare([sent], body, undefined, undefined).encode();
}
const BYTES = new Uint8Array([0, 1, 255]);

/** The parts of a multipart body: name, and the text or the file's name, type and bytes. */
async function partsOf(form: FormData): Promise<[string, unknown][]> {
  const entries: [string, FormDataEntryValue][] = [];
  form.forEach((value, name) => {
    entries.push([name, value]);
  });
  const parts: [string, unknown][] = [];
  for (const [name, value] of entries) {
    parts.push([
      name,
      typeof value === "string"
        ? value
        : { name: value.name, type: value.type, bytes: [...new Uint8Array(await value.arrayBuffer())] },
    ]);
  }
  return parts;
}

function multipart(body: unknown): FormData {
  const encoded = encodeBody(UPLOAD, body);
  if (!(encoded instanceof FormData)) throw new Error("not a FormData");
  return encoded;
}

describe("contentTypeOf", () => {
  it.each([
    ["application/json", "application/json"],
    ["application/json; charset=utf-8", "application/json; charset=utf-8"],
    ["text/plain", "text/plain"],
    ["image/*", "application/octet-stream"],
    ["*/*", "application/octet-stream"],
    ["multipart/form-data", undefined],
    ["multipart/mixed", undefined],
  ])("%j → %j", (mediaType, header) => {
    expect(contentTypeOf(content(mediaType))).toBe(header);
  });
});

describe("isBytes", () => {
  it.each<[string, unknown, boolean]>([
    ["a Blob", new Blob(["x"]), true],
    ["a File", new File(["x"], "x.txt"), true],
    ["a Uint8Array", BYTES, true],
    ["a Node Buffer", Buffer.from("x"), true],
    ["an ArrayBuffer", new ArrayBuffer(2), true],
    ["a string", "bytes", false],
    ["a number array", [0, 1], false],
    ["a DataView", new DataView(new ArrayBuffer(1)), false],
    ["an Int8Array", new Int8Array(1), false],
    ["null", null, false],
    ["a named file", { data: BYTES }, false],
  ])("%s → %s", (_label, value, expected) => {
    expect(isBytes(value)).toBe(expected);
  });
});

describe("encodeBody", () => {
  it.each<[string, unknown, unknown]>([
    ["application/json", { a: [1, "ä"] }, '{"a":[1,"ä"]}'],
    ["application/problem+json", "text", '"text"'],
    ["application/json", null, "null"],
    ["text/plain", "héllo", "héllo"],
    ["text/plain", 42, "42"],
    ["text/plain", null, ""],
    ["application/octet-stream", "raw text", "raw text"],
    ["application/octet-stream", 7, "7"],
  ])("%s: %j → %j", (mediaType, body, wire) => {
    expect(encodeBody(content(mediaType), body)).toBe(wire);
  });

  it("is what the encoder without forms sends for every kind but a URL-encoded form", async () => {
    for (const [mediaType, body] of [
      ["application/json", { a: [1, "ä"] }],
      ["text/plain", 42],
      ["application/octet-stream", "raw text"],
    ] as const)
      expect(sentBy(bodyEncoderWithoutForms, content(mediaType), body)[0]).toBe(encodeBody(content(mediaType), body));
    const upload = { name: "scan", file: BYTES };
    const [without] = sentBy(bodyEncoderWithoutForms, UPLOAD, upload);
    expect(without).toBeInstanceOf(FormData);
    expect(await partsOf(without as FormData)).toEqual(await partsOf(multipart(upload)));
    const [blob] = sentBy(bodyEncoderWithoutForms, content("image/png"), BYTES);
    expect([...new Uint8Array(await (blob as Blob).arrayBuffer())]).toEqual([0, 1, 255]);
    // its other members are the full encoder's
    const { encode: _full, ...rest } = bodyEncoding;
    const { encode: _partial, ...same } = bodyEncodingWithoutForms;
    expect(same).toEqual(rest);
  });

  it("is what the multipart encoder does for a route whose one media type is a multipart form", async () => {
    const named = { data: "text", filename: "a.txt", contentType: "text/plain" };
    for (const body of [
      { name: "scan", file: BYTES, scans: [BYTES, named], tags: ["a", "b"], n: 3 },
      { file: new Blob(["x"], { type: "image/png" }) },
      "not an object",
    ]) {
      const prepared = multipartBodyEncoder.prepare([UPLOAD], body, undefined, undefined);
      const full = bodyEncoder.prepare([UPLOAD], body, undefined, undefined);
      const [sent, type] = prepared.encode();
      expect(sent).toBeInstanceOf(FormData);
      expect(await partsOf(sent as FormData)).toEqual(await partsOf(multipart(body)));
      expect(type).toBe(full.encode()[1]);
      expect(prepared.checked).toEqual(full.checked);
      for (const asked of [undefined, "multipart/form-data", "application/json"])
        expect(multipartBodyEncoder.prepare([UPLOAD], body, asked, undefined).content).toBe(
          bodyEncoder.prepare([UPLOAD], body, asked, undefined).content,
        );
    }
  });

  it("sends bytes as a Blob without a media type, which the Content-Type header gives", async () => {
    for (const data of [BYTES, Buffer.from(BYTES), BYTES.buffer, new Blob([BYTES])]) {
      const encoded = encodeBody(content("image/png"), data);
      expect(encoded).toBeInstanceOf(Blob);
      expect([...new Uint8Array(await (encoded as Blob).arrayBuffer())]).toEqual([0, 1, 255]);
    }
  });

  describe("URL-encoded forms", () => {
    const form = (body: unknown): string => String(encodeBody(content("application/x-www-form-urlencoded"), body));

    it.each<[unknown, string]>([
      [{ a: 1, b: "x y&z", c: undefined, d: null }, "a=1&b=x+y%26z&d="],
      [{ tags: ["a", "b"] }, "tags=a&tags=b"],
      [{ tags: [] }, ""],
      [{ meta: { plan: "pro", seats: 3 } }, "meta%5Bplan%5D=pro&meta%5Bseats%5D=3"],
      [{ items: [{ id: 7 }, { id: 8 }] }, "items%5B0%5D%5Bid%5D=7&items%5B1%5D%5Bid%5D=8"],
      [{ when: new Date(0) }, "when=1970-01-01T00%3A00%3A00.000Z"],
      [{ "ä k": "✓" }, "%C3%A4+k=%E2%9C%93"],
      ["not an object", ""],
      [["a"], ""],
    ])("%j → %j", (body, wire) => {
      expect(form(body)).toBe(wire);
    });

    it.each<unknown>([
      { name: "Ann", tags: ["a", "b"], meta: { plan: "pro", nested: { deep: "x" } } },
      {
        items: [
          { id: "7", qty: "2" },
          { id: "8", qty: "1" },
        ],
      },
      { __proto__: "own", text: "a=b&c" },
    ])("is read back by the server's form parser as sent: %j", (body) => {
      expect(parseForm(form(body))).toEqual(body);
    });
  });

  describe("multipart forms", () => {
    it("sends text fields as strings and files as file parts with a name and a media type", async () => {
      const parts = await partsOf(
        multipart({
          name: "Scan ✓",
          pages: 3,
          meta: { a: 1 },
          skipped: undefined,
          file: new File([BYTES], "scan.png", { type: "image/png" }),
        }),
      );
      expect(parts).toEqual([
        ["name", "Scan ✓"],
        ["pages", "3"],
        ["meta", '{"a":1}'],
        ["file", { name: "scan.png", type: "image/png", bytes: [0, 1, 255] }],
      ]);
    });

    it.each<[string, unknown, { name: string; type: string }]>([
      ["bytes", BYTES, { name: "file", type: "application/octet-stream" }],
      ["a Buffer", Buffer.from(BYTES), { name: "file", type: "application/octet-stream" }],
      ["an ArrayBuffer", BYTES.slice().buffer, { name: "file", type: "application/octet-stream" }],
      ["a Blob with a type", new Blob([BYTES], { type: "image/gif" }), { name: "file", type: "image/gif" }],
      [
        "a File without a name or type (fetch sends it as application/octet-stream)",
        new File([BYTES], ""),
        { name: "file", type: "" },
      ],
      [
        "named bytes",
        { data: BYTES, filename: "a.bin", contentType: "application/x-a" },
        { name: "a.bin", type: "application/x-a" },
      ],
      ["named bytes, defaults", { data: BYTES }, { name: "file", type: "application/octet-stream" }],
      [
        "a named File, keeping its own name and type",
        { data: new File([BYTES], "own.png", { type: "image/png" }) },
        { name: "own.png", type: "image/png" },
      ],
      [
        "a named Blob, retyped",
        { data: new Blob([BYTES], { type: "image/gif" }), contentType: "image/png" },
        { name: "file", type: "image/png" },
      ],
      [
        "a named string",
        { data: "\u0000\u0001\u00ff", filename: "t.txt" },
        { name: "t.txt", type: "application/octet-stream" },
      ],
    ])("sends %s in a file field as a file", async (_label, file, expected) => {
      const [part] = await partsOf(multipart({ file }));
      expect(part?.[0]).toBe("file");
      expect(part?.[1]).toMatchObject(expected);
    });

    it("sends each file of a list as its own part, in order", async () => {
      const parts = await partsOf(
        multipart({ scans: [new File(["a"], "a.pdf"), { data: new Uint8Array([98]), filename: "b.pdf" }] }),
      );
      expect(parts.map(([name, part]) => [name, (part as { name: string }).name])).toEqual([
        ["scans", "a.pdf"],
        ["scans", "b.pdf"],
      ]);
    });

    it("sends bytes in a field that is not a file field as a file too, and a named file there as JSON text", async () => {
      const parts = await partsOf(multipart({ other: BYTES, named: { data: "x" }, list: [BYTES, "text"] }));
      expect(parts.map(([name, part]) => [name, typeof part === "string" ? part : "a file"])).toEqual([
        ["other", "a file"],
        ["named", '{"data":"x"}'],
        ["list", "a file"],
        ["list", "text"],
      ]);
    });

    it("sends an empty form for a body that is not an object", async () => {
      expect(await partsOf(multipart("text"))).toEqual([]);
      expect(await partsOf(multipart(null))).toEqual([]);
    });

    // The server reads a repeated name as a list (and a single part of a list field as a list of
    // one), so a list of texts is sent one part per item, as files are, not as JSON text.
    it("sends each item of a list of texts as its own part, as the server reads lists", async () => {
      expect(await partsOf(multipart({ tags: ["a", "b"] }))).toEqual([
        ["tags", "a"],
        ["tags", "b"],
      ]);
      expect(await partsOf(multipart({ tags: [7], none: [] }))).toEqual([["tags", "7"]]);
    });
  });
});

describe("withFilesAsText", () => {
  it("puts an empty text in place of each file of the file fields, for the validator", () => {
    const body = { name: "Scan", file: BYTES, scans: [new Blob(["x"]), { data: "x" }, "not a file"], other: BYTES };
    const checked = withFilesAsText(body, ["file", "scans", "missing"]);
    expect(checked).toEqual({ name: "Scan", file: "", scans: ["", "", "not a file"], other: BYTES });
    expect(body.file).toBe(BYTES);
  });

  it("leaves a body without file fields, or that is not an object, as it is", () => {
    const body = { file: BYTES };
    expect(withFilesAsText(body, [])).toBe(body);
    expect(withFilesAsText("text", ["file"])).toBe("text");
    expect(withFilesAsText([BYTES], ["0"])).toEqual([BYTES]);
  });

  it("leaves what is not file input in a file field as it is, for the validator to judge", () => {
    expect(withFilesAsText({ file: "a name", scans: 7 }, ["file", "scans"])).toEqual({ file: "a name", scans: 7 });
  });
});

describe("hasFiles", () => {
  it.each<[string, unknown, boolean]>([
    ["bytes in a file field", { file: BYTES }, true],
    ["a named file", { file: { data: "text" } }, true],
    ["a list with a file", { scans: ["x", new Blob([])] }, true],
    ["text in a file field", { file: "name.png" }, false],
    ["an empty list", { scans: [] }, false],
    ["bytes outside the file fields", { other: BYTES }, false],
    ["a named file without data", { file: { filename: "x" } }, false],
    ["no object", BYTES, false],
    ["null", null, false],
  ])("%s → %s", (_label, body, expected) => {
    expect(hasFiles(body, ["file", "scans"])).toBe(expected);
  });
});
