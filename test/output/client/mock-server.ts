/**
 * The generated mock server (buildServer with createMockHandlers) on 127.0.0.1, for the client's
 * round trips: it checks every request against the contract and answers each operation with its
 * example. It records the requests it receives and the files uploaded to addWorkerDocument.
 */
import type { AddressInfo } from "node:net";
import type { WorkerDocument } from "../../../generated/index.js";
import {
  buildServer,
  createKeyAuthenticator,
  createMockHandlers,
  type Handlers,
  mockAnswers,
} from "../../../generated/server/index.js";

/** A request as the server received it (before its body was read). */
export interface SeenRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
}

/** A file part addWorkerDocument received. */
export interface ReceivedFile {
  readonly filename: string;
  readonly type: string;
  readonly bytes: Buffer;
  /** the other form fields, as the server converted them */
  readonly fields: Readonly<Record<string, unknown>>;
}

export interface MockServer {
  readonly origin: string;
  readonly requests: SeenRequest[];
  readonly files: ReceivedFile[];
  close(): Promise<void>;
}

export const API_KEY = "test-key";

export async function startMockServer(): Promise<MockServer> {
  const requests: SeenRequest[] = [];
  const files: ReceivedFile[] = [];
  const handlers: Handlers = { ...createMockHandlers(), addWorkerDocument: recordUpload(files) };
  const app = await buildServer({ handlers, authenticate: createKeyAuthenticator([API_KEY]) });
  app.addHook(
    "onRequest",
    async (request) => void requests.push({ method: request.method, url: request.url, headers: request.headers }),
  );
  await app.listen({ port: 0, host: "127.0.0.1" });
  const { port } = app.server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, requests, files, close: () => app.close() };
}

function recordUpload(files: ReceivedFile[]): Handlers["addWorkerDocument"] {
  return ({ body }) => {
    const { file, ...fields } = body;
    if (file !== undefined) files.push({ filename: file.filename, type: file.mimetype, bytes: file.data, fields });
    return { status: 200, body: mockAnswers.addWorkerDocument?.body as WorkerDocument };
  };
}
