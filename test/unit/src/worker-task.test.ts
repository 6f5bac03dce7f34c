/**
 * A task in a worker thread, started ahead of its input: the worker's answer when it runs, the
 * fallback in this thread when it cannot start or fails, and an error passed on as it came.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { startWorkerTask } from "../../../src/worker-task.js";

const dir = mkdtempSync(join(tmpdir(), "worker-task-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
// the tasks are looked up beside `from`, with its extension
const from = pathToFileURL(join(dir, "from.mjs")).href;
const worker = (name: string, body: string): void =>
  writeFileSync(join(dir, `${name}.mjs`), `import { isMainThread, parentPort } from "node:worker_threads";\n${body}\n`);

worker(
  "double",
  `parentPort.once("message", (n) => parentPort.postMessage({ ok: true, value: { doubled: n * 2, isMainThread } }));`,
);
worker("refuse", `parentPort.once("message", () => parentPort.postMessage({ ok: false, error: "Error: no thanks" }));`);
worker("broken", `throw new Error("fails as it starts");`);
worker("silent", `parentPort.once("message", () => process.exit(3));`);

const inThread = async (n: number) => ({ doubled: n * 2, isMainThread: true });

describe("startWorkerTask", () => {
  it("answers from the worker, posted the input after it started", async () => {
    const task = startWorkerTask(from, "double", inThread);
    await expect(task.run(21)).resolves.toEqual({ doubled: 42, isMainThread: false });
  });

  it("passes on the error a worker answers with", async () => {
    await expect(startWorkerTask(from, "refuse", inThread).run(1)).rejects.toThrow("no thanks");
  });

  it("falls back to this thread when the worker fails as it starts, or ends without answering", async () => {
    await expect(startWorkerTask(from, "broken", inThread).run(2)).resolves.toEqual({ doubled: 4, isMainThread: true });
    await expect(startWorkerTask(from, "silent", inThread).run(3)).resolves.toEqual({ doubled: 6, isMainThread: true });
  });

  it("falls back when the module does not exist", async () => {
    await expect(startWorkerTask(from, "missing", inThread).run(4)).resolves.toEqual({
      doubled: 8,
      isMainThread: true,
    });
  });

  it("stops a worker whose run never comes", async () => {
    const task = startWorkerTask(from, "double", inThread);
    task.stop();
    // a stopped task's later run is done here
    await expect(task.run(6)).resolves.toEqual({ doubled: 12, isMainThread: true });
  });
});
