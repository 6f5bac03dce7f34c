import { Readable } from "node:stream";
import multipart from "@fastify/multipart";
import { fastify } from "fastify";
import { describe, expect, it } from "vitest";
import { createMultipartReader } from "../../../../runtime/server/runtime/multipart.js";
import { ProblemError } from "../../../../runtime/server/runtime/problems.js";
import type { UploadedFile } from "../../../../runtime/server/runtime/types.js";
import { fakeRequest } from "../support/fastify.js";
import { rejection } from "../support/promises.js";
import { content } from "../support/routes.js";

const LIMITS = { fileSize: 8, fieldSize: 5 };
const UPLOAD = content("multipart/form-data", ["file", "scans"]);

/** A text part as @fastify/multipart yields it. */
function field(fieldname: string, value: unknown, truncated: { value?: boolean; name?: boolean } = {}): object {
  return {
    type: "field",
    fieldname,
    value,
    mimetype: "text/plain",
    encoding: "7bit",
    valueTruncated: truncated.value ?? false,
    fieldnameTruncated: truncated.name ?? false,
  };
}

/** A file part as @fastify/multipart yields it. */
function file(fieldname: string, filename: string, text: string, mimetype = "application/octet-stream"): object {
  return {
    type: "file",
    fieldname,
    filename,
    mimetype,
    encoding: "7bit",
    file: Readable.from([Buffer.from(text, "utf8")]),
  };
}

/** A request whose parts() yields `parts`, then throws `error` if given. */
function multipartRequest(
  parts: readonly object[],
  error?: unknown,
  headers: Record<string, string> = { "content-type": "multipart/form-data; boundary=x" },
) {
  return fakeRequest({
    headers,
    parts: async function* () {
      yield* parts;
      if (error !== undefined) throw error;
    },
  });
}

async function read(
  parts: readonly object[],
  error?: unknown,
): Promise<{ form: unknown; restore: (validated: unknown) => unknown }> {
  return createMultipartReader(LIMITS)(multipartRequest(parts, error).request, UPLOAD);
}

/** The problem a reader rejected with. */
async function refusal(parts: readonly object[], error?: unknown): Promise<unknown> {
  const thrown = await rejection(read(parts, error));
  if (!(thrown instanceof ProblemError)) throw new Error(`expected a ProblemError, got ${String(thrown)}`);
  return thrown.problem;
}

