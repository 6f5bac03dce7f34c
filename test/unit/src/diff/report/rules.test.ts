/** One pair of documents per rule of the catalogue, each checked in both directions for its rules, severity and bump. */
import { checkPairs, createSideCache } from "../support/check-pairs.js";
import { openapi32Pairs } from "../support/pairs/openapi-3.2.js";
import { operationPairs } from "../support/pairs/operations.js";
import { packagePairs } from "../support/pairs/package.js";
import { parameterPairs } from "../support/pairs/parameters.js";
import { requestBodyPairs } from "../support/pairs/request.js";
import { responsePairs } from "../support/pairs/response.js";
import { webhookPairs } from "../support/pairs/webhooks.js";

const sideOf = createSideCache();

checkPairs("request bodies", requestBodyPairs, sideOf);
checkPairs("request parameters", parameterPairs, sideOf);
checkPairs("responses", responsePairs, sideOf);
checkPairs("operations, security, servers and the document", operationPairs, sideOf);
checkPairs("webhooks", webhookPairs, sideOf);
checkPairs("the package surface", packagePairs, sideOf);
checkPairs("OpenAPI 3.2", openapi32Pairs, sideOf);
