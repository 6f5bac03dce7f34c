/** Worker entry: the types lane, whose libraries load while the main thread loads the spec. */
import { parentPort } from "node:worker_threads";
import { answerWorkerTask } from "../worker-task.js";
import { preloadTypesLane, runTypesLane } from "./types-lane.js";

preloadTypesLane();
answerWorkerTask(parentPort, runTypesLane);
