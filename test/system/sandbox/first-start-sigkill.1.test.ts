/**
 * The first start of `npm start` stopped with SIGKILL in every stage of its phases up to the
 * directory's move: starting and making it (./first-start.ts). The phases after it are
 * ./first-start-sigkill.2.test.ts's, and the other signal's sweep is files of its own, so all run at once.
 */
import { describeFirstStartSweep } from "./first-start.js";

describeFirstStartSweep("SIGKILL", ["starting", "making"]);
