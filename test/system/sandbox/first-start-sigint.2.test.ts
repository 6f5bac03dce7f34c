/**
 * The first start of `npm start` stopped with SIGINT in every stage of its phases after the
 * directory's move: opening it and listening (./first-start.ts). The phases before it are
 * ./first-start-sigint.1.test.ts's, and the other signal's sweep is files of its own, so all run at once.
 */
import { describeFirstStartSweep } from "./first-start.js";

describeFirstStartSweep("SIGINT", ["opening", "listening"]);
