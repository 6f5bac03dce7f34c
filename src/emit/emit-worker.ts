/**
 * Worker entry: the emitters with one need (its `workerData`, see schedule.ts), whose library, if
 * it takes long to load, loads before the task comes.
 */
import { parentPort, workerData } from "node:worker_threads";
import { answerWorkerTask } from "../worker-task.js";
import type { EmitterNeed } from "./emitter.js";
import type { EmitTask } from "./run-emitters.js";
import { preload, runNeed } from "./schedule.js";

const need = workerData as EmitterNeed;
preload(need);
answerWorkerTask(parentPort, (task: EmitTask) => runNeed(need, task));
