/**
 * The first start of `npm start` stopped with SIGKILL at every moment of each of its phases
 * (./first-start.ts); the other signal's sweep is a file of its own, so the two run at once.
 */
import { describeFirstStartSweep } from "./first-start.js";

describeFirstStartSweep("SIGKILL");
