/** `npm run release`: a release of the package driven by the contract (commands/release.ts), run as a process. */
import { runAsProcess } from "../commands/command.js";
import { runReleaseCommand } from "../commands/release.js";

runAsProcess(runReleaseCommand, "release", "the command's output");
