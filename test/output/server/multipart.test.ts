import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMockHandlers, type Handlers, type HandlerTypes } from "../../../generated/server/index.js";
import { expectProblem } from "../../support/contract-bodies.js";
import { startServer, type TestServer } from "./helpers.js";

type UploadBody = HandlerTypes["addWorkerDocument"]["body"];

/** The last input of the upload handler. */
let received: { params: unknown; body: UploadBody } | undefined;
const handlers: Handlers = {
  ...createMockHandlers(),
  addWorkerDocument: ({ params, body }) => {
    received = { params, body };
    return { status: 200, body: { id: "1", file_name: body.file?.filename ?? "" } };
  },
};

/** The upload handler's last input, read through a call so that TypeScript does not narrow it. */
function lastReceived(): typeof received {
  return received;
}

const ALL_BYTES = Uint8Array.from({ length: 256 }, (_, i) => i);

function upload(bytes: Uint8Array<ArrayBuffer>, fields: Record<string, string> = {}): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  form.set("file", new Blob([bytes], { type: "application/octet-stream" }), "all-bytes.bin");
  return form;
}

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ handlers });
});
afterAll(() => server.close());

describe("document upload", () => {
  it("hands the handler the file's bytes intact (all 256 byte values) and the converted fields", async () => {
    const response = await server.call("POST", "/workers/42/documents", {
      body: upload(ALL_BYTES, { p_id: "1042", name: "All bytes", type: "application/x" }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ id: "1", file_name: "all-bytes.bin" });
    expect(received?.params).toEqual({ id: 42 });
    const body = received?.body;
    expect(body?.p_id).toBe(1042);
    expect(body?.name).toBe("All bytes");
    expect(body?.file?.filename).toBe("all-bytes.bin");
    expect(body?.file?.mimetype).toBe("application/octet-stream");
    expect(Buffer.isBuffer(body?.file?.data)).toBe(true);
    expect(Buffer.compare(body?.file?.data ?? Buffer.alloc(0), Buffer.from(ALL_BYTES))).toBe(0);
  });

  it("keeps a larger binary file byte for byte", async () => {
    const bytes = Uint8Array.from({ length: 300_000 }, (_, i) => (i * 7919) % 256);
    expect((await server.call("POST", "/workers/1/documents", { body: upload(bytes) })).status).toBe(200);
    expect(Buffer.compare(received?.body.file?.data ?? Buffer.alloc(0), Buffer.from(bytes))).toBe(0);
  });

  it("a file over 10 MiB (the default limit) → 413", async () => {
    const problem = await expectProblem(
      await server.call("POST", "/workers/1/documents", { body: upload(new Uint8Array(10 * 1024 * 1024 + 1)) }),
      413,
      "urn:problem-type:payload-too-large",
    );
    expect(problem["detail"]).toBe("An uploaded file is larger than 10485760 bytes.");
  });

  it("the file limit is configurable: at the limit accepted, one byte past rejected", async () => {
    const limited = await startServer({ handlers, fileSizeLimit: 1024 });
    try {
      expect((await limited.call("POST", "/workers/1/documents", { body: upload(new Uint8Array(1024)) })).status).toBe(
        200,
      );
      await expectProblem(
        await limited.call("POST", "/workers/1/documents", { body: upload(new Uint8Array(1025)) }),
        413,
        "urn:problem-type:payload-too-large",
      );
    } finally {
      await limited.close();
    }
  });

  it("validates the form fields, with the file standing in as its name", async () => {
    const problem = await expectProblem(
      await server.call("POST", "/workers/1/documents", {
        body: upload(ALL_BYTES, { name: "", type: "t".repeat(21), p_id: "x" }),
      }),
      400,
      "urn:problem-type:validation-error",
    );
    const failed = (problem["errors"] as { instancePath: string }[]).map((error) => error.instancePath).sort();
    expect(failed).toEqual(["/name", "/p_id", "/type"]);
  });

  it("refuses a field named __proto__ (400) and leaves Object.prototype untouched", async () => {
    const form = upload(ALL_BYTES);
    form.set("__proto__", "polluted");
    await expectProblem(
      await server.call("POST", "/workers/1/documents", { body: form }),
      400,
      "urn:problem-type:malformed-body",
    );
    expect(Object.prototype).not.toHaveProperty("polluted");
  });

  it.each([
    ["one byte under the limit", 1_048_575, 200],
    ["exactly the limit", 1_048_576, 200],
    ["one byte over the limit", 1_048_577, 413],
    ["twice the limit", 2_097_152, 413],
  ])("a text field %s → %i, never cut short", async (_label, size, status) => {
    received = undefined;
    const response = await server.call("POST", "/workers/1/documents", {
      body: upload(ALL_BYTES, { file_name: "n".repeat(size) }),
    });
    const seen = lastReceived();
    if (status === 200) {
      expect(response.status).toBe(200);
      expect(seen?.body.file_name).toHaveLength(size);
    } else {
      const problem = await expectProblem(response, 413, "urn:problem-type:payload-too-large");
      expect(problem["detail"]).toBe("A form field is larger than 1048576 bytes.");
      expect(seen).toBeUndefined();
    }
  });

  it("a text field sent as a file part has the same limit", async () => {
    const form = new FormData();
    form.set("name", new Blob(["n".repeat(1_048_577)]), "name.txt");
    await expectProblem(
      await server.call("POST", "/workers/1/documents", { body: form }),
      413,
      "urn:problem-type:payload-too-large",
    );
  });

  it.each([
    ["an empty body", ""],
    ["a body with no part", "--x--\r\n"],
  ])("%s for the required body → 400 body is required", async (_label, body) => {
    const problem = await expectProblem(
      await server.call("POST", "/workers/1/documents", { body, contentType: "multipart/form-data; boundary=x" }),
      400,
      "urn:problem-type:validation-error",
    );
    expect(problem["errors"]).toEqual([
      expect.objectContaining({
        in: "body",
        instancePath: "",
        keyword: "required",
        schemaPath: "#/paths/~1workers~1{id}~1documents/post/requestBody/required",
      }),
    ]);
  });

  it("a single-valued field sent twice → 400, saying so", async () => {
    const form = upload(ALL_BYTES, { name: "first" });
    form.append("name", "second");
    const problem = await expectProblem(
      await server.call("POST", "/workers/1/documents", { body: form }),
      400,
      "urn:problem-type:validation-error",
    );
    expect(problem["detail"]).toBe("body/name must be string (it was sent 2 times)");
  });

  it("a file sent twice to a single-file field → 400", async () => {
    const form = upload(ALL_BYTES);
    form.append("file", new Blob(["again"]), "again.bin");
    const problem = await expectProblem(
      await server.call("POST", "/workers/1/documents", { body: form }),
      400,
      "urn:problem-type:validation-error",
    );
    expect(problem["errors"]).toEqual([expect.objectContaining({ instancePath: "/file", keyword: "type" })]);
  });

  it("refuses a file name that is not valid UTF-8 (400), never handing on one with U+FFFD in its place", async () => {
    received = undefined;
    for (const name of [Buffer.from([0x61, 0xff, 0x62]), Buffer.from("a\uFFFDb.bin")]) {
      const head = Buffer.from('--b\r\ncontent-disposition: form-data; name="file"; filename="');
      const rest = Buffer.from('"\r\ncontent-type: application/octet-stream\r\n\r\nbytes\r\n--b--\r\n');
      const response = await server.call("POST", "/workers/1/documents", {
        body: Buffer.concat([head, name, rest]),
        contentType: "multipart/form-data; boundary=b",
      });
      const problem = await expectProblem(response, 400, "urn:problem-type:malformed-body");
      expect(problem["detail"]).toBe(
        'The file name of the form field "file" is not valid UTF-8 (it holds U+FFFD, which takes the place of bytes that are not): send the name encoded as UTF-8.',
      );
    }
    expect(lastReceived()).toBeUndefined();
  });

  it("stops reading at a refused field, answers at once, reads at most a bound of the rest, and lets the connection end", async () => {
    const own = await startServer({ handlers });
    const form = new FormData();
    form.set("file_name", "n".repeat(1_048_577));
    form.set("file", new Blob([new Uint8Array(4 * 1024 * 1024)]), "big.bin");
    await expectProblem(
      await own.call("POST", "/workers/1/documents", { body: form }),
      413,
      "urn:problem-type:payload-too-large",
    );
    expect((await own.call("POST", "/workers/1/documents", { body: upload(ALL_BYTES) })).status).toBe(200);
    // a body left unread would hold its connection open until the keep-alive timeout (72 s)
    const started = performance.now();
    await own.close();
    expect(performance.now() - started).toBeLessThan(5000);
  });
});
