/** Raw HTTP/1.1 over a TCP socket, for requests no HTTP client would send. */
import { connect } from "node:net";

/** One answer read off the wire. */
export interface RawAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** What came back on one connection: every answer, in order, and whether the server closed it. */
export interface RawExchange {
  readonly answers: readonly RawAnswer[];
  readonly closed: boolean;
  /** bytes after the last whole answer (an answer cut short) */
  readonly rest: string;
}

/** How `rawExchange` writes. */
export interface RawOptions {
  /** a pause between chunks, in ms */
  readonly gapMs?: number;
  /** how long to wait for the next byte before giving up, in ms */
  readonly idleMs?: number;
  /** half-close the connection once everything is written (the server sees the end of input) */
  readonly end?: boolean;
  /** drop the connection once everything is written, without reading */
  readonly cutOff?: boolean;
}

/**
 * Writes `chunks` to a new connection (with `gapMs` between them), then reads until the server
 * closes it, or `idleMs` pass without a byte, and parses the answers it sent.
 */
export function rawExchange(
  port: number,
  chunks: readonly (string | Buffer)[],
  options: RawOptions = {},
): Promise<RawExchange> {
  const { gapMs = 0, idleMs = 1500, end = false, cutOff = false } = options;
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    const received: Buffer[] = [];
    let timer: NodeJS.Timeout | undefined;
    let settled = false;
    const finish = (closed: boolean): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ ...parseAnswers(Buffer.concat(received)), closed });
    };
    const arm = (): void => {
      clearTimeout(timer);
      timer = setTimeout(() => finish(false), idleMs);
    };
    socket.on("data", (chunk) => {
      received.push(chunk);
      arm();
    });
    socket.on("close", () => finish(true));
    socket.on("error", () => finish(true));
    socket.on("connect", async () => {
      arm();
      for (const chunk of chunks) {
        if (socket.destroyed) return;
        socket.write(chunk);
        if (gapMs > 0) await new Promise((wait) => setTimeout(wait, gapMs));
      }
      if (cutOff) finish(false);
      else if (end && !socket.destroyed) socket.end();
    });
  });
}

/** Splits a byte stream into HTTP/1.1 answers (Content-Length or chunked bodies). */
export function parseAnswers(bytes: Buffer): { answers: RawAnswer[]; rest: string } {
  const answers: RawAnswer[] = [];
  let text = bytes.toString("latin1");
  for (;;) {
    const headEnd = text.indexOf("\r\n\r\n");
    if (headEnd === -1) break;
    const [statusLine = "", ...lines] = text.slice(0, headEnd).split("\r\n");
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1]);
    if (!Number.isInteger(status)) break;
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(":");
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const parsed = readBody(text.slice(headEnd + 4), headers);
    if (parsed === undefined) break;
    answers.push({ status, headers, body: Buffer.from(parsed.body, "latin1").toString("utf8") });
    text = parsed.rest;
  }
  return { answers, rest: text };
}

function readBody(text: string, headers: Readonly<Record<string, string>>): { body: string; rest: string } | undefined {
  if (headers["transfer-encoding"] === "chunked") {
    let body = "";
    let rest = text;
    for (;;) {
      const lineEnd = rest.indexOf("\r\n");
      if (lineEnd === -1) return undefined;
      const size = Number.parseInt(rest.slice(0, lineEnd), 16);
      if (rest.length < lineEnd + 2 + size + 2) return undefined;
      body += rest.slice(lineEnd + 2, lineEnd + 2 + size);
      rest = rest.slice(lineEnd + 2 + size + 2);
      if (size === 0) return { body, rest };
    }
  }
  const length = Number(headers["content-length"] ?? "0");
  if (text.length < length) return undefined;
  return { body: text.slice(0, length), rest: text.slice(length) };
}
