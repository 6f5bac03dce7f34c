import { extname } from "node:path";
import { Worker } from "node:worker_threads";

/** A task in a worker thread, started ahead of its input. */
export interface WorkerTask<I, T> {
  /** posts the input; resolves with the worker's answer (or the fallback's, where no worker runs) */
  run(input: I): Promise<T>;
  /** ends the worker (a run that never came, or a run whose answer is no longer wanted) */
  stop(): void;
}

type Answer<T> = { ok: true; value: T } | { ok: false; error: string };

/**
 * Starts a module beside `from` (same folder, same extension: `.js` when the generator runs from
 * lib/, `.ts` under a TypeScript loader) in a worker thread, with `data` as its `workerData`; it may
 * prepare while the input is computed here. When no worker can run that module (a `.ts` file
 * without a loader that reaches workers, or a worker that fails), `fallback` does the work in this
 * thread instead: the result is the same, only slower. The worker never keeps the process alive
 * unless a run awaits it.
 */
export function startWorkerTask<I, T>(
  from: string,
  name: string,
  fallback: (input: I) => Promise<T>,
  data?: unknown,
): WorkerTask<I, T> {
  const entry = new URL(`./${name}${extname(new URL(from).pathname)}`, from);
  const worker = canRunInWorker(entry) ? startWorker(entry, data) : undefined;
  let failed = worker === undefined;
  let pending: { input: I; resolve: (value: T) => void; reject: (error: unknown) => void } | undefined;
  const settle = (answer: Answer<T> | "failed"): void => {
    const waiting = pending;
    pending = undefined;
    if (answer === "failed") failed = true;
    void worker?.terminate();
    if (waiting === undefined) return;
    if (answer === "failed") fallback(waiting.input).then(waiting.resolve, waiting.reject);
    else if (answer.ok) waiting.resolve(answer.value);
    else waiting.reject(new Error(answer.error));
  };
  worker?.once("message", (answer: Answer<T>) => settle(answer));
  worker?.once("error", () => settle("failed"));
  worker?.once("exit", () => settle("failed"));
  return {
    run(input) {
      if (failed || worker === undefined) return fallback(input);
      return new Promise<T>((resolve, reject) => {
        pending = { input, resolve, reject };
        try {
          worker.ref();
          worker.postMessage(input);
        } catch {
          settle("failed");
        }
      });
    },
    stop() {
      pending = undefined;
      void worker?.terminate();
    },
  };
}

/** Runs a module beside `from` in a worker thread with `input`, as startWorkerTask does. */
export function runWorkerTask<I, T>(
  from: string,
  name: string,
  input: I,
  fallback: (input: I) => Promise<T>,
  data?: unknown,
): Promise<T> {
  return startWorkerTask(from, name, fallback, data).run(input);
}

/**
 * A `.ts` module runs in a worker only when this process was started with a module loader (such
 * as `--import tsx`), which workers inherit. A `--require` preload is no loader for an ES module:
 * a worker started on one fails, and the work is done here after all, later.
 */
function canRunInWorker(entry: URL): boolean {
  if (!entry.pathname.endsWith(".ts")) return true;
  const flags = [...process.execArgv, process.env.NODE_OPTIONS ?? ""].join(" ");
  return /--(import|loader|experimental-loader)\b/.test(flags);
}

function startWorker(entry: URL, data: unknown): Worker | undefined {
  try {
    const worker = new Worker(entry, { workerData: data });
    worker.unref();
    return worker;
  } catch {
    return undefined;
  }
}

/** The worker side: waits for the input, computes the answer and sends it back once. */
export function answerWorkerTask<I, T>(
  port: { once(event: "message", listener: (input: I) => void): unknown; postMessage(value: unknown): void } | null,
  compute: (input: I) => Promise<T> | T,
): void {
  port?.once("message", (input) => {
    Promise.resolve()
      .then(() => compute(input))
      .then(
        (value) => port.postMessage({ ok: true, value } satisfies Answer<T>),
        (error: unknown) =>
          port.postMessage({
            ok: false,
            error: error instanceof Error ? (error.stack ?? error.message) : String(error),
          } satisfies Answer<T>),
      );
  });
}
