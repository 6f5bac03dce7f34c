/**
 * Unit tests of the validator helpers (runtime/validators/helpers/), one suite per source
 * module, run in this one file (see server.test.ts). Generated modules hold these functions' text;
 * the compiler's own tests check them again inside compiled validators.
 */
import "./validators/errors.suite.js";
import "./validators/values.suite.js";
import "./validators/coerce.suite.js";
import "./validators/formats.suite.js";
import "./validators/standard-schema.suite.js";
