/** `npm run generate`: the generator's command (commands/generate.ts), run as a process. */
import { runAsProcess } from "./commands/command.js";
import { runGenerateCommand } from "./commands/generate.js";

runAsProcess(runGenerateCommand, "the generator", "the spec that caused it");
