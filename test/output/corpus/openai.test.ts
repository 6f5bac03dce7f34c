import { describeCorpus } from "./corpus-suite.js";

describeCorpus("openai", (document) => document === "openai.yaml", "types");
