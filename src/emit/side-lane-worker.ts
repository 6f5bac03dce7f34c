/** Worker entry: the side lane (validators and mock), for a large document. */
import { parentPort } from "node:worker_threads";
import { answerWorkerTask } from "../worker-task.js";
import { runSideLane } from "./side-lane.js";

answerWorkerTask(parentPort, runSideLane);
