/** Worker entry: the side lane (validators and templated code), beside the types on the main thread. */
import { parentPort, workerData } from "node:worker_threads";
import { answerWorkerTask } from "../worker-task.js";
import type { LaneInput } from "./run-lane.js";
import { runSideLane } from "./side-lane.js";

void answerWorkerTask(parentPort, () => runSideLane(workerData as LaneInput));
