/**
 * The sandbox reads no more of a body than it needs: a declared 1 GiB body after a 401 costs under
 * 1 MiB read, a chunked one sent for 2 s after a 401 too, and a keyed multipart upload of 100 MB is
 * cut at the file limit (10 MiB) as it streams, with 413. Each sender goes on writing after the
 * answer (it ignores the connection's end), as one bent on it would; the bytes are those the
 * server's connection read.
 */
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandbox, type Sandbox } from "../../../sandbox/index.js";
import { HARBOR } from "../../support/sandbox-calls.js";
import { countBytesRead, type PushOptions, pushBody } from "../../support/unwanted-body.js";

const MIB = 1024 * 1024;
let sandbox: Sandbox;
let counted: ReturnType<typeof countBytesRead>;
let port: number;

beforeAll(async () => {
  sandbox = await createSandbox({ database: "memory" });
  counted = countBytesRead(sandbox.server.server);
  port = (sandbox.server.server.address() as AddressInfo).port;
});
afterAll(() => sandbox.close());

/** Pushes a body after `head`; answers the status line, and the bytes the server read. */
async function push(head: string, options: PushOptions): Promise<{ status: string; read: number }> {
  const [outcome, read] = await Promise.all([pushBody(port, `${head}\r\nhost: x`, options), counted.closed()]);
  process.stdout.write(
    `sandbox, ${head.split("\r\n")[0]}: answered ${outcome.head.split("\r\n")[0]}, ${read} bytes read\n`,
  );
  return { status: outcome.head.split("\r\n")[0] ?? "", read };
}

describe("a body the sandbox refuses", () => {
  it("costs under 1 MiB read after a 401, declared 1 GiB or sent chunked", async () => {
    const head = "POST /api/1_12/events HTTP/1.1\r\ncontent-type: application/json\r\nx-api-key: not-a-key";
    const declared = await push(head, { total: 2 ** 30 });
    const chunked = await push(head, { total: 2 ** 40, chunked: true, ms: 2000 });
    for (const { status, read } of [declared, chunked]) {
      expect(status).toBe("HTTP/1.1 401 Unauthorized");
      expect(read).toBeLessThan(MIB);
    }
  });

  it("is cut at the file limit as a keyed multipart upload streams, with 413", async () => {
    const boundary = "cut-here";
    const start = Buffer.from(
      `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="big.bin"\r\ncontent-type: application/octet-stream\r\n\r\n`,
    );
    const { status, read } = await push(
      `POST /api/1_12/workers/7/documents HTTP/1.1\r\ncontent-type: multipart/form-data; boundary=${boundary}\r\nx-api-key: ${HARBOR}`,
      { total: 100 * MIB, start },
    );
    expect(status).toBe("HTTP/1.1 413 Payload Too Large");
    expect(read).toBeLessThan(11 * MIB);
  });
});
