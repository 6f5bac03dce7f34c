/** `npm run package`: the package built and packed into a tarball (commands/package.ts), run as a process. */
import { runAsProcess } from "../commands/command.js";
import { runPackageCommand } from "../commands/package.js";

runAsProcess(runPackageCommand, "package", "the command's output");
