/** Worker entry: finds the positions of JSON pointers in a large spec off the main thread. */
import { parentPort, workerData } from "node:worker_threads";
import { answerWorkerTask } from "../worker-task.js";
import { findPositions } from "./positions.js";

const { text, pointers } = workerData as { text: string; pointers: string[] };
void answerWorkerTask(parentPort, () => findPositions(text, pointers));
