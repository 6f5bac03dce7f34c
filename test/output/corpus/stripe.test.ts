import { describeCorpus } from "./corpus-suite.js";

describeCorpus("stripe", (document) => document === "stripe.yaml", "types");
