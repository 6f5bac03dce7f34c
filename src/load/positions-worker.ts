/** Worker entry: finds the positions of JSON pointers in a large spec off the main thread. */
import { parentPort } from "node:worker_threads";
import { answerWorkerTask } from "../worker-task.js";
import { findPositions } from "./positions.js";

answerWorkerTask(parentPort, ({ text, pointers }: { text: string; pointers: string[] }) =>
  findPositions(text, pointers),
);
