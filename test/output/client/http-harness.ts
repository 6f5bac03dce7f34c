import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A request as the test server received it. */
export interface ReceivedRequest {
  readonly method: string;
  /** path and query, as sent */
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

export type TestHandler = (request: ReceivedRequest, response: ServerResponse) => void | Promise<void>;

/** A node:http server on 127.0.0.1 that records every request it receives. */
export interface TestServer {
  /** "http://127.0.0.1:<port>" */
  readonly origin: string;
  readonly requests: ReceivedRequest[];
  close(): Promise<void>;
}

export async function startTestServer(handler: TestHandler): Promise<TestServer> {
  const requests: ReceivedRequest[] = [];
  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const request = {
        method: incoming.method ?? "",
        url: incoming.url ?? "",
        headers: incoming.headers,
        body: Buffer.concat(chunks),
      };
      requests.push(request);
      Promise.resolve(handler(request, response)).catch((error: unknown) => {
        if (!response.headersSent) response.writeHead(500);
        response.end(String(error));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Answers with a JSON body (or a problem+json one for a problem). */
export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  const type = status >= 400 ? "application/problem+json" : "application/json";
  response.writeHead(status, { "content-type": type, "content-length": Buffer.byteLength(text), ...headers });
  response.end(text);
}

/** An RFC 9457 problem body like the generated server's. */
export function problem(
  status: number,
  title: string,
  detail: string,
  errors?: readonly Record<string, unknown>[],
): Record<string, unknown> {
  return {
    type: `urn:problem-type:${title.toLowerCase().replace(/ /g, "-")}`,
    title,
    status,
    detail,
    ...(errors ? { errors } : {}),
  };
}

/** A port nothing listens on: bound, then released. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
