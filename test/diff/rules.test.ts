/** One pair of documents per rule of the catalogue, each checked in both directions for its rules, severity and bump. */
import { checkPairs, createSideCache } from "./check-pairs.js";
import { openapi32Pairs } from "./pairs/openapi-3.2.js";
import { operationPairs } from "./pairs/operations.js";
import { packagePairs } from "./pairs/package.js";
import { parameterPairs } from "./pairs/parameters.js";
import { requestBodyPairs } from "./pairs/request.js";
import { responsePairs } from "./pairs/response.js";
import { webhookPairs } from "./pairs/webhooks.js";

const sideOf = createSideCache();

checkPairs("request bodies", requestBodyPairs, sideOf);
checkPairs("request parameters", parameterPairs, sideOf);
checkPairs("responses", responsePairs, sideOf);
checkPairs("operations, security, servers and the document", operationPairs, sideOf);
checkPairs("webhooks", webhookPairs, sideOf);
checkPairs("the package surface", packagePairs, sideOf);
checkPairs("OpenAPI 3.2", openapi32Pairs, sideOf);
