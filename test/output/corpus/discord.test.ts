import { describeCorpus } from "./corpus-suite.js";

describeCorpus("discord", (document) => document === "discord.json", "types");
