/** The sandbox's behaviour on its default database: PGlite in memory, in this process. */
import { createSandbox } from "../../../sandbox/index.js";
import { describeSandbox, NOW } from "./behaviour.js";

describeSandbox("PGlite in memory", () => createSandbox({ now: () => NOW }));
