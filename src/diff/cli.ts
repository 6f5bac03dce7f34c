/** `npm run spec:diff`: the breaking-change report between two versions of the spec (commands/diff.ts), run as a process. */
import { runAsProcess } from "../commands/command.js";
import { runDiffCommand } from "../commands/diff.js";

runAsProcess(runDiffCommand, "spec:diff", "the two specs that caused it");
