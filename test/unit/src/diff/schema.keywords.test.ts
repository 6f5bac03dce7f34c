/** The JSON Schema 2020-12 applicators, content keywords and `not`, each read for requests and for responses, both ways. */
import { checkPairs } from "./support/check-pairs.js";
import { keywordPairs } from "./support/pairs/keywords.js";

checkPairs("2020-12 keywords", keywordPairs);
