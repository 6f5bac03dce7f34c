/**
 * The logs of `npm start` and `npm run mock` (the server runtime's log-output.ts): a terminal gets
 * pino-pretty's readable lines, a pipe the JSON lines (the lines of a few milliseconds in one
 * write), through a real Fastify logger.
 */
import { spawnSync } from "node:child_process";
import { Writable } from "node:stream";
import { stripVTControlCharacters } from "node:util";
import { fastify } from "fastify";
import { describe, expect, it } from "vitest";
import { LOG_DELAY_MS, loggerFor } from "../../../runtime/server/runtime/log-output.js";

/** A stream that keeps what is written to it, a terminal or not. */
function output(isTTY: boolean): Writable & { readonly isTTY: boolean; text(): string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString("utf8"));
      done();
    },
  });
  return Object.assign(stream, { isTTY, text: () => chunks.join("") });
}

/** The messages of JSON log lines, in order. */
function messagesOf(text: string): string[] {
  return text
    .trimEnd()
    .split("\n")
    .map((line) => (JSON.parse(line) as { msg: string }).msg);
}

describe("loggerFor", () => {
  it("gives JSON lines to a pipe, the lines of LOG_DELAY_MS in one write", async () => {
    const pipe = output(false);
    let writes = 0;
    const write = pipe.write.bind(pipe);
    pipe.write = ((chunk: string) => {
      writes++;
      return write(chunk);
    }) as typeof pipe.write;
    const logger = await loggerFor(pipe);
    const app = fastify({ logger: logger as Exclude<typeof logger, boolean | undefined> });
    app.log.info("first");
    await new Promise((resolve) => setImmediate(resolve));
    app.log.info("second");
    expect(pipe.text()).toBe("");
    await new Promise((resolve) => setTimeout(resolve, LOG_DELAY_MS + 30));
    expect(messagesOf(pipe.text())).toEqual(["first", "second"]);
    expect(writes).toBe(1);
    await app.close();
  });

  it("writes every line whole and in order: characters of any width, batches that fill, a line larger than a batch", async () => {
    const pipe = output(false);
    const logger = await loggerFor(pipe);
    const app = fastify({ logger: logger as Exclude<typeof logger, boolean | undefined> });
    const messages = [
      "Zürich — 東京 — 🎉",
      ...Array.from({ length: 1500 }, (_, i) => `line ${i} ${"é".repeat(i % 40)}`),
      "x".repeat(100_000),
      "after the large one",
    ];
    for (const message of messages) app.log.info(message);
    await new Promise((resolve) => setTimeout(resolve, LOG_DELAY_MS + 30));
    expect(messagesOf(pipe.text())).toEqual(messages);
    await app.close();
  });

  it("writes what is waiting when the process exits", () => {
    const module = JSON.stringify(new URL("../../../runtime/server/runtime/log-output.ts", import.meta.url).href);
    const script = `const { loggerFor } = await import(${module});
      const { fastify } = await import("fastify");
      const app = fastify({ logger: await loggerFor(process.stdout) });
      app.log.info("last words");
      process.exit(0);`;
    const done = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
    expect(done.status, done.stderr).toBe(0);
    expect((JSON.parse(done.stdout) as { msg: string }).msg).toBe("last words");
  });

  it("gives a terminal readable lines: time, level and message, without the process's fields", async () => {
    const terminal = output(true);
    const logger = await loggerFor(terminal);
    expect(typeof logger).toBe("object");
    const app = fastify({ logger: logger as Exclude<typeof logger, boolean | undefined> });
    app.log.info({ problem: { type: "urn:x" } }, "GET /api/1_12/events 401 0.4 ms: urn:x (No key.)");
    await app.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const text = stripVTControlCharacters(terminal.text());
    expect(text).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: GET \/api\/1_12\/events 401 0\.4 ms: urn:x \(No key\.\)\n/m);
    expect(text).not.toMatch(/pid|hostname|"level"|problem:/);
  });
});
