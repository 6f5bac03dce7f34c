import { extname } from "node:path";
import { Worker } from "node:worker_threads";

/**
 * Runs a module beside `from` (same folder, same extension: `.js` when the generator runs from
 * lib/, `.ts` under a TypeScript loader) in a worker thread, posting `data` and resolving with the
 * first message. When no worker can run that module (a `.ts` file without a loader that reaches
 * workers), `fallback` does the work in this thread instead: the result is the same, only slower.
 */
export function runWorkerTask<T>(from: string, name: string, data: unknown, fallback: () => Promise<T>): Promise<T> {
  const entry = new URL(`./${name}${extname(new URL(from).pathname)}`, from);
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    let worker: Worker;
    try {
      worker = new Worker(entry, { workerData: data });
    } catch {
      fallback().then(resolve, reject);
      return;
    }
    worker.once("message", (message: { ok: true; value: T } | { ok: false; error: string }) => {
      settled = true;
      void worker.terminate();
      if (message.ok) resolve(message.value);
      else reject(new Error(message.error));
    });
    worker.once("error", () => {
      if (!settled) fallback().then(resolve, reject);
      settled = true;
    });
  });
}

/** The worker side: computes the answer for the posted data and sends it back once. */
export async function answerWorkerTask<T>(port: { postMessage(value: unknown): void } | null, compute: () => Promise<T> | T): Promise<void> {
  if (port === null) return;
  try {
    port.postMessage({ ok: true, value: await compute() });
  } catch (error) {
    port.postMessage({ ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  }
}
