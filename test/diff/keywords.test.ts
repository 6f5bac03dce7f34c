/** The JSON Schema 2020-12 applicators, content keywords and `not`, each read for requests and for responses, both ways. */
import { checkPairs } from "./check-pairs.js";
import { keywordPairs } from "./pairs/keywords.js";

checkPairs("2020-12 keywords", keywordPairs);
