import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FileInput } from "../../../generated/client/index.js";
import { type Client, createClient } from "../../../generated/index.js";
import { API_KEY, type MockServer, type ReceivedFile, startMockServer } from "./mock-server.js";

/** Every byte value once, so a transcoding anywhere on the way shows. */
const ALL_BYTES = Uint8Array.from({ length: 256 }, (_, i) => i);

describe("multipart upload (addWorkerDocument)", () => {
  let server: MockServer;
  let client: Client;

  beforeAll(async () => {
    server = await startMockServer();
    client = createClient({ apiKey: API_KEY, serverVariables: { base_url: server.origin }, validateResponses: true });
  });
  afterAll(() => server.close());

  async function upload(file: FileInput): Promise<ReceivedFile> {
    const before = server.files.length;
    await client.addWorkerDocument({ path: { id: 7 }, body: { p_id: 7, name: "Scan", type: "image/png", file } });
    expect(server.files).toHaveLength(before + 1);
    return server.files[before] as ReceivedFile;
  }

  it.each([
    ["a Blob", () => new Blob([ALL_BYTES])],
    ["a Uint8Array", () => ALL_BYTES.slice()],
    ["a Node Buffer", () => Buffer.from(ALL_BYTES)],
    ["an ArrayBuffer", () => ALL_BYTES.slice().buffer],
    ["a subarray view", () => new Uint8Array([9, ...ALL_BYTES, 9]).subarray(1, 257)],
  ])("sends the bytes of %s intact", async (_label, make) => {
    const received = await upload(make());
    expect(Buffer.from(received.bytes).equals(Buffer.from(ALL_BYTES))).toBe(true);
    expect(received.filename).toBe("file");
    expect(received.type).toBe("application/octet-stream");
  });

  it("keeps a File's name and type", async () => {
    const received = await upload(new File([ALL_BYTES], "scan.png", { type: "image/png" }));
    expect([received.filename, received.type, received.bytes.length]).toEqual(["scan.png", "image/png", 256]);
  });

  it("takes a file name and media type with the bytes", async () => {
    const received = await upload({
      data: Buffer.from(ALL_BYTES),
      filename: "contract.pdf",
      contentType: "application/pdf",
    });
    expect([received.filename, received.type]).toEqual(["contract.pdf", "application/pdf"]);
    expect(Buffer.from(received.bytes).equals(Buffer.from(ALL_BYTES))).toBe(true);
  });

  it("sends other fields as strings, which the server converts per the schema", async () => {
    const received = await upload(new Blob(["x"]));
    expect(received.fields).toEqual({ p_id: 7, name: "Scan", type: "image/png" });
  });
});
