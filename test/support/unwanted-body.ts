/**
 * A client that keeps sending a body the server does not want, over loopback, and a count of the
 * bytes the server reads: for the tests that a refused body is not read to its end. The sender
 * writes as fast as the connection takes bytes, until the server closes the connection, the body
 * is all sent, or the time is up, and reports the answer it got meanwhile.
 */
import { connect, type Server, type Socket } from "node:net";

/** What a sender saw: the answer's head, how much it sent, and how it ended. */
export interface PushOutcome {
  /** the status line and headers of the answer, "" when none came */
  readonly head: string;
  readonly sent: number;
  readonly ended: "closed by the server" | "sent whole" | "time up";
}

/** How a body is pushed: its framing, its start, and how many bytes in all. */
export interface PushOptions {
  /** the bytes to send in all, after the head (the rest zeros after `start`) */
  readonly total: number;
  /** sent first (a multipart part's head, say) */
  readonly start?: Buffer;
  /** sent chunked, without a Content-Length */
  readonly chunked?: boolean;
  /** the longest the sender goes on (default 10 s) */
  readonly ms?: number;
}

const CHUNK = Buffer.alloc(64 * 1024);

/** Sends `head` (the request line and headers, without the blank line) and then the body. */
export function pushBody(port: number, head: string, options: PushOptions): Promise<PushOutcome> {
  const framing = options.chunked === true ? "transfer-encoding: chunked" : `content-length: ${options.total}`;
  return new Promise((resolve) => {
    // half-open: it goes on sending after the server has ended its side, as a sender bent on it does
    const socket: Socket = connect({ port, host: "127.0.0.1", allowHalfOpen: true });
    let answer = "";
    let sent = 0;
    let ended: PushOutcome["ended"] | undefined;
    const finish = (how: PushOutcome["ended"]): void => {
      ended ??= how;
      if (how === "time up") socket.destroy();
    };
    const timer = setTimeout(() => finish("time up"), options.ms ?? 10_000);
    socket.on("data", (data: Buffer) => {
      answer += data.toString("latin1");
    });
    socket.on("error", () => finish("closed by the server"));
    // the server ended its side: once all is sent there is nothing left to wait for
    socket.on("end", () => void (ended === "sent whole" && socket.destroy()));
    socket.on("close", () => {
      clearTimeout(timer);
      finish("closed by the server");
      resolve({ head: answer.split("\r\n\r\n")[0] ?? "", sent, ended: ended ?? "closed by the server" });
    });
    const piece = (bytes: Buffer): Buffer =>
      options.chunked === true
        ? Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, Buffer.from("\r\n")])
        : bytes;
    const pump = (): void => {
      while (ended === undefined && !socket.destroyed) {
        const bytes = CHUNK.subarray(0, Math.min(CHUNK.length, options.total - sent));
        sent += bytes.length;
        const more = socket.write(piece(bytes));
        if (sent >= options.total) {
          if (options.chunked === true) socket.write("0\r\n\r\n");
          ended = "sent whole";
          if (socket.readableEnded) socket.destroy();
          return;
        }
        if (!more) return void socket.once("drain", pump);
      }
    };
    socket.once("connect", () => {
      socket.write(`${head}\r\n${framing}\r\n\r\n`);
      if (options.start !== undefined) {
        socket.write(piece(options.start));
        sent += options.start.length;
      }
      pump();
    });
  });
}

/** Counts the bytes a server reads on each connection, once the connection is closed. */
export function countBytesRead(server: Server): { readonly closed: () => Promise<number> } {
  const counts: number[] = [];
  const waiting: ((bytes: number) => void)[] = [];
  server.on("connection", (socket: Socket) => {
    socket.once("close", () => {
      const taker = waiting.shift();
      if (taker === undefined) counts.push(socket.bytesRead);
      else taker(socket.bytesRead);
    });
  });
  return {
    /** the bytes read on the next connection to close */
    closed: () => {
      const count = counts.shift();
      return count !== undefined ? Promise.resolve(count) : new Promise((resolve) => waiting.push(resolve));
    },
  };
}
