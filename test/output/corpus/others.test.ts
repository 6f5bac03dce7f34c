import { describeCorpus, LARGE } from "./corpus-suite.js";

// every document but the largest, which have files of their own
describeCorpus("others", (document) => !(LARGE as readonly string[]).includes(document));