describe("createMultipartReader", () => {
  it("reads text fields into the form, a repeated name as a list, __proto__ as an own key", async () => {
    const { form } = await read([
      field("name", "Ann"),
      field("tag", "a"),
      field("tag", "b"),
      field("tag", "c"),
      field("__proto__", "x"),
    ]);
    expect(form).toEqual(JSON.parse('{"name":"Ann","tag":["a","b","c"],"__proto__":"x"}'));
    expect(Object.getPrototypeOf(form)).toBe(Object.prototype);
  });

  it("validates files by name and restores their bytes into the validated form", async () => {
    const { form, restore } = await read([
      file("file", "scan.png", "PNG", "image/png"),
      field("name", "Scan"),
      file("scans", "a.pdf", "A"),
      file("scans", "b.pdf", "B"),
    ]);
    expect(form).toEqual({ file: "scan.png", name: "Scan", scans: ["a.pdf", "b.pdf"] });
    const validated = { file: "scan.png", name: "converted", scans: ["a.pdf", "b.pdf"] };
    const restored = restore(validated) as { file: UploadedFile; name: string; scans: UploadedFile[] };
    expect(restored).toBe(validated);
    expect(restored.name).toBe("converted");
    expect(restored.file).toEqual({
      filename: "scan.png",
      mimetype: "image/png",
      encoding: "7bit",
      data: Buffer.from("PNG"),
    });
    expect(restored.scans.map((scan) => [scan.filename, scan.data.toString()])).toEqual([
      ["a.pdf", "A"],
      ["b.pdf", "B"],
    ]);
  });

  it("takes a file field sent as text as a file without a name", async () => {
    const { form, restore } = await read([field("file", "plain text ✓"), field("scans", { json: true })]);
    expect(form).toEqual({ file: "", scans: "" });
    const restored = restore({ ...(form as object) }) as { file: UploadedFile; scans: UploadedFile };
    expect(restored.file).toEqual({
      filename: "",
      mimetype: "text/plain",
      encoding: "7bit",
      data: Buffer.from("plain text ✓"),
    });
    expect(restored.scans.data.toString()).toBe('{"json":true}');
  });

  it("reads a text field sent as a file as its text, within the field limit", async () => {
    expect((await read([file("name", "n.txt", "12345")])).form).toEqual({ name: "12345" });
    expect(await refusal([file("name", "n.txt", "123456")])).toMatchObject({
      status: 413,
      detail: "A form field is larger than 5 bytes.",
    });
  });

  it("refuses a text field sent as a file whose bytes are not UTF-8, naming it", async () => {
    const part = { ...file("name", "n.txt", ""), file: Readable.from([Buffer.from([0x61, 0xc3])]) };
    expect(await refusal([part])).toEqual({
      type: "urn:problem-type:malformed-body",
      title: "Malformed request body",
      status: 400,
      detail:
        'The form field "name" is not valid UTF-8: the byte at offset 1 (0xc3) starts no well-formed UTF-8 character; send the text encoded as UTF-8.',
    });
  });

  it.each([
    ["a value", { value: true }],
    ["a name", { name: true }],
  ])("refuses %s the parser cut short with 413, never truncating it", async (_label, truncated) => {
    expect(await refusal([field("name", "12345", truncated)])).toEqual({
      type: "urn:problem-type:payload-too-large",
      title: "Payload Too Large",
      status: 413,
      detail: "A form field is larger than 5 bytes.",
    });
  });

  it.each([
    [
      "a file over its limit",
      Object.assign(new Error("request file too large"), { code: "FST_REQ_FILE_TOO_LARGE", statusCode: 413 }),
      413,
      "An uploaded file is larger than 8 bytes.",
    ],
    [
      "too many parts",
      Object.assign(new Error("too many parts"), { code: "FST_PARTS_LIMIT", statusCode: 413 }),
      413,
      "The multipart body has more parts than the server accepts.",
    ],
    [
      "a body cut short",
      Object.assign(new Error("premature close"), { code: "FST_MP_PREMATURE_CLOSE" }),
      400,
      "The multipart body ended before it was complete.",
    ],
    ["a parser failure", new Error("Unexpected end of form"), 400, "The multipart body could not be read."],
    [
      "a thrown problem",
      new ProblemError({ type: "about:blank", title: "Teapot", status: 418, detail: "short and stout" }),
      418,
      "short and stout",
    ],
  ])("turns %s into a problem, and leaves the rest of the body unread", async (_label, error, status, detail) => {
    const { request, raw } = multipartRequest([field("name", "Ann")], error);
    const thrown = await rejection(createMultipartReader(LIMITS)(request, UPLOAD));
    expect(thrown).toBeInstanceOf(ProblemError);
    expect((thrown as ProblemError).problem).toMatchObject({ status, detail });
    expect(raw.readableFlowing).toBe(false);
  });

  it.each([
    ["no part at all", [], {}],
    ["a Content-Length of 0", [field("never", "read")], { "content-length": "0" }],
  ])("reads %s as no body, its restore keeping the value", async (_label, parts, headers) => {
    const { request } = multipartRequest(parts, undefined, {
      "content-type": "multipart/form-data; boundary=x",
      ...headers,
    });
    const { form, restore } = await createMultipartReader(LIMITS)(request, UPLOAD);
    expect(form).toBeUndefined();
    const value = { a: 1 };
    expect(restore(value)).toBe(value);
  });

  it("restores nothing into a validated value that is not an object", async () => {
    const { restore } = await read([file("file", "a", "A")]);
    expect(restore("text")).toBe("text");
    expect(restore(null)).toBeNull();
  });

  it("reads what @fastify/multipart parses, refusing an over-long field rather than truncating it", async () => {
    const app = fastify();
    await app.register(multipart, { limits: { ...LIMITS, parts: 1000 }, throwFileSizeLimit: true });
    const reader = createMultipartReader(LIMITS);
    app.post("/upload", async (request) => {
      try {
        const { form, restore } = await reader(request, UPLOAD);
        const restored = restore(form) as Record<string, unknown>;
        return { ...restored, file: (restored.file as UploadedFile | undefined)?.data.toString("hex") };
      } catch (error) {
        return { problem: (error as ProblemError).problem };
      }
    });
    const body = (parts: readonly string[]): string => `${parts.map((part) => `--B\r\n${part}\r\n`).join("")}--B--\r\n`;
    const post = async (parts: readonly string[]): Promise<unknown> =>
      (
        await app.inject({
          method: "POST",
          url: "/upload",
          headers: { "content-type": "multipart/form-data; boundary=B" },
          payload: body(parts),
        })
      ).json();
    const text = (name: string, value: string): string =>
      `Content-Disposition: form-data; name="${name}"\r\n\r\n${value}`;
    const bytes = `Content-Disposition: form-data; name="file"; filename="f.bin"\r\nContent-Type: application/octet-stream\r\n\r\n\u0000\u0001`;
    expect(await post([text("name", "Ann"), text("name", "Bo"), bytes])).toEqual({ name: ["Ann", "Bo"], file: "0001" });
    expect(await post([text("name", "123456")])).toEqual({
      problem: expect.objectContaining({ status: 413, detail: "A form field is larger than 5 bytes." }),
    });
    const big = `Content-Disposition: form-data; name="file"; filename="f.bin"\r\n\r\n${"x".repeat(9)}`;
    expect(await post([big])).toEqual({
      problem: expect.objectContaining({ status: 413, detail: "An uploaded file is larger than 8 bytes." }),
    });
    await app.close();
  });
});
