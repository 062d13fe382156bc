#!/usr/bin/env node
import { createRequire as __speedgateCreateRequire } from 'node:module';
import { dirname as __speedgateDirname } from 'node:path';
import { fileURLToPath as __speedgateFileURLToPath } from 'node:url';
const require = __speedgateCreateRequire(import.meta.url);
const __filename = __speedgateFileURLToPath(import.meta.url);
const __dirname = __speedgateDirname(__filename);
import {
  CALIBRATION_KIND,
  CALIBRATION_SCHEMA_VERSION,
  ConfigError,
  DEFAULT_MAX_QUALITY_DROP,
  DEFAULT_REVISION_LABEL,
  DEFAULT_WATCH,
  GATE_MODES,
  GitError,
  LABEL_BASELINE_BASE,
  MIN_CALIBRATION_ROUNDS,
  PROCESS_ENGINE_HOST,
  RoundCancelledError,
  SPEEDGATE_VERSION,
  calibratedSpread,
  calibrationRunsOf,
  calibrationSettingsOf,
  checkRound,
  cleanLogLine,
  computeNoiseFloor,
  countingSentence,
  createProgressRenderer,
  createSeededRandom,
  decideBuilds,
  decideVerdict,
  delinkPlainText,
  describeChangedQuestions,
  describeFailureCause,
  describeFixedFour,
  describeGate,
  describeHolders,
  describeInconclusive,
  describeInterval,
  describeIntervalBriefly,
  describeLoad,
  describeMemoryInUse,
  describeNextStep,
  describeNoise,
  describePromptCounts,
  describeQualityRows,
  describeQueueBound,
  describeRegressedPrompts,
  describeRoundTwoRuns,
  describeRuns,
  describeRuns2,
  describeScenarioScore,
  describeScenarios,
  describeScore,
  describeSharedPrompts,
  describeSpeedLead,
  describeTimeChange,
  describeTimeSpent,
  describeUnexplainedDecision,
  describeUnscored,
  describeVerdict,
  detectQueueBound,
  detectableWithin,
  engineFamily,
  escapeInline,
  explainCudaOom,
  external_exports,
  findCardFiles,
  findPackageRoot,
  findRepositoryRoot,
  findSameOutcome,
  findSharedPrompts,
  fingerprintRound,
  formatMs,
  formatPercent,
  formatRate,
  formatRatio,
  formatRunScores,
  formatScoreAgainstBar,
  formatTimes,
  gitText,
  hashBaseline,
  integrityRows,
  isAncestor,
  loadRound,
  loadSimInputs,
  markdownTable,
  mergeScorecards,
  parseRoundConfigYaml,
  planCommitChange,
  processEngineCwd,
  promptReason,
  readGpuSnapshot,
  readScorecard,
  renderCommitsText,
  renderEngineTimes,
  renderMarkdown,
  resolveCommit,
  resolveRoundEngines,
  roundRuns,
  runRound,
  selfAgreementOf,
  sendsBenchPrompts,
  simProfileSchema,
  startSimEngine,
  sweepLeftRounds,
  writeAtomically,
  writeScorecard
} from "./chunks/chunk-TICY4OEO.js";
import {
  require_docker
} from "./chunks/chunk-TM3QZYC6.js";
import {
  DEFAULT_STALE_AFTER_MS,
  LABEL_CREATED,
  LABEL_ROLE,
  dockerStatusCode,
  isProcessAlive,
  sweepResources
} from "./chunks/chunk-VN7B5FJJ.js";
import {
  __commonJS,
  __require,
  __toESM
} from "./chunks/chunk-BY2EMTJO.js";

// node_modules/postgres-array/index.js
var require_postgres_array = __commonJS({
  "node_modules/postgres-array/index.js"(exports) {
    "use strict";
    exports.parse = function(source, transform) {
      return new ArrayParser(source, transform).parse();
    };
    var ArrayParser = class _ArrayParser {
      constructor(source, transform) {
        this.source = source;
        this.transform = transform || identity;
        this.position = 0;
        this.entries = [];
        this.recorded = [];
        this.dimension = 0;
      }
      isEof() {
        return this.position >= this.source.length;
      }
      nextCharacter() {
        var character = this.source[this.position++];
        if (character === "\\") {
          return {
            value: this.source[this.position++],
            escaped: true
          };
        }
        return {
          value: character,
          escaped: false
        };
      }
      record(character) {
        this.recorded.push(character);
      }
      newEntry(includeEmpty) {
        var entry;
        if (this.recorded.length > 0 || includeEmpty) {
          entry = this.recorded.join("");
          if (entry === "NULL" && !includeEmpty) {
            entry = null;
          }
          if (entry !== null) entry = this.transform(entry);
          this.entries.push(entry);
          this.recorded = [];
        }
      }
      consumeDimensions() {
        if (this.source[0] === "[") {
          while (!this.isEof()) {
            var char = this.nextCharacter();
            if (char.value === "=") break;
          }
        }
      }
      parse(nested) {
        var character, parser, quote;
        this.consumeDimensions();
        while (!this.isEof()) {
          character = this.nextCharacter();
          if (character.value === "{" && !quote) {
            this.dimension++;
            if (this.dimension > 1) {
              parser = new _ArrayParser(this.source.substr(this.position - 1), this.transform);
              this.entries.push(parser.parse(true));
              this.position += parser.position - 2;
            }
          } else if (character.value === "}" && !quote) {
            this.dimension--;
            if (!this.dimension) {
              this.newEntry();
              if (nested) return this.entries;
            }
          } else if (character.value === '"' && !character.escaped) {
            if (quote) this.newEntry(true);
            quote = !quote;
          } else if (character.value === "," && !quote) {
            this.newEntry();
          } else {
            this.record(character.value);
          }
        }
        if (this.dimension !== 0) {
          throw new Error("array dimension not balanced");
        }
        return this.entries;
      }
    };
    function identity(value) {
      return value;
    }
  }
});

// node_modules/pg-types/lib/arrayParser.js
var require_arrayParser = __commonJS({
  "node_modules/pg-types/lib/arrayParser.js"(exports, module) {
    var array = require_postgres_array();
    module.exports = {
      create: function(source, transform) {
        return {
          parse: function() {
            return array.parse(source, transform);
          }
        };
      }
    };
  }
});

// node_modules/postgres-date/index.js
var require_postgres_date = __commonJS({
  "node_modules/postgres-date/index.js"(exports, module) {
    "use strict";
    var DATE_TIME = /(\d{1,})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(\.\d{1,})?.*?( BC)?$/;
    var DATE = /^(\d{1,})-(\d{2})-(\d{2})( BC)?$/;
    var TIME_ZONE = /([Z+-])(\d{2})?:?(\d{2})?:?(\d{2})?/;
    var INFINITY = /^-?infinity$/;
    module.exports = function parseDate(isoDate) {
      if (INFINITY.test(isoDate)) {
        return Number(isoDate.replace("i", "I"));
      }
      var matches = DATE_TIME.exec(isoDate);
      if (!matches) {
        return getDate(isoDate) || null;
      }
      var isBC = !!matches[8];
      var year = parseInt(matches[1], 10);
      if (isBC) {
        year = bcYearToNegativeYear(year);
      }
      var month = parseInt(matches[2], 10) - 1;
      var day = matches[3];
      var hour = parseInt(matches[4], 10);
      var minute = parseInt(matches[5], 10);
      var second = parseInt(matches[6], 10);
      var ms = matches[7];
      ms = ms ? 1e3 * parseFloat(ms) : 0;
      var date;
      var offset = timeZoneOffset(isoDate);
      if (offset != null) {
        date = new Date(Date.UTC(year, month, day, hour, minute, second, ms));
        if (is0To99(year)) {
          date.setUTCFullYear(year);
        }
        if (offset !== 0) {
          date.setTime(date.getTime() - offset);
        }
      } else {
        date = new Date(year, month, day, hour, minute, second, ms);
        if (is0To99(year)) {
          date.setFullYear(year);
        }
      }
      return date;
    };
    function getDate(isoDate) {
      var matches = DATE.exec(isoDate);
      if (!matches) {
        return;
      }
      var year = parseInt(matches[1], 10);
      var isBC = !!matches[4];
      if (isBC) {
        year = bcYearToNegativeYear(year);
      }
      var month = parseInt(matches[2], 10) - 1;
      var day = matches[3];
      var date = new Date(year, month, day);
      if (is0To99(year)) {
        date.setFullYear(year);
      }
      return date;
    }
    function timeZoneOffset(isoDate) {
      if (isoDate.endsWith("+00")) {
        return 0;
      }
      var zone = TIME_ZONE.exec(isoDate.split(" ")[1]);
      if (!zone) return;
      var type = zone[1];
      if (type === "Z") {
        return 0;
      }
      var sign = type === "-" ? -1 : 1;
      var offset = parseInt(zone[2], 10) * 3600 + parseInt(zone[3] || 0, 10) * 60 + parseInt(zone[4] || 0, 10);
      return offset * sign * 1e3;
    }
    function bcYearToNegativeYear(year) {
      return -(year - 1);
    }
    function is0To99(num) {
      return num >= 0 && num < 100;
    }
  }
});

// node_modules/xtend/mutable.js
var require_mutable = __commonJS({
  "node_modules/xtend/mutable.js"(exports, module) {
    module.exports = extend;
    var hasOwnProperty = Object.prototype.hasOwnProperty;
    function extend(target) {
      for (var i = 1; i < arguments.length; i++) {
        var source = arguments[i];
        for (var key in source) {
          if (hasOwnProperty.call(source, key)) {
            target[key] = source[key];
          }
        }
      }
      return target;
    }
  }
});

// node_modules/postgres-interval/index.js
var require_postgres_interval = __commonJS({
  "node_modules/postgres-interval/index.js"(exports, module) {
    "use strict";
    var extend = require_mutable();
    module.exports = PostgresInterval;
    function PostgresInterval(raw) {
      if (!(this instanceof PostgresInterval)) {
        return new PostgresInterval(raw);
      }
      extend(this, parse(raw));
    }
    var properties = ["seconds", "minutes", "hours", "days", "months", "years"];
    PostgresInterval.prototype.toPostgres = function() {
      var filtered = properties.filter(this.hasOwnProperty, this);
      if (this.milliseconds && filtered.indexOf("seconds") < 0) {
        filtered.push("seconds");
      }
      if (filtered.length === 0) return "0";
      return filtered.map(function(property) {
        var value = this[property] || 0;
        if (property === "seconds" && this.milliseconds) {
          value = (value + this.milliseconds / 1e3).toFixed(6).replace(/\.?0+$/, "");
        }
        return value + " " + property;
      }, this).join(" ");
    };
    var propertiesISOEquivalent = {
      years: "Y",
      months: "M",
      days: "D",
      hours: "H",
      minutes: "M",
      seconds: "S"
    };
    var dateProperties = ["years", "months", "days"];
    var timeProperties = ["hours", "minutes", "seconds"];
    PostgresInterval.prototype.toISOString = PostgresInterval.prototype.toISO = function() {
      var datePart = dateProperties.map(buildProperty, this).join("");
      var timePart = timeProperties.map(buildProperty, this).join("");
      return "P" + datePart + "T" + timePart;
      function buildProperty(property) {
        var value = this[property] || 0;
        if (property === "seconds" && this.milliseconds) {
          value = (value + this.milliseconds / 1e3).toFixed(6).replace(/0+$/, "");
        }
        return value + propertiesISOEquivalent[property];
      }
    };
    var NUMBER = "([+-]?\\d+)";
    var YEAR = NUMBER + "\\s+years?";
    var MONTH = NUMBER + "\\s+mons?";
    var DAY = NUMBER + "\\s+days?";
    var TIME = "([+-])?([\\d]*):(\\d\\d):(\\d\\d)\\.?(\\d{1,6})?";
    var INTERVAL = new RegExp([YEAR, MONTH, DAY, TIME].map(function(regexString) {
      return "(" + regexString + ")?";
    }).join("\\s*"));
    var positions = {
      years: 2,
      months: 4,
      days: 6,
      hours: 9,
      minutes: 10,
      seconds: 11,
      milliseconds: 12
    };
    var negatives = ["hours", "minutes", "seconds", "milliseconds"];
    function parseMilliseconds(fraction) {
      var microseconds = fraction + "000000".slice(fraction.length);
      return parseInt(microseconds, 10) / 1e3;
    }
    function parse(interval) {
      if (!interval) return {};
      var matches = INTERVAL.exec(interval);
      var isNegative = matches[8] === "-";
      return Object.keys(positions).reduce(function(parsed, property) {
        var position = positions[property];
        var value = matches[position];
        if (!value) return parsed;
        value = property === "milliseconds" ? parseMilliseconds(value) : parseInt(value, 10);
        if (!value) return parsed;
        if (isNegative && ~negatives.indexOf(property)) {
          value *= -1;
        }
        parsed[property] = value;
        return parsed;
      }, {});
    }
  }
});

// node_modules/postgres-bytea/index.js
var require_postgres_bytea = __commonJS({
  "node_modules/postgres-bytea/index.js"(exports, module) {
    "use strict";
    var bufferFrom = Buffer.from || Buffer;
    module.exports = function parseBytea(input) {
      if (/^\\x/.test(input)) {
        return bufferFrom(input.substr(2), "hex");
      }
      var output = "";
      var i = 0;
      while (i < input.length) {
        if (input[i] !== "\\") {
          output += input[i];
          ++i;
        } else {
          if (/[0-7]{3}/.test(input.substr(i + 1, 3))) {
            output += String.fromCharCode(parseInt(input.substr(i + 1, 3), 8));
            i += 4;
          } else {
            var backslashes = 1;
            while (i + backslashes < input.length && input[i + backslashes] === "\\") {
              backslashes++;
            }
            for (var k = 0; k < Math.floor(backslashes / 2); ++k) {
              output += "\\";
            }
            i += Math.floor(backslashes / 2) * 2;
          }
        }
      }
      return bufferFrom(output, "binary");
    };
  }
});

// node_modules/pg-types/lib/textParsers.js
var require_textParsers = __commonJS({
  "node_modules/pg-types/lib/textParsers.js"(exports, module) {
    var array = require_postgres_array();
    var arrayParser = require_arrayParser();
    var parseDate = require_postgres_date();
    var parseInterval = require_postgres_interval();
    var parseByteA = require_postgres_bytea();
    function allowNull(fn) {
      return function nullAllowed(value) {
        if (value === null) return value;
        return fn(value);
      };
    }
    function parseBool(value) {
      if (value === null) return value;
      return value === "TRUE" || value === "t" || value === "true" || value === "y" || value === "yes" || value === "on" || value === "1";
    }
    function parseBoolArray(value) {
      if (!value) return null;
      return array.parse(value, parseBool);
    }
    function parseBaseTenInt(string) {
      return parseInt(string, 10);
    }
    function parseIntegerArray(value) {
      if (!value) return null;
      return array.parse(value, allowNull(parseBaseTenInt));
    }
    function parseBigIntegerArray(value) {
      if (!value) return null;
      return array.parse(value, allowNull(function(entry) {
        return parseBigInteger(entry).trim();
      }));
    }
    var parsePointArray = function(value) {
      if (!value) {
        return null;
      }
      var p = arrayParser.create(value, function(entry) {
        if (entry !== null) {
          entry = parsePoint(entry);
        }
        return entry;
      });
      return p.parse();
    };
    var parseFloatArray = function(value) {
      if (!value) {
        return null;
      }
      var p = arrayParser.create(value, function(entry) {
        if (entry !== null) {
          entry = parseFloat(entry);
        }
        return entry;
      });
      return p.parse();
    };
    var parseStringArray = function(value) {
      if (!value) {
        return null;
      }
      var p = arrayParser.create(value);
      return p.parse();
    };
    var parseDateArray = function(value) {
      if (!value) {
        return null;
      }
      var p = arrayParser.create(value, function(entry) {
        if (entry !== null) {
          entry = parseDate(entry);
        }
        return entry;
      });
      return p.parse();
    };
    var parseIntervalArray = function(value) {
      if (!value) {
        return null;
      }
      var p = arrayParser.create(value, function(entry) {
        if (entry !== null) {
          entry = parseInterval(entry);
        }
        return entry;
      });
      return p.parse();
    };
    var parseByteAArray = function(value) {
      if (!value) {
        return null;
      }
      return array.parse(value, allowNull(parseByteA));
    };
    var parseInteger = function(value) {
      return parseInt(value, 10);
    };
    var parseBigInteger = function(value) {
      var valStr = String(value);
      if (/^\d+$/.test(valStr)) {
        return valStr;
      }
      return value;
    };
    var parseJsonArray = function(value) {
      if (!value) {
        return null;
      }
      return array.parse(value, allowNull(JSON.parse));
    };
    var parsePoint = function(value) {
      if (value[0] !== "(") {
        return null;
      }
      value = value.substring(1, value.length - 1).split(",");
      return {
        x: parseFloat(value[0]),
        y: parseFloat(value[1])
      };
    };
    var parseCircle = function(value) {
      if (value[0] !== "<" && value[1] !== "(") {
        return null;
      }
      var point = "(";
      var radius = "";
      var pointParsed = false;
      for (var i = 2; i < value.length - 1; i++) {
        if (!pointParsed) {
          point += value[i];
        }
        if (value[i] === ")") {
          pointParsed = true;
          continue;
        } else if (!pointParsed) {
          continue;
        }
        if (value[i] === ",") {
          continue;
        }
        radius += value[i];
      }
      var result = parsePoint(point);
      result.radius = parseFloat(radius);
      return result;
    };
    var init = function(register) {
      register(20, parseBigInteger);
      register(21, parseInteger);
      register(23, parseInteger);
      register(26, parseInteger);
      register(700, parseFloat);
      register(701, parseFloat);
      register(16, parseBool);
      register(1082, parseDate);
      register(1114, parseDate);
      register(1184, parseDate);
      register(600, parsePoint);
      register(651, parseStringArray);
      register(718, parseCircle);
      register(1e3, parseBoolArray);
      register(1001, parseByteAArray);
      register(1005, parseIntegerArray);
      register(1007, parseIntegerArray);
      register(1028, parseIntegerArray);
      register(1016, parseBigIntegerArray);
      register(1017, parsePointArray);
      register(1021, parseFloatArray);
      register(1022, parseFloatArray);
      register(1231, parseFloatArray);
      register(1014, parseStringArray);
      register(1015, parseStringArray);
      register(1008, parseStringArray);
      register(1009, parseStringArray);
      register(1040, parseStringArray);
      register(1041, parseStringArray);
      register(1115, parseDateArray);
      register(1182, parseDateArray);
      register(1185, parseDateArray);
      register(1186, parseInterval);
      register(1187, parseIntervalArray);
      register(17, parseByteA);
      register(114, JSON.parse.bind(JSON));
      register(3802, JSON.parse.bind(JSON));
      register(199, parseJsonArray);
      register(3807, parseJsonArray);
      register(3907, parseStringArray);
      register(2951, parseStringArray);
      register(791, parseStringArray);
      register(1183, parseStringArray);
      register(1270, parseStringArray);
    };
    module.exports = {
      init
    };
  }
});

// node_modules/pg-int8/index.js
var require_pg_int8 = __commonJS({
  "node_modules/pg-int8/index.js"(exports, module) {
    "use strict";
    var BASE = 1e6;
    function readInt8(buffer) {
      var high = buffer.readInt32BE(0);
      var low = buffer.readUInt32BE(4);
      var sign = "";
      if (high < 0) {
        high = ~high + (low === 0);
        low = ~low + 1 >>> 0;
        sign = "-";
      }
      var result = "";
      var carry;
      var t;
      var digits;
      var pad2;
      var l;
      var i;
      {
        carry = high % BASE;
        high = high / BASE >>> 0;
        t = 4294967296 * carry + low;
        low = t / BASE >>> 0;
        digits = "" + (t - BASE * low);
        if (low === 0 && high === 0) {
          return sign + digits + result;
        }
        pad2 = "";
        l = 6 - digits.length;
        for (i = 0; i < l; i++) {
          pad2 += "0";
        }
        result = pad2 + digits + result;
      }
      {
        carry = high % BASE;
        high = high / BASE >>> 0;
        t = 4294967296 * carry + low;
        low = t / BASE >>> 0;
        digits = "" + (t - BASE * low);
        if (low === 0 && high === 0) {
          return sign + digits + result;
        }
        pad2 = "";
        l = 6 - digits.length;
        for (i = 0; i < l; i++) {
          pad2 += "0";
        }
        result = pad2 + digits + result;
      }
      {
        carry = high % BASE;
        high = high / BASE >>> 0;
        t = 4294967296 * carry + low;
        low = t / BASE >>> 0;
        digits = "" + (t - BASE * low);
        if (low === 0 && high === 0) {
          return sign + digits + result;
        }
        pad2 = "";
        l = 6 - digits.length;
        for (i = 0; i < l; i++) {
          pad2 += "0";
        }
        result = pad2 + digits + result;
      }
      {
        carry = high % BASE;
        t = 4294967296 * carry + low;
        digits = "" + t % BASE;
        return sign + digits + result;
      }
    }
    module.exports = readInt8;
  }
});

// node_modules/pg-types/lib/binaryParsers.js
var require_binaryParsers = __commonJS({
  "node_modules/pg-types/lib/binaryParsers.js"(exports, module) {
    var parseInt64 = require_pg_int8();
    var parseBits = function(data, bits, offset, invert, callback) {
      offset = offset || 0;
      invert = invert || false;
      callback = callback || function(lastValue, newValue, bits2) {
        return lastValue * Math.pow(2, bits2) + newValue;
      };
      var offsetBytes = offset >> 3;
      var inv = function(value) {
        if (invert) {
          return ~value & 255;
        }
        return value;
      };
      var mask = 255;
      var firstBits = 8 - offset % 8;
      if (bits < firstBits) {
        mask = 255 << 8 - bits & 255;
        firstBits = bits;
      }
      if (offset) {
        mask = mask >> offset % 8;
      }
      var result = 0;
      if (offset % 8 + bits >= 8) {
        result = callback(0, inv(data[offsetBytes]) & mask, firstBits);
      }
      var bytes = bits + offset >> 3;
      for (var i = offsetBytes + 1; i < bytes; i++) {
        result = callback(result, inv(data[i]), 8);
      }
      var lastBits = (bits + offset) % 8;
      if (lastBits > 0) {
        result = callback(result, inv(data[bytes]) >> 8 - lastBits, lastBits);
      }
      return result;
    };
    var parseFloatFromBits = function(data, precisionBits, exponentBits) {
      var bias = Math.pow(2, exponentBits - 1) - 1;
      var sign = parseBits(data, 1);
      var exponent = parseBits(data, exponentBits, 1);
      if (exponent === 0) {
        return 0;
      }
      var precisionBitsCounter = 1;
      var parsePrecisionBits = function(lastValue, newValue, bits) {
        if (lastValue === 0) {
          lastValue = 1;
        }
        for (var i = 1; i <= bits; i++) {
          precisionBitsCounter /= 2;
          if ((newValue & 1 << bits - i) > 0) {
            lastValue += precisionBitsCounter;
          }
        }
        return lastValue;
      };
      var mantissa = parseBits(data, precisionBits, exponentBits + 1, false, parsePrecisionBits);
      if (exponent == Math.pow(2, exponentBits + 1) - 1) {
        if (mantissa === 0) {
          return sign === 0 ? Infinity : -Infinity;
        }
        return NaN;
      }
      return (sign === 0 ? 1 : -1) * Math.pow(2, exponent - bias) * mantissa;
    };
    var parseInt16 = function(value) {
      if (parseBits(value, 1) == 1) {
        return -1 * (parseBits(value, 15, 1, true) + 1);
      }
      return parseBits(value, 15, 1);
    };
    var parseInt32 = function(value) {
      if (parseBits(value, 1) == 1) {
        return -1 * (parseBits(value, 31, 1, true) + 1);
      }
      return parseBits(value, 31, 1);
    };
    var parseFloat32 = function(value) {
      return parseFloatFromBits(value, 23, 8);
    };
    var parseFloat64 = function(value) {
      return parseFloatFromBits(value, 52, 11);
    };
    var parseNumeric = function(value) {
      var sign = parseBits(value, 16, 32);
      if (sign == 49152) {
        return NaN;
      }
      var weight = Math.pow(1e4, parseBits(value, 16, 16));
      var result = 0;
      var digits = [];
      var ndigits = parseBits(value, 16);
      for (var i = 0; i < ndigits; i++) {
        result += parseBits(value, 16, 64 + 16 * i) * weight;
        weight /= 1e4;
      }
      var scale = Math.pow(10, parseBits(value, 16, 48));
      return (sign === 0 ? 1 : -1) * Math.round(result * scale) / scale;
    };
    var parseDate = function(isUTC, value) {
      var sign = parseBits(value, 1);
      var rawValue = parseBits(value, 63, 1);
      var result = new Date((sign === 0 ? 1 : -1) * rawValue / 1e3 + 9466848e5);
      if (!isUTC) {
        result.setTime(result.getTime() + result.getTimezoneOffset() * 6e4);
      }
      result.usec = rawValue % 1e3;
      result.getMicroSeconds = function() {
        return this.usec;
      };
      result.setMicroSeconds = function(value2) {
        this.usec = value2;
      };
      result.getUTCMicroSeconds = function() {
        return this.usec;
      };
      return result;
    };
    var parseArray = function(value) {
      var dim = parseBits(value, 32);
      var flags = parseBits(value, 32, 32);
      var elementType = parseBits(value, 32, 64);
      var offset = 96;
      var dims = [];
      for (var i = 0; i < dim; i++) {
        dims[i] = parseBits(value, 32, offset);
        offset += 32;
        offset += 32;
      }
      var parseElement = function(elementType2) {
        var length = parseBits(value, 32, offset);
        offset += 32;
        if (length == 4294967295) {
          return null;
        }
        var result;
        if (elementType2 == 23 || elementType2 == 20) {
          result = parseBits(value, length * 8, offset);
          offset += length * 8;
          return result;
        } else if (elementType2 == 25) {
          result = value.toString(this.encoding, offset >> 3, (offset += length << 3) >> 3);
          return result;
        } else {
          console.log("ERROR: ElementType not implemented: " + elementType2);
        }
      };
      var parse = function(dimension, elementType2) {
        var array = [];
        var i2;
        if (dimension.length > 1) {
          var count = dimension.shift();
          for (i2 = 0; i2 < count; i2++) {
            array[i2] = parse(dimension, elementType2);
          }
          dimension.unshift(count);
        } else {
          for (i2 = 0; i2 < dimension[0]; i2++) {
            array[i2] = parseElement(elementType2);
          }
        }
        return array;
      };
      return parse(dims, elementType);
    };
    var parseText = function(value) {
      return value.toString("utf8");
    };
    var parseBool = function(value) {
      if (value === null) return null;
      return parseBits(value, 8) > 0;
    };
    var init = function(register) {
      register(20, parseInt64);
      register(21, parseInt16);
      register(23, parseInt32);
      register(26, parseInt32);
      register(1700, parseNumeric);
      register(700, parseFloat32);
      register(701, parseFloat64);
      register(16, parseBool);
      register(1114, parseDate.bind(null, false));
      register(1184, parseDate.bind(null, true));
      register(1e3, parseArray);
      register(1007, parseArray);
      register(1016, parseArray);
      register(1008, parseArray);
      register(1009, parseArray);
      register(25, parseText);
    };
    module.exports = {
      init
    };
  }
});

// node_modules/pg-types/lib/builtins.js
var require_builtins = __commonJS({
  "node_modules/pg-types/lib/builtins.js"(exports, module) {
    module.exports = {
      BOOL: 16,
      BYTEA: 17,
      CHAR: 18,
      INT8: 20,
      INT2: 21,
      INT4: 23,
      REGPROC: 24,
      TEXT: 25,
      OID: 26,
      TID: 27,
      XID: 28,
      CID: 29,
      JSON: 114,
      XML: 142,
      PG_NODE_TREE: 194,
      SMGR: 210,
      PATH: 602,
      POLYGON: 604,
      CIDR: 650,
      FLOAT4: 700,
      FLOAT8: 701,
      ABSTIME: 702,
      RELTIME: 703,
      TINTERVAL: 704,
      CIRCLE: 718,
      MACADDR8: 774,
      MONEY: 790,
      MACADDR: 829,
      INET: 869,
      ACLITEM: 1033,
      BPCHAR: 1042,
      VARCHAR: 1043,
      DATE: 1082,
      TIME: 1083,
      TIMESTAMP: 1114,
      TIMESTAMPTZ: 1184,
      INTERVAL: 1186,
      TIMETZ: 1266,
      BIT: 1560,
      VARBIT: 1562,
      NUMERIC: 1700,
      REFCURSOR: 1790,
      REGPROCEDURE: 2202,
      REGOPER: 2203,
      REGOPERATOR: 2204,
      REGCLASS: 2205,
      REGTYPE: 2206,
      UUID: 2950,
      TXID_SNAPSHOT: 2970,
      PG_LSN: 3220,
      PG_NDISTINCT: 3361,
      PG_DEPENDENCIES: 3402,
      TSVECTOR: 3614,
      TSQUERY: 3615,
      GTSVECTOR: 3642,
      REGCONFIG: 3734,
      REGDICTIONARY: 3769,
      JSONB: 3802,
      REGNAMESPACE: 4089,
      REGROLE: 4096
    };
  }
});

// node_modules/pg-types/index.js
var require_pg_types = __commonJS({
  "node_modules/pg-types/index.js"(exports) {
    var textParsers = require_textParsers();
    var binaryParsers = require_binaryParsers();
    var arrayParser = require_arrayParser();
    var builtinTypes = require_builtins();
    exports.getTypeParser = getTypeParser;
    exports.setTypeParser = setTypeParser;
    exports.arrayParser = arrayParser;
    exports.builtins = builtinTypes;
    var typeParsers = {
      text: {},
      binary: {}
    };
    function noParse(val) {
      return String(val);
    }
    function getTypeParser(oid, format) {
      format = format || "text";
      if (!typeParsers[format]) {
        return noParse;
      }
      return typeParsers[format][oid] || noParse;
    }
    function setTypeParser(oid, format, parseFn) {
      if (typeof format == "function") {
        parseFn = format;
        format = "text";
      }
      typeParsers[format][oid] = parseFn;
    }
    textParsers.init(function(oid, converter) {
      typeParsers.text[oid] = converter;
    });
    binaryParsers.init(function(oid, converter) {
      typeParsers.binary[oid] = converter;
    });
  }
});

// node_modules/pg/lib/defaults.js
var require_defaults = __commonJS({
  "node_modules/pg/lib/defaults.js"(exports, module) {
    "use strict";
    var user;
    try {
      user = process.platform === "win32" ? process.env.USERNAME : process.env.USER;
    } catch {
    }
    module.exports = {
      // database host. defaults to localhost
      host: "localhost",
      // database user's name
      user,
      // name of database to connect
      database: void 0,
      // database user's password
      password: null,
      // a Postgres connection string to be used instead of setting individual connection items
      // NOTE:  Setting this value will cause it to override any other value (such as database or user) defined
      // in the defaults object.
      connectionString: void 0,
      // database port
      port: 5432,
      // number of rows to return at a time from a prepared statement's
      // portal. 0 will return all rows at once
      rows: 0,
      // binary result mode
      binary: false,
      // Connection pool options - see https://github.com/brianc/node-pg-pool
      // number of connections to use in connection pool
      // 0 will disable connection pooling
      max: 10,
      // max milliseconds a client can go unused before it is removed
      // from the pool and destroyed
      idleTimeoutMillis: 3e4,
      client_encoding: "",
      ssl: false,
      // SSL negotiation style: 'postgres' (traditional SSLRequest) or 'direct'
      sslnegotiation: void 0,
      application_name: void 0,
      fallback_application_name: void 0,
      options: void 0,
      parseInputDatesAsUTC: false,
      // max milliseconds any query using this connection will execute for before timing out in error.
      // false=unlimited
      statement_timeout: false,
      // Abort any statement that waits longer than the specified duration in milliseconds while attempting to acquire a lock.
      // false=unlimited
      lock_timeout: false,
      // Terminate any session with an open transaction that has been idle for longer than the specified duration in milliseconds
      // false=unlimited
      idle_in_transaction_session_timeout: false,
      // max milliseconds to wait for query to complete (client side)
      query_timeout: false,
      connect_timeout: 0,
      keepalives: 1,
      keepalives_idle: 0
    };
    var pgTypes = require_pg_types();
    var parseBigInteger = pgTypes.getTypeParser(20, "text");
    var parseBigIntegerArray = pgTypes.getTypeParser(1016, "text");
    module.exports.__defineSetter__("parseInt8", function(val) {
      pgTypes.setTypeParser(20, "text", val ? pgTypes.getTypeParser(23, "text") : parseBigInteger);
      pgTypes.setTypeParser(1016, "text", val ? pgTypes.getTypeParser(1007, "text") : parseBigIntegerArray);
    });
  }
});

// node_modules/pg/lib/utils.js
var require_utils = __commonJS({
  "node_modules/pg/lib/utils.js"(exports, module) {
    "use strict";
    var defaults2 = require_defaults();
    var nodeUtils = __require("util");
    var { isDate } = __require("util/types");
    var invalidDateDeprecationNotice = nodeUtils.deprecate(
      () => {
      },
      "Sending an invalid date to Postgres is deprecated and will throw an error in the next major version of pg. Ensure any Date object passed as a query parameter is valid.",
      "PG_INVALID_DATE"
    );
    function escapeElement(elementRepresentation) {
      const escaped = elementRepresentation.replace(/\\/g, "\\\\").replace(/"/g, '\\"');
      return '"' + escaped + '"';
    }
    function arrayString(val) {
      let result = "{";
      for (let i = 0; i < val.length; i++) {
        if (i > 0) {
          result += ",";
        }
        let item = val[i];
        if (item == null) {
          result += "NULL";
        } else if (Array.isArray(item)) {
          result += arrayString(item);
        } else if (ArrayBuffer.isView(item)) {
          if (!(item instanceof Buffer)) {
            item = Buffer.from(item.buffer, item.byteOffset, item.byteLength);
          }
          result += "\\\\x" + item.toString("hex");
        } else {
          result += escapeElement(prepareValue(item));
        }
      }
      result += "}";
      return result;
    }
    var prepareValue = function(val, seen) {
      if (val == null) {
        return null;
      }
      if (typeof val === "object") {
        if (val instanceof Buffer) {
          return val;
        }
        if (ArrayBuffer.isView(val)) {
          return Buffer.from(val.buffer, val.byteOffset, val.byteLength);
        }
        if (isDate(val)) {
          if (isNaN(val.getTime())) {
            invalidDateDeprecationNotice();
          }
          if (defaults2.parseInputDatesAsUTC) {
            return dateToStringUTC(val);
          } else {
            return dateToString(val);
          }
        }
        if (Array.isArray(val)) {
          return arrayString(val);
        }
        return prepareObject(val, seen);
      }
      return val.toString();
    };
    function prepareObject(val, seen) {
      if (val && typeof val.toPostgres === "function") {
        seen = seen || [];
        if (seen.indexOf(val) !== -1) {
          throw new Error('circular reference detected while preparing "' + val + '" for query');
        }
        seen.push(val);
        return prepareValue(val.toPostgres(prepareValue), seen);
      }
      return JSON.stringify(val);
    }
    function dateToString(date) {
      let offset = -date.getTimezoneOffset();
      let year = date.getFullYear();
      const isBCYear = year < 1;
      if (isBCYear) year = Math.abs(year) + 1;
      let ret = String(year).padStart(4, "0") + "-" + String(date.getMonth() + 1).padStart(2, "0") + "-" + String(date.getDate()).padStart(2, "0") + "T" + String(date.getHours()).padStart(2, "0") + ":" + String(date.getMinutes()).padStart(2, "0") + ":" + String(date.getSeconds()).padStart(2, "0") + "." + String(date.getMilliseconds()).padStart(3, "0");
      if (offset < 0) {
        ret += "-";
        offset *= -1;
      } else {
        ret += "+";
      }
      ret += String(Math.floor(offset / 60)).padStart(2, "0") + ":" + String(offset % 60).padStart(2, "0");
      if (isBCYear) ret += " BC";
      return ret;
    }
    function dateToStringUTC(date) {
      let year = date.getUTCFullYear();
      const isBCYear = year < 1;
      if (isBCYear) year = Math.abs(year) + 1;
      let ret = String(year).padStart(4, "0") + "-" + String(date.getUTCMonth() + 1).padStart(2, "0") + "-" + String(date.getUTCDate()).padStart(2, "0") + "T" + String(date.getUTCHours()).padStart(2, "0") + ":" + String(date.getUTCMinutes()).padStart(2, "0") + ":" + String(date.getUTCSeconds()).padStart(2, "0") + "." + String(date.getUTCMilliseconds()).padStart(3, "0");
      ret += "+00:00";
      if (isBCYear) ret += " BC";
      return ret;
    }
    function normalizeQueryConfig(config, values, callback) {
      config = typeof config === "string" ? { text: config } : cloneQueryConfig(config);
      if (values) {
        if (typeof values === "function") {
          config.callback = values;
        } else {
          config.values = values;
        }
      }
      if (callback) {
        config.callback = callback;
      }
      return config;
    }
    function cloneQueryConfig(config) {
      if (config == null) {
        return config;
      }
      return Object.defineProperties(Object.create(Object.getPrototypeOf(config)), Object.getOwnPropertyDescriptors(config));
    }
    var escapeIdentifier2 = function(str) {
      return '"' + str.replace(/"/g, '""') + '"';
    };
    var escapeLiteral2 = function(str) {
      let hasBackslash = false;
      let escaped = "'";
      if (str == null) {
        return "''";
      }
      if (typeof str !== "string") {
        return "''";
      }
      for (let i = 0; i < str.length; i++) {
        const c = str[i];
        if (c === "'") {
          escaped += c + c;
        } else if (c === "\\") {
          escaped += c + c;
          hasBackslash = true;
        } else {
          escaped += c;
        }
      }
      escaped += "'";
      if (hasBackslash === true) {
        escaped = " E" + escaped;
      }
      return escaped;
    };
    module.exports = {
      prepareValue: function prepareValueWrapper(value) {
        return prepareValue(value);
      },
      normalizeQueryConfig,
      escapeIdentifier: escapeIdentifier2,
      escapeLiteral: escapeLiteral2
    };
  }
});

// node_modules/pg/lib/crypto/utils.js
var require_utils2 = __commonJS({
  "node_modules/pg/lib/crypto/utils.js"(exports, module) {
    var nodeCrypto = __require("crypto");
    module.exports = {
      postgresMd5PasswordHash,
      randomBytes,
      deriveKey,
      sha256,
      hashByName,
      hmacSha256,
      md5
    };
    var webCrypto = nodeCrypto.webcrypto || globalThis.crypto;
    var subtleCrypto = webCrypto.subtle;
    var textEncoder = new TextEncoder();
    function randomBytes(length) {
      return webCrypto.getRandomValues(Buffer.alloc(length));
    }
    async function md5(string) {
      try {
        return nodeCrypto.createHash("md5").update(string, "utf-8").digest("hex");
      } catch (e) {
        const data = typeof string === "string" ? textEncoder.encode(string) : string;
        const hash = await subtleCrypto.digest("MD5", data);
        return Array.from(new Uint8Array(hash)).map((b) => b.toString(16).padStart(2, "0")).join("");
      }
    }
    async function postgresMd5PasswordHash(user, password, salt) {
      const inner = await md5(password + user);
      const outer = await md5(Buffer.concat([Buffer.from(inner), salt]));
      return "md5" + outer;
    }
    async function sha256(text) {
      return await subtleCrypto.digest("SHA-256", text);
    }
    async function hashByName(hashName, text) {
      return await subtleCrypto.digest(hashName, text);
    }
    async function hmacSha256(keyBuffer, msg) {
      const key = await subtleCrypto.importKey("raw", keyBuffer, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
      return await subtleCrypto.sign("HMAC", key, textEncoder.encode(msg));
    }
    async function deriveKey(password, salt, iterations) {
      const key = await subtleCrypto.importKey("raw", textEncoder.encode(password), "PBKDF2", false, ["deriveBits"]);
      const params = { name: "PBKDF2", hash: "SHA-256", salt, iterations };
      return await subtleCrypto.deriveBits(params, key, 32 * 8, ["deriveBits"]);
    }
  }
});

// node_modules/pg/lib/crypto/cert-signatures.js
var require_cert_signatures = __commonJS({
  "node_modules/pg/lib/crypto/cert-signatures.js"(exports, module) {
    function x509Error(msg, cert) {
      return new Error("SASL channel binding: " + msg + " when parsing public certificate " + cert.toString("base64"));
    }
    function readASN1Length(data, index) {
      let length = data[index++];
      if (length < 128) return { length, index };
      const lengthBytes = length & 127;
      if (lengthBytes > 4) throw x509Error("bad length", data);
      length = 0;
      for (let i = 0; i < lengthBytes; i++) {
        length = length << 8 | data[index++];
      }
      return { length, index };
    }
    function readASN1OID(data, index) {
      if (data[index++] !== 6) throw x509Error("non-OID data", data);
      const { length: OIDLength, index: indexAfterOIDLength } = readASN1Length(data, index);
      index = indexAfterOIDLength;
      const lastIndex = index + OIDLength;
      const byte1 = data[index++];
      let oid = (byte1 / 40 >> 0) + "." + byte1 % 40;
      while (index < lastIndex) {
        let value = 0;
        while (index < lastIndex) {
          const nextByte = data[index++];
          value = value << 7 | nextByte & 127;
          if (nextByte < 128) break;
        }
        oid += "." + value;
      }
      return { oid, index };
    }
    function expectASN1Seq(data, index) {
      if (data[index++] !== 48) throw x509Error("non-sequence data", data);
      return readASN1Length(data, index);
    }
    function signatureAlgorithmHashFromCertificate(data, index) {
      if (index === void 0) index = 0;
      index = expectASN1Seq(data, index).index;
      const { length: certInfoLength, index: indexAfterCertInfoLength } = expectASN1Seq(data, index);
      index = indexAfterCertInfoLength + certInfoLength;
      index = expectASN1Seq(data, index).index;
      const { oid, index: indexAfterOID } = readASN1OID(data, index);
      switch (oid) {
        // RSA
        case "1.2.840.113549.1.1.4":
          return "MD5";
        case "1.2.840.113549.1.1.5":
          return "SHA-1";
        case "1.2.840.113549.1.1.11":
          return "SHA-256";
        case "1.2.840.113549.1.1.12":
          return "SHA-384";
        case "1.2.840.113549.1.1.13":
          return "SHA-512";
        case "1.2.840.113549.1.1.14":
          return "SHA-224";
        case "1.2.840.113549.1.1.15":
          return "SHA512-224";
        case "1.2.840.113549.1.1.16":
          return "SHA512-256";
        // ECDSA
        case "1.2.840.10045.4.1":
          return "SHA-1";
        case "1.2.840.10045.4.3.1":
          return "SHA-224";
        case "1.2.840.10045.4.3.2":
          return "SHA-256";
        case "1.2.840.10045.4.3.3":
          return "SHA-384";
        case "1.2.840.10045.4.3.4":
          return "SHA-512";
        // RSASSA-PSS: hash is indicated separately
        case "1.2.840.113549.1.1.10": {
          index = indexAfterOID;
          index = expectASN1Seq(data, index).index;
          if (data[index++] !== 160) throw x509Error("non-tag data", data);
          index = readASN1Length(data, index).index;
          index = expectASN1Seq(data, index).index;
          const { oid: hashOID } = readASN1OID(data, index);
          switch (hashOID) {
            // standalone hash OIDs
            case "1.2.840.113549.2.5":
              return "MD5";
            case "1.3.14.3.2.26":
              return "SHA-1";
            case "2.16.840.1.101.3.4.2.1":
              return "SHA-256";
            case "2.16.840.1.101.3.4.2.2":
              return "SHA-384";
            case "2.16.840.1.101.3.4.2.3":
              return "SHA-512";
          }
          throw x509Error("unknown hash OID " + hashOID, data);
        }
        // Ed25519 -- see https://github.com/openssl/openssl/issues/15477
        case "1.3.101.110":
        case "1.3.101.112":
          return "SHA-512";
        // Ed448 -- still not in pg 17.2 (if supported, digest would be SHAKE256 x 64 bytes)
        case "1.3.101.111":
        case "1.3.101.113":
          throw x509Error("Ed448 certificate channel binding is not currently supported by Postgres");
      }
      throw x509Error("unknown OID " + oid, data);
    }
    module.exports = { signatureAlgorithmHashFromCertificate };
  }
});

// node_modules/pg/lib/crypto/sasl.js
var require_sasl = __commonJS({
  "node_modules/pg/lib/crypto/sasl.js"(exports, module) {
    "use strict";
    var crypto = require_utils2();
    var { signatureAlgorithmHashFromCertificate } = require_cert_signatures();
    function saslprep(password) {
      const nonAsciiSpace = /[\u00A0\u1680\u2000-\u200B\u202F\u205F\u3000]/g;
      const mappedToNothing = /[\u00AD\u034F\u1806\u180B\u180C\u180D\u200C\u200D\u2060\uFE00-\uFE0F\uFEFF]/g;
      return password.replace(nonAsciiSpace, " ").replace(mappedToNothing, "").normalize("NFKC");
    }
    var DEFAULT_MAX_SCRAM_ITERATIONS = 1e5;
    function startSession(mechanisms, stream, scramMaxIterations = DEFAULT_MAX_SCRAM_ITERATIONS) {
      const candidates = ["SCRAM-SHA-256"];
      if (stream) candidates.unshift("SCRAM-SHA-256-PLUS");
      const mechanism = candidates.find((candidate) => mechanisms.includes(candidate));
      if (!mechanism) {
        throw new Error("SASL: Only mechanism(s) " + candidates.join(" and ") + " are supported");
      }
      if (mechanism === "SCRAM-SHA-256-PLUS" && typeof stream.getPeerCertificate !== "function") {
        throw new Error("SASL: Mechanism SCRAM-SHA-256-PLUS requires a certificate");
      }
      const clientNonce = crypto.randomBytes(18).toString("base64");
      const gs2Header = mechanism === "SCRAM-SHA-256-PLUS" ? "p=tls-server-end-point" : stream ? "y" : "n";
      return {
        mechanism,
        clientNonce,
        response: gs2Header + ",,n=*,r=" + clientNonce,
        message: "SASLInitialResponse",
        scramMaxIterations
      };
    }
    async function continueSession(session, password, serverData, stream) {
      if (session.message !== "SASLInitialResponse") {
        throw new Error("SASL: Last message was not SASLInitialResponse");
      }
      if (typeof password !== "string") {
        throw new Error("SASL: SCRAM-SERVER-FIRST-MESSAGE: client password must be a string");
      }
      if (password === "") {
        throw new Error("SASL: SCRAM-SERVER-FIRST-MESSAGE: client password must be a non-empty string");
      }
      if (typeof serverData !== "string") {
        throw new Error("SASL: SCRAM-SERVER-FIRST-MESSAGE: serverData must be a string");
      }
      const sv = parseServerFirstMessage(serverData);
      if (!sv.nonce.startsWith(session.clientNonce)) {
        throw new Error("SASL: SCRAM-SERVER-FIRST-MESSAGE: server nonce does not start with client nonce");
      } else if (sv.nonce.length === session.clientNonce.length) {
        throw new Error("SASL: SCRAM-SERVER-FIRST-MESSAGE: server nonce is too short");
      }
      const scramMaxIterations = typeof session.scramMaxIterations === "number" ? session.scramMaxIterations : DEFAULT_MAX_SCRAM_ITERATIONS;
      if (scramMaxIterations !== 0 && sv.iteration > scramMaxIterations) {
        throw new Error(
          "SASL: SCRAM-SERVER-FIRST-MESSAGE: iteration count " + sv.iteration + " exceeds scramMaxIterations of " + scramMaxIterations
        );
      }
      const clientFirstMessageBare = "n=*,r=" + session.clientNonce;
      const serverFirstMessage = "r=" + sv.nonce + ",s=" + sv.salt + ",i=" + sv.iteration;
      let channelBinding = stream ? "eSws" : "biws";
      if (session.mechanism === "SCRAM-SHA-256-PLUS") {
        const peerCert = stream.getPeerCertificate().raw;
        let hashName = signatureAlgorithmHashFromCertificate(peerCert);
        if (hashName === "MD5" || hashName === "SHA-1") hashName = "SHA-256";
        const certHash = await crypto.hashByName(hashName, peerCert);
        const bindingData = Buffer.concat([Buffer.from("p=tls-server-end-point,,"), Buffer.from(certHash)]);
        channelBinding = bindingData.toString("base64");
      }
      const clientFinalMessageWithoutProof = "c=" + channelBinding + ",r=" + sv.nonce;
      const authMessage = clientFirstMessageBare + "," + serverFirstMessage + "," + clientFinalMessageWithoutProof;
      const saltBytes = Buffer.from(sv.salt, "base64");
      const saltedPassword = await crypto.deriveKey(saslprep(password), saltBytes, sv.iteration);
      const clientKey = await crypto.hmacSha256(saltedPassword, "Client Key");
      const storedKey = await crypto.sha256(clientKey);
      const clientSignature = await crypto.hmacSha256(storedKey, authMessage);
      const clientProof = xorBuffers(Buffer.from(clientKey), Buffer.from(clientSignature)).toString("base64");
      const serverKey = await crypto.hmacSha256(saltedPassword, "Server Key");
      const serverSignatureBytes = await crypto.hmacSha256(serverKey, authMessage);
      session.message = "SASLResponse";
      session.serverSignature = Buffer.from(serverSignatureBytes).toString("base64");
      session.response = clientFinalMessageWithoutProof + ",p=" + clientProof;
    }
    function finalizeSession(session, serverData) {
      if (session.message !== "SASLResponse") {
        throw new Error("SASL: Last message was not SASLResponse");
      }
      if (typeof serverData !== "string") {
        throw new Error("SASL: SCRAM-SERVER-FINAL-MESSAGE: serverData must be a string");
      }
      const { serverSignature } = parseServerFinalMessage(serverData);
      if (serverSignature !== session.serverSignature) {
        throw new Error("SASL: SCRAM-SERVER-FINAL-MESSAGE: server signature does not match");
      }
    }
    function isPrintableChars(text) {
      if (typeof text !== "string") {
        throw new TypeError("SASL: text must be a string");
      }
      return text.split("").map((_, i) => text.charCodeAt(i)).every((c) => c >= 33 && c <= 43 || c >= 45 && c <= 126);
    }
    function isBase64(text) {
      return /^(?:[a-zA-Z0-9+/]{4})*(?:[a-zA-Z0-9+/]{2}==|[a-zA-Z0-9+/]{3}=)?$/.test(text);
    }
    function parseAttributePairs(text) {
      if (typeof text !== "string") {
        throw new TypeError("SASL: attribute pairs text must be a string");
      }
      return new Map(
        text.split(",").map((attrValue) => {
          if (!/^.=/.test(attrValue)) {
            throw new Error("SASL: Invalid attribute pair entry");
          }
          const name = attrValue[0];
          const value = attrValue.substring(2);
          return [name, value];
        })
      );
    }
    function parseServerFirstMessage(data) {
      const attrPairs = parseAttributePairs(data);
      const nonce = attrPairs.get("r");
      if (!nonce) {
        throw new Error("SASL: SCRAM-SERVER-FIRST-MESSAGE: nonce missing");
      } else if (!isPrintableChars(nonce)) {
        throw new Error("SASL: SCRAM-SERVER-FIRST-MESSAGE: nonce must only contain printable characters");
      }
      const salt = attrPairs.get("s");
      if (!salt) {
        throw new Error("SASL: SCRAM-SERVER-FIRST-MESSAGE: salt missing");
      } else if (!isBase64(salt)) {
        throw new Error("SASL: SCRAM-SERVER-FIRST-MESSAGE: salt must be base64");
      }
      const iterationText = attrPairs.get("i");
      if (!iterationText) {
        throw new Error("SASL: SCRAM-SERVER-FIRST-MESSAGE: iteration missing");
      } else if (!/^[1-9][0-9]*$/.test(iterationText)) {
        throw new Error("SASL: SCRAM-SERVER-FIRST-MESSAGE: invalid iteration count");
      }
      const iteration = parseInt(iterationText, 10);
      return {
        nonce,
        salt,
        iteration
      };
    }
    function parseServerFinalMessage(serverData) {
      const attrPairs = parseAttributePairs(serverData);
      const error = attrPairs.get("e");
      const serverSignature = attrPairs.get("v");
      if (error) {
        throw new Error(`SASL: SCRAM-SERVER-FINAL-MESSAGE: server returned error: "${error}"`);
      }
      if (!serverSignature) {
        throw new Error("SASL: SCRAM-SERVER-FINAL-MESSAGE: server signature is missing");
      } else if (!isBase64(serverSignature)) {
        throw new Error("SASL: SCRAM-SERVER-FINAL-MESSAGE: server signature must be base64");
      }
      return {
        serverSignature
      };
    }
    function xorBuffers(a, b) {
      if (!Buffer.isBuffer(a)) {
        throw new TypeError("first argument must be a Buffer");
      }
      if (!Buffer.isBuffer(b)) {
        throw new TypeError("second argument must be a Buffer");
      }
      if (a.length !== b.length) {
        throw new Error("Buffer lengths must match");
      }
      if (a.length === 0) {
        throw new Error("Buffers cannot be empty");
      }
      return Buffer.from(a.map((_, i) => a[i] ^ b[i]));
    }
    module.exports = {
      startSession,
      continueSession,
      finalizeSession,
      DEFAULT_MAX_SCRAM_ITERATIONS
    };
  }
});

// node_modules/pg/lib/type-overrides.js
var require_type_overrides = __commonJS({
  "node_modules/pg/lib/type-overrides.js"(exports, module) {
    "use strict";
    var types2 = require_pg_types();
    function TypeOverrides2(userTypes) {
      this._types = userTypes || types2;
      this.text = {};
      this.binary = {};
    }
    TypeOverrides2.prototype.getOverrides = function(format) {
      switch (format) {
        case "text":
          return this.text;
        case "binary":
          return this.binary;
        default:
          return {};
      }
    };
    TypeOverrides2.prototype.setTypeParser = function(oid, format, parseFn) {
      if (typeof format === "function") {
        parseFn = format;
        format = "text";
      }
      this.getOverrides(format)[oid] = parseFn;
    };
    TypeOverrides2.prototype.getTypeParser = function(oid, format) {
      format = format || "text";
      return this.getOverrides(format)[oid] || this._types.getTypeParser(oid, format);
    };
    module.exports = TypeOverrides2;
  }
});

// node_modules/pg-connection-string/index.js
var require_pg_connection_string = __commonJS({
  "node_modules/pg-connection-string/index.js"(exports, module) {
    "use strict";
    function parse(str, options = {}) {
      if (str.charAt(0) === "/") {
        const config2 = str.split(" ");
        return { host: config2[0], database: config2[1] };
      }
      const config = /* @__PURE__ */ Object.create(null);
      let result;
      let dummyHost = false;
      if (/ |%[^a-f0-9]|%[a-f0-9][^a-f0-9]/i.test(str)) {
        str = encodeURI(str).replace(/%25(\d\d)/g, "%$1");
      }
      try {
        try {
          result = new URL(str, "postgres://base");
        } catch (e) {
          result = new URL(str.replace("@/", "@___DUMMY___/"), "postgres://base");
          dummyHost = true;
        }
      } catch (err) {
        err.input && (err.input = "*****REDACTED*****");
        throw err;
      }
      for (const entry of result.searchParams.entries()) {
        config[entry[0]] = entry[1];
      }
      config.user = config.user || decodeURIComponent(result.username);
      config.password = config.password || decodeURIComponent(result.password);
      if (result.protocol == "socket:") {
        config.host = decodeURI(result.pathname);
        config.database = result.searchParams.get("db");
        config.client_encoding = result.searchParams.get("encoding");
        return config;
      }
      const hostname2 = (dummyHost ? "" : result.hostname).replace(/^\[(.+)\]$/, "$1");
      if (!config.host) {
        config.host = decodeURIComponent(hostname2);
      } else if (hostname2 && /^%2f/i.test(hostname2)) {
        result.pathname = hostname2 + result.pathname;
      }
      if (!config.port) {
        config.port = result.port;
      }
      const pathname = result.pathname.slice(1) || null;
      config.database = pathname ? decodeURI(pathname) : null;
      if (config.ssl === "true" || config.ssl === "1") {
        config.ssl = true;
      }
      if (config.ssl === "0") {
        config.ssl = false;
      }
      if (config.sslcert || config.sslkey || config.sslrootcert || config.sslmode) {
        config.ssl = {};
      }
      if (config.sslnegotiation === "direct" && config.ssl === void 0) {
        config.ssl = true;
      }
      const fs = config.sslcert || config.sslkey || config.sslrootcert ? __require("fs") : null;
      if (config.sslcert) {
        config.ssl.cert = fs.readFileSync(config.sslcert).toString();
      }
      if (config.sslkey) {
        config.ssl.key = fs.readFileSync(config.sslkey).toString();
      }
      if (config.sslrootcert) {
        config.ssl.ca = fs.readFileSync(config.sslrootcert).toString();
      }
      if (options.useLibpqCompat && config.uselibpqcompat) {
        throw new Error("Both useLibpqCompat and uselibpqcompat are set. Please use only one of them.");
      }
      if (config.uselibpqcompat === "true" || options.useLibpqCompat) {
        switch (config.sslmode) {
          case "disable": {
            config.ssl = false;
            break;
          }
          case "prefer": {
            config.ssl.rejectUnauthorized = false;
            break;
          }
          case "require": {
            if (config.sslrootcert) {
              config.ssl.checkServerIdentity = function() {
              };
            } else {
              config.ssl.rejectUnauthorized = false;
            }
            break;
          }
          case "verify-ca": {
            if (!config.ssl.ca) {
              throw new Error(
                "SECURITY WARNING: Using sslmode=verify-ca requires specifying a CA with sslrootcert. If a public CA is used, verify-ca allows connections to a server that somebody else may have registered with the CA, making you vulnerable to Man-in-the-Middle attacks. Either specify a custom CA certificate with sslrootcert parameter or use sslmode=verify-full for proper security."
              );
            }
            config.ssl.checkServerIdentity = function() {
            };
            break;
          }
          case "verify-full": {
            break;
          }
        }
      } else {
        switch (config.sslmode) {
          case "disable": {
            config.ssl = false;
            break;
          }
          case "prefer":
          case "require":
          case "verify-ca":
          case "verify-full": {
            if (config.sslmode !== "verify-full") {
              deprecatedSslModeWarning(config.sslmode);
            }
            break;
          }
          case "no-verify": {
            config.ssl.rejectUnauthorized = false;
            break;
          }
        }
      }
      return config;
    }
    function toConnectionOptions(sslConfig) {
      const connectionOptions = Object.entries(sslConfig).reduce((c, [key, value]) => {
        if (value !== void 0 && value !== null) {
          c[key] = value;
        }
        return c;
      }, /* @__PURE__ */ Object.create(null));
      return connectionOptions;
    }
    function toClientConfig(config) {
      const poolConfig = Object.entries(config).reduce((c, [key, value]) => {
        if (key === "ssl") {
          const sslConfig = value;
          if (typeof sslConfig === "boolean") {
            c[key] = sslConfig;
          }
          if (typeof sslConfig === "object") {
            c[key] = toConnectionOptions(sslConfig);
          }
        } else if (value !== void 0 && value !== null) {
          if (key === "port") {
            if (value !== "") {
              const v = parseInt(value, 10);
              if (isNaN(v)) {
                throw new Error(`Invalid ${key}: ${value}`);
              }
              c[key] = v;
            }
          } else {
            c[key] = value;
          }
        }
        return c;
      }, /* @__PURE__ */ Object.create(null));
      return poolConfig;
    }
    function parseIntoClientConfig(str) {
      return toClientConfig(parse(str));
    }
    function deprecatedSslModeWarning(sslmode) {
      if (!deprecatedSslModeWarning.warned && typeof process !== "undefined" && process.emitWarning) {
        deprecatedSslModeWarning.warned = true;
        process.emitWarning(`SECURITY WARNING: The SSL modes 'prefer', 'require', and 'verify-ca' are treated as aliases for 'verify-full'.
In the next major version (pg-connection-string v3.0.0 and pg v9.0.0), these modes will adopt standard libpq semantics, which have weaker security guarantees.

To prepare for this change:
- If you want the current behavior, explicitly use 'sslmode=verify-full'
- If you want libpq compatibility now, use 'uselibpqcompat=true&sslmode=${sslmode}'

See https://www.postgresql.org/docs/current/libpq-ssl.html for libpq SSL mode definitions.`);
      }
    }
    module.exports = parse;
    parse.parse = parse;
    parse.toClientConfig = toClientConfig;
    parse.parseIntoClientConfig = parseIntoClientConfig;
  }
});

// node_modules/pg/lib/connection-parameters.js
var require_connection_parameters = __commonJS({
  "node_modules/pg/lib/connection-parameters.js"(exports, module) {
    "use strict";
    var dns = __require("dns");
    var defaults2 = require_defaults();
    var parse = require_pg_connection_string().parse;
    var val = function(key, config, envVar) {
      if (config[key]) {
        return config[key];
      }
      if (envVar === void 0) {
        envVar = process.env["PG" + key.toUpperCase()];
      } else if (envVar === false) {
      } else {
        envVar = process.env[envVar];
      }
      return envVar || defaults2[key];
    };
    var readSSLConfigFromEnvironment = function() {
      switch (process.env.PGSSLMODE) {
        case "disable":
          return false;
        case "prefer":
        case "require":
        case "verify-ca":
        case "verify-full":
          return true;
        case "no-verify":
          return { rejectUnauthorized: false };
      }
      return defaults2.ssl;
    };
    var quoteParamValue = function(value) {
      return "'" + ("" + value).replace(/\\/g, "\\\\").replace(/'/g, "\\'") + "'";
    };
    var add = function(params, config, paramName) {
      const value = config[paramName];
      if (value !== void 0 && value !== null) {
        params.push(paramName + "=" + quoteParamValue(value));
      }
    };
    var ConnectionParameters = class {
      constructor(config) {
        config = typeof config === "string" ? parse(config) : config || {};
        if (config.connectionString) {
          config = Object.assign({}, config, parse(config.connectionString));
        }
        this.user = val("user", config);
        this.database = val("database", config);
        if (this.database === void 0) {
          this.database = this.user;
        }
        this.port = parseInt(val("port", config), 10);
        this.host = val("host", config);
        Object.defineProperty(this, "password", {
          configurable: true,
          enumerable: false,
          writable: true,
          value: val("password", config)
        });
        this.binary = val("binary", config);
        this.options = val("options", config);
        this.ssl = typeof config.ssl === "undefined" ? readSSLConfigFromEnvironment() : config.ssl;
        if (typeof this.ssl === "string") {
          if (this.ssl === "true") {
            this.ssl = true;
          }
        }
        if (this.ssl === "no-verify") {
          this.ssl = { rejectUnauthorized: false };
        }
        if (this.ssl && this.ssl.key) {
          Object.defineProperty(this.ssl, "key", {
            enumerable: false
          });
        }
        this.sslnegotiation = val("sslnegotiation", config, "PGSSLNEGOTIATION");
        if (this.sslnegotiation !== void 0 && this.sslnegotiation !== "postgres" && this.sslnegotiation !== "direct") {
          throw new Error(
            `Invalid sslnegotiation value: "${this.sslnegotiation}". Valid values are "postgres" and "direct".`
          );
        }
        if (this.sslnegotiation === "direct" && !this.ssl) {
          throw new Error("sslnegotiation=direct requires SSL to be enabled");
        }
        this.client_encoding = val("client_encoding", config);
        this.replication = val("replication", config);
        this.isDomainSocket = !(this.host || "").indexOf("/");
        this.application_name = val("application_name", config, "PGAPPNAME");
        this.fallback_application_name = val("fallback_application_name", config, false);
        this.statement_timeout = val("statement_timeout", config, false);
        this.lock_timeout = val("lock_timeout", config, false);
        this.idle_in_transaction_session_timeout = val("idle_in_transaction_session_timeout", config, false);
        this.query_timeout = val("query_timeout", config, false);
        if (config.connectionTimeoutMillis === void 0) {
          this.connect_timeout = process.env.PGCONNECT_TIMEOUT || 0;
        } else {
          this.connect_timeout = Math.floor(config.connectionTimeoutMillis / 1e3);
        }
        if (config.keepAlive === false) {
          this.keepalives = 0;
        } else if (config.keepAlive === true) {
          this.keepalives = 1;
        }
        if (typeof config.keepAliveInitialDelayMillis === "number") {
          this.keepalives_idle = Math.floor(config.keepAliveInitialDelayMillis / 1e3);
        }
      }
      getLibpqConnectionString(cb) {
        const params = [];
        add(params, this, "user");
        add(params, this, "password");
        add(params, this, "port");
        add(params, this, "application_name");
        add(params, this, "fallback_application_name");
        add(params, this, "connect_timeout");
        add(params, this, "options");
        const ssl = typeof this.ssl === "object" ? this.ssl : this.ssl ? { sslmode: this.ssl } : {};
        add(params, ssl, "sslmode");
        add(params, ssl, "sslca");
        add(params, ssl, "sslkey");
        add(params, ssl, "sslcert");
        add(params, ssl, "sslrootcert");
        add(params, this, "sslnegotiation");
        if (this.database) {
          params.push("dbname=" + quoteParamValue(this.database));
        }
        if (this.replication) {
          params.push("replication=" + quoteParamValue(this.replication));
        }
        if (this.host) {
          params.push("host=" + quoteParamValue(this.host));
        }
        if (this.isDomainSocket) {
          return cb(null, params.join(" "));
        }
        if (this.client_encoding) {
          params.push("client_encoding=" + quoteParamValue(this.client_encoding));
        }
        dns.lookup(this.host, function(err, address) {
          if (err) return cb(err, null);
          params.push("hostaddr=" + quoteParamValue(address));
          return cb(null, params.join(" "));
        });
      }
    };
    module.exports = ConnectionParameters;
  }
});

// node_modules/pg/lib/result.js
var require_result = __commonJS({
  "node_modules/pg/lib/result.js"(exports, module) {
    "use strict";
    var types2 = require_pg_types();
    var matchRegexp = /^([A-Za-z]+)(?: (\d+))?(?: (\d+))?/;
    var Result2 = class {
      constructor(rowMode, types3) {
        this.command = null;
        this.rowCount = null;
        this.oid = null;
        this.rows = [];
        this.fields = [];
        this._parsers = void 0;
        this._types = types3;
        this.RowCtor = null;
        this.rowAsArray = rowMode === "array";
        if (this.rowAsArray) {
          this.parseRow = this._parseRowAsArray;
        }
        this._prebuiltEmptyResultObject = null;
      }
      // adds a command complete message
      addCommandComplete(msg) {
        let match;
        if (msg.text) {
          match = matchRegexp.exec(msg.text);
        } else {
          match = matchRegexp.exec(msg.command);
        }
        if (match) {
          this.command = match[1];
          if (match[3]) {
            this.oid = parseInt(match[2], 10);
            this.rowCount = parseInt(match[3], 10);
          } else if (match[2]) {
            this.rowCount = parseInt(match[2], 10);
          }
        }
      }
      _parseRowAsArray(rowData) {
        const row = new Array(rowData.length);
        for (let i = 0, len = rowData.length; i < len; i++) {
          const rawValue = rowData[i];
          if (rawValue !== null) {
            row[i] = this._parsers[i](rawValue);
          } else {
            row[i] = null;
          }
        }
        return row;
      }
      parseRow(rowData) {
        const row = { ...this._prebuiltEmptyResultObject };
        for (let i = 0, len = rowData.length; i < len; i++) {
          const rawValue = rowData[i];
          const field = this.fields[i].name;
          if (rawValue !== null) {
            const v = this.fields[i].format === "binary" ? Buffer.from(rawValue) : rawValue;
            row[field] = this._parsers[i](v);
          } else {
            row[field] = null;
          }
        }
        return row;
      }
      addRow(row) {
        this.rows.push(row);
      }
      addFields(fieldDescriptions) {
        this.fields = fieldDescriptions;
        if (this.fields.length) {
          this._parsers = new Array(fieldDescriptions.length);
        }
        const row = /* @__PURE__ */ Object.create(null);
        for (let i = 0; i < fieldDescriptions.length; i++) {
          const desc = fieldDescriptions[i];
          row[desc.name] = null;
          if (this._types) {
            this._parsers[i] = this._types.getTypeParser(desc.dataTypeID, desc.format || "text");
          } else {
            this._parsers[i] = types2.getTypeParser(desc.dataTypeID, desc.format || "text");
          }
        }
        this._prebuiltEmptyResultObject = { ...row };
      }
    };
    module.exports = Result2;
  }
});

// node_modules/pg/lib/query.js
var require_query = __commonJS({
  "node_modules/pg/lib/query.js"(exports, module) {
    "use strict";
    var { EventEmitter } = __require("events");
    var Result2 = require_result();
    var utils = require_utils();
    var Query2 = class extends EventEmitter {
      constructor(config, values, callback) {
        super();
        config = utils.normalizeQueryConfig(config, values, callback);
        this.text = config.text;
        this.values = config.values;
        this.rows = config.rows;
        this.types = config.types;
        this.name = config.name;
        this.queryMode = config.queryMode;
        this.binary = config.binary;
        this.portal = config.portal || "";
        this.callback = config.callback;
        this._rowMode = config.rowMode;
        if (process.domain && config.callback) {
          this.callback = process.domain.bind(config.callback);
        }
        this._result = new Result2(this._rowMode, this.types);
        this._results = this._result;
        this._canceledDueToError = false;
      }
      requiresPreparation() {
        if (this.queryMode === "extended") {
          return true;
        }
        if (this.name) {
          return true;
        }
        if (this.rows) {
          return true;
        }
        if (!this.text) {
          return false;
        }
        if (!this.values) {
          return false;
        }
        return this.values.length > 0;
      }
      _checkForMultirow() {
        if (this._result.command) {
          if (!Array.isArray(this._results)) {
            this._results = [this._result];
          }
          this._result = new Result2(this._rowMode, this._result._types);
          this._results.push(this._result);
        }
      }
      // associates row metadata from the supplied
      // message with this query object
      // metadata used when parsing row results
      handleRowDescription(msg) {
        this._checkForMultirow();
        this._result.addFields(msg.fields);
        this._accumulateRows = this.callback || !this.listeners("row").length;
      }
      handleDataRow(msg) {
        let row;
        if (this._canceledDueToError) {
          return;
        }
        try {
          row = this._result.parseRow(msg.fields);
        } catch (err) {
          this._canceledDueToError = err;
          return;
        }
        this.emit("row", row, this._result);
        if (this._accumulateRows) {
          this._result.addRow(row);
        }
      }
      handleCommandComplete(msg, connection) {
        this._checkForMultirow();
        this._result.addCommandComplete(msg);
        if (this.rows) {
          connection.sync();
        }
      }
      // if a named prepared statement is created with empty query text
      // the backend will send an emptyQuery message but *not* a command complete message
      // since we pipeline sync immediately after execute we don't need to do anything here
      // unless we have rows specified, in which case we did not pipeline the initial sync call
      handleEmptyQuery(connection) {
        if (this.rows) {
          connection.sync();
        }
      }
      handleError(err, connection) {
        if (this._canceledDueToError) {
          err = this._canceledDueToError;
          this._canceledDueToError = false;
        }
        if (this.callback) {
          return this.callback(err);
        }
        this.emit("error", err);
      }
      handleReadyForQuery(con) {
        if (this._canceledDueToError) {
          return this.handleError(this._canceledDueToError, con);
        }
        if (this.callback) {
          try {
            this.callback(null, this._results);
          } catch (err) {
            process.nextTick(() => {
              throw err;
            });
          }
        }
        this.emit("end", this._results);
      }
      submit(connection) {
        if (typeof this.text !== "string" && typeof this.name !== "string") {
          return new Error("A query must have either text or a name. Supplying neither is unsupported.");
        }
        const previous = connection.parsedStatements[this.name] || connection.submittedNamedStatements[this.name];
        if (this.text && previous && this.text !== previous) {
          return new Error(`Prepared statements must be unique - '${this.name}' was used for a different statement`);
        }
        if (this.values && !Array.isArray(this.values)) {
          return new Error("Query values must be an array");
        }
        if (this.requiresPreparation()) {
          connection.stream.cork && connection.stream.cork();
          try {
            this.prepare(connection);
          } finally {
            connection.stream.uncork && connection.stream.uncork();
          }
        } else {
          connection.query(this.text);
        }
        return null;
      }
      hasBeenParsed(connection) {
        return this.name && (connection.parsedStatements[this.name] !== void 0 || connection.submittedNamedStatements[this.name] !== void 0);
      }
      handlePortalSuspended(connection) {
        this._getRows(connection, this.rows);
      }
      _getRows(connection, rows) {
        connection.execute({
          portal: this.portal,
          rows
        });
        if (!rows) {
          connection.sync();
        } else {
          connection.flush();
        }
      }
      // http://developer.postgresql.org/pgdocs/postgres/protocol-flow.html#PROTOCOL-FLOW-EXT-QUERY
      prepare(connection) {
        if (!this.hasBeenParsed(connection)) {
          connection.parse({
            text: this.text,
            name: this.name,
            types: this.types
          });
          if (this.name) {
            connection.submittedNamedStatements[this.name] = this.text;
          }
        }
        try {
          connection.bind({
            portal: this.portal,
            statement: this.name,
            values: this.values,
            binary: this.binary,
            valueMapper: utils.prepareValue
          });
        } catch (err) {
          connection.close({ type: "S", name: this.name });
          connection.sync();
          this.handleError(err, connection);
          return;
        }
        connection.describe({
          type: "P",
          name: this.portal || ""
        });
        this._getRows(connection, this.rows);
      }
      handleCopyInResponse(connection) {
        connection.sendCopyFail("No source stream defined");
      }
      handleCopyData(msg, connection) {
      }
    };
    module.exports = Query2;
  }
});

// node_modules/pg-protocol/dist/messages.js
var require_messages = __commonJS({
  "node_modules/pg-protocol/dist/messages.js"(exports) {
    "use strict";
    Object.defineProperty(exports, "__esModule", { value: true });
    exports.NoticeMessage = exports.DataRowMessage = exports.CommandCompleteMessage = exports.ReadyForQueryMessage = exports.NotificationResponseMessage = exports.BackendKeyDataMessage = exports.AuthenticationMD5Password = exports.ParameterStatusMessage = exports.ParameterDescriptionMessage = exports.RowDescriptionMessage = exports.Field = exports.CopyResponse = exports.CopyDataMessage = exports.DatabaseError = exports.copyDone = exports.emptyQuery = exports.replicationStart = exports.portalSuspended = exports.noData = exports.closeComplete = exports.bindComplete = exports.parseComplete = void 0;
    exports.parseComplete = {
      name: "parseComplete",
      length: 5
    };
    exports.bindComplete = {
      name: "bindComplete",
      length: 5
    };
    exports.closeComplete = {
      name: "closeComplete",
      length: 5
    };
    exports.noData = {
      name: "noData",
      length: 5
    };
    exports.portalSuspended = {
      name: "portalSuspended",
      length: 5
    };
    exports.replicationStart = {
      name: "replicationStart",
      length: 4
    };
    exports.emptyQuery = {
      name: "emptyQuery",
      length: 4
    };
    exports.copyDone = {
      name: "copyDone",
      length: 4
    };
    var DatabaseError2 = class extends Error {
      constructor(message, length, name) {
        super(message);
        this.length = length;
        this.name = name;
      }
    };
    exports.DatabaseError = DatabaseError2;
    var CopyDataMessage = class {
      constructor(length, chunk) {
        this.length = length;
        this.chunk = chunk;
        this.name = "copyData";
      }
    };
    exports.CopyDataMessage = CopyDataMessage;
    var CopyResponse = class {
      constructor(length, name, binary, columnCount) {
        this.length = length;
        this.name = name;
        this.binary = binary;
        this.columnTypes = new Array(columnCount);
      }
    };
    exports.CopyResponse = CopyResponse;
    var Field = class {
      constructor(name, tableID, columnID, dataTypeID, dataTypeSize, dataTypeModifier, format) {
        this.name = name;
        this.tableID = tableID;
        this.columnID = columnID;
        this.dataTypeID = dataTypeID;
        this.dataTypeSize = dataTypeSize;
        this.dataTypeModifier = dataTypeModifier;
        this.format = format;
      }
    };
    exports.Field = Field;
    var RowDescriptionMessage = class {
      constructor(length, fieldCount) {
        this.length = length;
        this.fieldCount = fieldCount;
        this.name = "rowDescription";
        this.fields = new Array(this.fieldCount);
      }
    };
    exports.RowDescriptionMessage = RowDescriptionMessage;
    var ParameterDescriptionMessage = class {
      constructor(length, parameterCount) {
        this.length = length;
        this.parameterCount = parameterCount;
        this.name = "parameterDescription";
        this.dataTypeIDs = new Array(this.parameterCount);
      }
    };
    exports.ParameterDescriptionMessage = ParameterDescriptionMessage;
    var ParameterStatusMessage = class {
      constructor(length, parameterName, parameterValue) {
        this.length = length;
        this.parameterName = parameterName;
        this.parameterValue = parameterValue;
        this.name = "parameterStatus";
      }
    };
    exports.ParameterStatusMessage = ParameterStatusMessage;
    var AuthenticationMD5Password = class {
      constructor(length, salt) {
        this.length = length;
        this.salt = salt;
        this.name = "authenticationMD5Password";
      }
    };
    exports.AuthenticationMD5Password = AuthenticationMD5Password;
    var BackendKeyDataMessage = class {
      constructor(length, processID, secretKey) {
        this.length = length;
        this.processID = processID;
        this.secretKey = secretKey;
        this.name = "backendKeyData";
      }
    };
    exports.BackendKeyDataMessage = BackendKeyDataMessage;
    var NotificationResponseMessage = class {
      constructor(length, processId, channel, payload) {
        this.length = length;
        this.processId = processId;
        this.channel = channel;
        this.payload = payload;
        this.name = "notification";
      }
    };
    exports.NotificationResponseMessage = NotificationResponseMessage;
    var ReadyForQueryMessage = class {
      constructor(length, status) {
        this.length = length;
        this.status = status;
        this.name = "readyForQuery";
      }
    };
    exports.ReadyForQueryMessage = ReadyForQueryMessage;
    var CommandCompleteMessage = class {
      constructor(length, text) {
        this.length = length;
        this.text = text;
        this.name = "commandComplete";
      }
    };
    exports.CommandCompleteMessage = CommandCompleteMessage;
    var DataRowMessage = class {
      constructor(length, fields) {
        this.length = length;
        this.fields = fields;
        this.name = "dataRow";
        this.fieldCount = fields.length;
      }
    };
    exports.DataRowMessage = DataRowMessage;
    var NoticeMessage = class {
      constructor(length, message) {
        this.length = length;
        this.message = message;
        this.name = "notice";
      }
    };
    exports.NoticeMessage = NoticeMessage;
  }
});

// node_modules/pg-protocol/dist/buffer-writer.js
var require_buffer_writer = __commonJS({
  "node_modules/pg-protocol/dist/buffer-writer.js"(exports) {
    "use strict";
    Object.defineProperty(exports, "__esModule", { value: true });
    exports.Writer = void 0;
    var Writer = class {
      constructor(size = 256) {
        this.size = size;
        this.offset = 5;
        this.headerPosition = 0;
        this.buffer = Buffer.allocUnsafe(size);
      }
      ensure(size) {
        const remaining = this.buffer.length - this.offset;
        if (remaining < size) {
          const oldBuffer = this.buffer;
          const newSize = oldBuffer.length + (oldBuffer.length >> 1) + size;
          this.buffer = Buffer.allocUnsafe(newSize);
          oldBuffer.copy(this.buffer, 0, 0, this.offset);
        }
      }
      addInt32(num) {
        this.ensure(4);
        this.buffer[this.offset++] = num >>> 24 & 255;
        this.buffer[this.offset++] = num >>> 16 & 255;
        this.buffer[this.offset++] = num >>> 8 & 255;
        this.buffer[this.offset++] = num >>> 0 & 255;
        return this;
      }
      addInt16(num) {
        this.ensure(2);
        this.buffer[this.offset++] = num >>> 8 & 255;
        this.buffer[this.offset++] = num >>> 0 & 255;
        return this;
      }
      addCString(string) {
        if (!string) {
          this.ensure(1);
        } else {
          const len = Buffer.byteLength(string);
          this.ensure(len + 1);
          this.buffer.write(string, this.offset, "utf-8");
          this.offset += len;
        }
        this.buffer[this.offset++] = 0;
        return this;
      }
      addString(string = "") {
        const len = Buffer.byteLength(string);
        this.ensure(len);
        this.buffer.write(string, this.offset);
        this.offset += len;
        return this;
      }
      // Write an Int32 byte-length prefix immediately followed by the string's UTF-8
      // bytes. Postgres' Bind wire format prefixes every parameter with its length,
      // and doing it in one method computes Buffer.byteLength ONCE — the previous
      // `addInt32(Buffer.byteLength(s)).addString(s)` pairing scanned the string
      // three times (byteLength for the prefix, byteLength again inside addString,
      // then the encode), which is costly for large text parameters.
      addInt32PrefixedString(string) {
        const len = Buffer.byteLength(string);
        this.ensure(4 + len);
        const buffer = this.buffer;
        let offset = this.offset;
        buffer[offset++] = len >>> 24 & 255;
        buffer[offset++] = len >>> 16 & 255;
        buffer[offset++] = len >>> 8 & 255;
        buffer[offset++] = len >>> 0 & 255;
        buffer.write(string, offset, "utf-8");
        this.offset = offset + len;
        return this;
      }
      add(otherBuffer) {
        this.ensure(otherBuffer.length);
        otherBuffer.copy(this.buffer, this.offset);
        this.offset += otherBuffer.length;
        return this;
      }
      /**
       * Appends an uninitialized block of {@link size} bytes to the buffer and returns its offset.
       */
      reserveUnsafe(size) {
        const offset = this.offset;
        this.ensure(size);
        this.offset += size;
        return offset;
      }
      join(code) {
        if (code) {
          this.buffer[this.headerPosition] = code;
          const length = this.offset - (this.headerPosition + 1);
          this.buffer.writeInt32BE(length, this.headerPosition + 1);
        }
        return this.buffer.slice(code ? 0 : 5, this.offset);
      }
      flush(code) {
        const result = this.join(code);
        this.offset = 5;
        this.headerPosition = 0;
        this.buffer = Buffer.allocUnsafe(this.size);
        return result;
      }
      clear() {
        this.offset = 5;
        this.headerPosition = 0;
      }
    };
    exports.Writer = Writer;
  }
});

// node_modules/pg-protocol/dist/serializer.js
var require_serializer = __commonJS({
  "node_modules/pg-protocol/dist/serializer.js"(exports) {
    "use strict";
    Object.defineProperty(exports, "__esModule", { value: true });
    exports.serialize = void 0;
    var buffer_writer_1 = require_buffer_writer();
    var writer = new buffer_writer_1.Writer();
    var startup = (opts) => {
      writer.addInt16(3).addInt16(0);
      for (const key of Object.keys(opts)) {
        writer.addCString(key).addCString(opts[key]);
      }
      writer.addCString("client_encoding").addCString("UTF8");
      const bodyBuffer = writer.addCString("").flush();
      const length = bodyBuffer.length + 4;
      return new buffer_writer_1.Writer().addInt32(length).add(bodyBuffer).flush();
    };
    var requestSsl = () => {
      const response = Buffer.allocUnsafe(8);
      response.writeInt32BE(8, 0);
      response.writeInt32BE(80877103, 4);
      return response;
    };
    var password = (password2) => {
      return writer.addCString(password2).flush(
        112
        /* code.startup */
      );
    };
    var sendSASLInitialResponseMessage = function(mechanism, initialResponse) {
      writer.addCString(mechanism).addInt32PrefixedString(initialResponse);
      return writer.flush(
        112
        /* code.startup */
      );
    };
    var sendSCRAMClientFinalMessage = function(additionalData) {
      return writer.addString(additionalData).flush(
        112
        /* code.startup */
      );
    };
    var query = (text) => {
      return writer.addCString(text).flush(
        81
        /* code.query */
      );
    };
    var emptyArray = [];
    var parse = (query2) => {
      const name = query2.name || "";
      if (name.length > 63) {
        console.error("Warning! Postgres only supports 63 characters for query names.");
        console.error("You supplied %s (%s)", name, name.length);
        console.error("This can cause conflicts and silent errors executing queries");
      }
      const types2 = query2.types || emptyArray;
      const len = types2.length;
      const buffer = writer.addCString(name).addCString(query2.text).addInt16(len);
      for (let i = 0; i < len; i++) {
        buffer.addInt32(types2[i]);
      }
      return writer.flush(
        80
        /* code.parse */
      );
    };
    var writeValues = function(values, valueMapper, formatsOffset) {
      const len = values.length;
      for (let i = 0; i < len; i++) {
        const mappedVal = valueMapper ? valueMapper(values[i], i) : values[i];
        let formatByte = 0;
        if (mappedVal == null) {
          writer.addInt32(-1);
        } else if (mappedVal instanceof Buffer) {
          formatByte = 1;
          writer.addInt32(mappedVal.length);
          writer.add(mappedVal);
        } else {
          writer.addInt32PrefixedString(mappedVal);
        }
        const buf = writer.buffer;
        buf[formatsOffset++] = 0;
        buf[formatsOffset++] = formatByte;
      }
    };
    var bind = (config = {}) => {
      const portal = config.portal || "";
      const statement = config.statement || "";
      const binary = config.binary || false;
      const values = config.values || emptyArray;
      const len = values.length;
      writer.addCString(portal).addCString(statement);
      writer.addInt16(len);
      const formatsOffset = writer.reserveUnsafe(len * 2);
      writer.addInt16(len);
      try {
        writeValues(values, config.valueMapper, formatsOffset);
      } catch (err) {
        writer.clear();
        throw err;
      }
      writer.addInt16(1);
      writer.addInt16(
        binary ? 1 : 0
        /* ParamType.STRING */
      );
      return writer.flush(
        66
        /* code.bind */
      );
    };
    var emptyExecute = Buffer.from([69, 0, 0, 0, 9, 0, 0, 0, 0, 0]);
    var execute = (config) => {
      if (!config || !config.portal && !config.rows) {
        return emptyExecute;
      }
      const portal = config.portal || "";
      const rows = config.rows || 0;
      const portalLength = Buffer.byteLength(portal);
      const len = 4 + portalLength + 1 + 4;
      const buff = Buffer.allocUnsafe(1 + len);
      buff[0] = 69;
      buff.writeInt32BE(len, 1);
      buff.write(portal, 5, "utf-8");
      buff[portalLength + 5] = 0;
      buff.writeUInt32BE(rows, buff.length - 4);
      return buff;
    };
    var cancel = (processID, secretKey) => {
      const buffer = Buffer.allocUnsafe(16);
      buffer.writeInt32BE(16, 0);
      buffer.writeInt16BE(1234, 4);
      buffer.writeInt16BE(5678, 6);
      buffer.writeInt32BE(processID, 8);
      buffer.writeInt32BE(secretKey, 12);
      return buffer;
    };
    var cstringMessage = (code, string) => {
      const stringLen = Buffer.byteLength(string);
      const len = 4 + stringLen + 1;
      const buffer = Buffer.allocUnsafe(1 + len);
      buffer[0] = code;
      buffer.writeInt32BE(len, 1);
      buffer.write(string, 5, "utf-8");
      buffer[len] = 0;
      return buffer;
    };
    var emptyDescribePortal = writer.addCString("P").flush(
      68
      /* code.describe */
    );
    var emptyDescribeStatement = writer.addCString("S").flush(
      68
      /* code.describe */
    );
    var describe = (msg) => {
      return msg.name ? cstringMessage(68, `${msg.type}${msg.name || ""}`) : msg.type === "P" ? emptyDescribePortal : emptyDescribeStatement;
    };
    var close = (msg) => {
      const text = `${msg.type}${msg.name || ""}`;
      return cstringMessage(67, text);
    };
    var copyData = (chunk) => {
      return writer.add(chunk).flush(
        100
        /* code.copyFromChunk */
      );
    };
    var copyFail = (message) => {
      return cstringMessage(102, message);
    };
    var codeOnlyBuffer = (code) => Buffer.from([code, 0, 0, 0, 4]);
    var flushBuffer = codeOnlyBuffer(
      72
      /* code.flush */
    );
    var syncBuffer = codeOnlyBuffer(
      83
      /* code.sync */
    );
    var endBuffer = codeOnlyBuffer(
      88
      /* code.end */
    );
    var copyDoneBuffer = codeOnlyBuffer(
      99
      /* code.copyDone */
    );
    var serialize = {
      startup,
      password,
      requestSsl,
      sendSASLInitialResponseMessage,
      sendSCRAMClientFinalMessage,
      query,
      parse,
      bind,
      execute,
      describe,
      close,
      flush: () => flushBuffer,
      sync: () => syncBuffer,
      end: () => endBuffer,
      copyData,
      copyDone: () => copyDoneBuffer,
      copyFail,
      cancel
    };
    exports.serialize = serialize;
  }
});

// node_modules/pg-protocol/dist/buffer-reader.js
var require_buffer_reader = __commonJS({
  "node_modules/pg-protocol/dist/buffer-reader.js"(exports) {
    "use strict";
    Object.defineProperty(exports, "__esModule", { value: true });
    exports.BufferReader = void 0;
    var BufferReader = class {
      constructor(offset = 0) {
        this.offset = offset;
        this.buffer = Buffer.allocUnsafe(0);
        this.encoding = "utf-8";
      }
      setBuffer(offset, buffer) {
        this.offset = offset;
        this.buffer = buffer;
      }
      int16() {
        const result = this.buffer.readInt16BE(this.offset);
        this.offset += 2;
        return result;
      }
      byte() {
        const result = this.buffer[this.offset];
        this.offset++;
        return result;
      }
      int32() {
        const result = this.buffer.readInt32BE(this.offset);
        this.offset += 4;
        return result;
      }
      uint32() {
        const result = this.buffer.readUInt32BE(this.offset);
        this.offset += 4;
        return result;
      }
      string(length) {
        const result = this.buffer.toString(this.encoding, this.offset, this.offset + length);
        this.offset += length;
        return result;
      }
      cstring() {
        const start = this.offset;
        let end = start;
        while (this.buffer[end++]) {
        }
        this.offset = end;
        return this.buffer.toString(this.encoding, start, end - 1);
      }
      bytes(length) {
        const result = this.buffer.slice(this.offset, this.offset + length);
        this.offset += length;
        return result;
      }
    };
    exports.BufferReader = BufferReader;
  }
});

// node_modules/pg-protocol/dist/parser.js
var require_parser = __commonJS({
  "node_modules/pg-protocol/dist/parser.js"(exports) {
    "use strict";
    Object.defineProperty(exports, "__esModule", { value: true });
    exports.Parser = void 0;
    var messages_1 = require_messages();
    var buffer_reader_1 = require_buffer_reader();
    var CODE_LENGTH = 1;
    var LEN_LENGTH = 4;
    var HEADER_LENGTH = CODE_LENGTH + LEN_LENGTH;
    var LATEINIT_LENGTH = -1;
    var emptyBuffer = Buffer.allocUnsafe(0);
    var Parser = class {
      constructor(opts) {
        this.buffer = emptyBuffer;
        this.bufferLength = 0;
        this.bufferOffset = 0;
        this.reader = new buffer_reader_1.BufferReader();
        if ((opts === null || opts === void 0 ? void 0 : opts.mode) === "binary") {
          throw new Error("Binary mode not supported yet");
        }
        this.mode = (opts === null || opts === void 0 ? void 0 : opts.mode) || "text";
      }
      parse(buffer, callback) {
        this.mergeBuffer(buffer);
        const bufferFullLength = this.bufferOffset + this.bufferLength;
        let offset = this.bufferOffset;
        while (offset + HEADER_LENGTH <= bufferFullLength) {
          const code = this.buffer[offset];
          const length = this.buffer.readUInt32BE(offset + CODE_LENGTH);
          const fullMessageLength = CODE_LENGTH + length;
          if (fullMessageLength + offset <= bufferFullLength) {
            const message = this.handlePacket(offset + HEADER_LENGTH, code, length, this.buffer);
            callback(message);
            offset += fullMessageLength;
          } else {
            break;
          }
        }
        if (offset === bufferFullLength) {
          this.buffer = emptyBuffer;
          this.bufferLength = 0;
          this.bufferOffset = 0;
        } else {
          this.bufferLength = bufferFullLength - offset;
          this.bufferOffset = offset;
        }
      }
      mergeBuffer(buffer) {
        if (this.bufferLength > 0) {
          const newLength = this.bufferLength + buffer.byteLength;
          const newFullLength = newLength + this.bufferOffset;
          if (newFullLength > this.buffer.byteLength) {
            let newBuffer;
            if (newLength <= this.buffer.byteLength && this.bufferOffset >= this.bufferLength) {
              newBuffer = this.buffer;
            } else {
              let newBufferLength = this.buffer.byteLength * 2;
              while (newLength >= newBufferLength) {
                newBufferLength *= 2;
              }
              newBuffer = Buffer.allocUnsafe(newBufferLength);
            }
            this.buffer.copy(newBuffer, 0, this.bufferOffset, this.bufferOffset + this.bufferLength);
            this.buffer = newBuffer;
            this.bufferOffset = 0;
          }
          buffer.copy(this.buffer, this.bufferOffset + this.bufferLength);
          this.bufferLength = newLength;
        } else {
          this.buffer = buffer;
          this.bufferOffset = 0;
          this.bufferLength = buffer.byteLength;
        }
      }
      handlePacket(offset, code, length, bytes) {
        const { reader } = this;
        reader.setBuffer(offset, bytes);
        let message;
        switch (code) {
          case 50:
            message = messages_1.bindComplete;
            break;
          case 49:
            message = messages_1.parseComplete;
            break;
          case 51:
            message = messages_1.closeComplete;
            break;
          case 110:
            message = messages_1.noData;
            break;
          case 115:
            message = messages_1.portalSuspended;
            break;
          case 99:
            message = messages_1.copyDone;
            break;
          case 87:
            message = messages_1.replicationStart;
            break;
          case 73:
            message = messages_1.emptyQuery;
            break;
          case 68:
            message = parseDataRowMessage(reader);
            break;
          case 67:
            message = parseCommandCompleteMessage(reader);
            break;
          case 90:
            message = parseReadyForQueryMessage(reader);
            break;
          case 65:
            message = parseNotificationMessage(reader);
            break;
          case 82:
            message = parseAuthenticationResponse(reader, length);
            break;
          case 83:
            message = parseParameterStatusMessage(reader);
            break;
          case 75:
            message = parseBackendKeyData(reader);
            break;
          case 69:
            message = parseErrorMessage(reader, "error");
            break;
          case 78:
            message = parseErrorMessage(reader, "notice");
            break;
          case 84:
            message = parseRowDescriptionMessage(reader);
            break;
          case 116:
            message = parseParameterDescriptionMessage(reader);
            break;
          case 71:
            message = parseCopyInMessage(reader);
            break;
          case 72:
            message = parseCopyOutMessage(reader);
            break;
          case 100:
            message = parseCopyData(reader, length);
            break;
          default:
            return new messages_1.DatabaseError("received invalid response: " + code.toString(16), length, "error");
        }
        reader.setBuffer(0, emptyBuffer);
        message.length = length;
        return message;
      }
    };
    exports.Parser = Parser;
    var parseReadyForQueryMessage = (reader) => {
      const status = reader.string(1);
      return new messages_1.ReadyForQueryMessage(LATEINIT_LENGTH, status);
    };
    var parseCommandCompleteMessage = (reader) => {
      const text = reader.cstring();
      return new messages_1.CommandCompleteMessage(LATEINIT_LENGTH, text);
    };
    var parseCopyData = (reader, length) => {
      const chunk = reader.bytes(length - 4);
      return new messages_1.CopyDataMessage(LATEINIT_LENGTH, chunk);
    };
    var parseCopyInMessage = (reader) => parseCopyMessage(reader, "copyInResponse");
    var parseCopyOutMessage = (reader) => parseCopyMessage(reader, "copyOutResponse");
    var parseCopyMessage = (reader, messageName) => {
      const isBinary = reader.byte() !== 0;
      const columnCount = reader.int16();
      const message = new messages_1.CopyResponse(LATEINIT_LENGTH, messageName, isBinary, columnCount);
      for (let i = 0; i < columnCount; i++) {
        message.columnTypes[i] = reader.int16();
      }
      return message;
    };
    var parseNotificationMessage = (reader) => {
      const processId = reader.int32();
      const channel = reader.cstring();
      const payload = reader.cstring();
      return new messages_1.NotificationResponseMessage(LATEINIT_LENGTH, processId, channel, payload);
    };
    var parseRowDescriptionMessage = (reader) => {
      const fieldCount = reader.int16();
      const message = new messages_1.RowDescriptionMessage(LATEINIT_LENGTH, fieldCount);
      for (let i = 0; i < fieldCount; i++) {
        message.fields[i] = parseField(reader);
      }
      return message;
    };
    var parseField = (reader) => {
      const name = reader.cstring();
      const tableID = reader.uint32();
      const columnID = reader.int16();
      const dataTypeID = reader.uint32();
      const dataTypeSize = reader.int16();
      const dataTypeModifier = reader.int32();
      const mode = reader.int16() === 0 ? "text" : "binary";
      return new messages_1.Field(name, tableID, columnID, dataTypeID, dataTypeSize, dataTypeModifier, mode);
    };
    var parseParameterDescriptionMessage = (reader) => {
      const parameterCount = reader.int16();
      const message = new messages_1.ParameterDescriptionMessage(LATEINIT_LENGTH, parameterCount);
      for (let i = 0; i < parameterCount; i++) {
        message.dataTypeIDs[i] = reader.uint32();
      }
      return message;
    };
    var parseDataRowMessage = (reader) => {
      const fieldCount = reader.int16();
      const fields = new Array(fieldCount);
      for (let i = 0; i < fieldCount; i++) {
        const len = reader.int32();
        fields[i] = len === -1 ? null : reader.string(len);
      }
      return new messages_1.DataRowMessage(LATEINIT_LENGTH, fields);
    };
    var parseParameterStatusMessage = (reader) => {
      const name = reader.cstring();
      const value = reader.cstring();
      return new messages_1.ParameterStatusMessage(LATEINIT_LENGTH, name, value);
    };
    var parseBackendKeyData = (reader) => {
      const processID = reader.int32();
      const secretKey = reader.int32();
      return new messages_1.BackendKeyDataMessage(LATEINIT_LENGTH, processID, secretKey);
    };
    var parseAuthenticationResponse = (reader, length) => {
      const code = reader.int32();
      const message = {
        name: "authenticationOk",
        length
      };
      switch (code) {
        case 0:
          break;
        case 3:
          if (message.length === 8) {
            message.name = "authenticationCleartextPassword";
          }
          break;
        case 5:
          if (message.length === 12) {
            message.name = "authenticationMD5Password";
            const salt = reader.bytes(4);
            return new messages_1.AuthenticationMD5Password(LATEINIT_LENGTH, salt);
          }
          break;
        case 10:
          {
            message.name = "authenticationSASL";
            message.mechanisms = [];
            let mechanism;
            do {
              mechanism = reader.cstring();
              if (mechanism) {
                message.mechanisms.push(mechanism);
              }
            } while (mechanism);
          }
          break;
        case 11:
          message.name = "authenticationSASLContinue";
          message.data = reader.string(length - 8);
          break;
        case 12:
          message.name = "authenticationSASLFinal";
          message.data = reader.string(length - 8);
          break;
        default:
          throw new Error("Unknown authenticationOk message type " + code);
      }
      return message;
    };
    var parseErrorMessage = (reader, name) => {
      const fields = {};
      let fieldType = reader.string(1);
      while (fieldType !== "\0") {
        fields[fieldType] = reader.cstring();
        fieldType = reader.string(1);
      }
      const messageValue = fields.M;
      const message = name === "notice" ? new messages_1.NoticeMessage(LATEINIT_LENGTH, messageValue) : new messages_1.DatabaseError(messageValue, LATEINIT_LENGTH, name);
      message.severity = fields.S;
      message.code = fields.C;
      message.detail = fields.D;
      message.hint = fields.H;
      message.position = fields.P;
      message.internalPosition = fields.p;
      message.internalQuery = fields.q;
      message.where = fields.W;
      message.schema = fields.s;
      message.table = fields.t;
      message.column = fields.c;
      message.dataType = fields.d;
      message.constraint = fields.n;
      message.file = fields.F;
      message.line = fields.L;
      message.routine = fields.R;
      return message;
    };
  }
});

// node_modules/pg-protocol/dist/index.js
var require_dist = __commonJS({
  "node_modules/pg-protocol/dist/index.js"(exports) {
    "use strict";
    Object.defineProperty(exports, "__esModule", { value: true });
    exports.DatabaseError = exports.serialize = void 0;
    exports.parse = parse;
    var messages_1 = require_messages();
    Object.defineProperty(exports, "DatabaseError", { enumerable: true, get: function() {
      return messages_1.DatabaseError;
    } });
    var serializer_1 = require_serializer();
    Object.defineProperty(exports, "serialize", { enumerable: true, get: function() {
      return serializer_1.serialize;
    } });
    var parser_1 = require_parser();
    function parse(stream, callback) {
      const parser = new parser_1.Parser();
      stream.on("data", (buffer) => parser.parse(buffer, callback));
      return new Promise((resolve8) => stream.on("end", () => resolve8()));
    }
  }
});

// node_modules/pg-cloudflare/dist/empty.js
var require_empty = __commonJS({
  "node_modules/pg-cloudflare/dist/empty.js"(exports) {
    "use strict";
    Object.defineProperty(exports, "__esModule", { value: true });
    exports.default = {};
  }
});

// node_modules/pg/lib/stream.js
var require_stream = __commonJS({
  "node_modules/pg/lib/stream.js"(exports, module) {
    var { getStream, getSecureStream } = getStreamFuncs();
    module.exports = {
      /**
       * Get a socket stream compatible with the current runtime environment.
       * @returns {Duplex}
       */
      getStream,
      /**
       * Get a TLS secured socket, compatible with the current environment,
       * using the socket and other settings given in `options`.
       * @returns {Duplex}
       */
      getSecureStream
    };
    function getNodejsStreamFuncs() {
      function getStream2(ssl) {
        const net = __require("net");
        return new net.Socket();
      }
      function getSecureStream2(options) {
        const tls = __require("tls");
        return tls.connect(options);
      }
      return {
        getStream: getStream2,
        getSecureStream: getSecureStream2
      };
    }
    function getCloudflareStreamFuncs() {
      function getStream2(ssl) {
        const { CloudflareSocket } = require_empty();
        return new CloudflareSocket(ssl);
      }
      function getSecureStream2(options) {
        options.socket.startTls(options);
        return options.socket;
      }
      return {
        getStream: getStream2,
        getSecureStream: getSecureStream2
      };
    }
    function isCloudflareRuntime() {
      if (typeof navigator === "object" && navigator !== null && typeof navigator.userAgent === "string") {
        return navigator.userAgent === "Cloudflare-Workers";
      }
      if (typeof Response === "function") {
        const resp = new Response(null, { cf: { thing: true } });
        if (typeof resp.cf === "object" && resp.cf !== null && resp.cf.thing) {
          return true;
        }
      }
      return false;
    }
    function getStreamFuncs() {
      if (isCloudflareRuntime()) {
        return getCloudflareStreamFuncs();
      }
      return getNodejsStreamFuncs();
    }
  }
});

// node_modules/pg/lib/connection.js
var require_connection = __commonJS({
  "node_modules/pg/lib/connection.js"(exports, module) {
    "use strict";
    var EventEmitter = __require("events").EventEmitter;
    var { parse, serialize } = require_dist();
    var stream = require_stream();
    var { getStream } = stream;
    var flushBuffer = serialize.flush();
    var syncBuffer = serialize.sync();
    var endBuffer = serialize.end();
    var Connection2 = class extends EventEmitter {
      constructor(config) {
        super();
        config = config || {};
        this.stream = config.stream || getStream(config.ssl);
        if (typeof this.stream === "function") {
          this.stream = this.stream(config);
        }
        this._keepAlive = config.keepAlive;
        this._keepAliveInitialDelayMillis = config.keepAliveInitialDelayMillis;
        this.parsedStatements = {};
        this.submittedNamedStatements = {};
        this.ssl = config.ssl || false;
        this.sslNegotiation = config.sslNegotiation || "postgres";
        this._ending = false;
        this._emitMessage = false;
        const self = this;
        this.on("newListener", function(eventName) {
          if (eventName === "message") {
            self._emitMessage = true;
          }
        });
      }
      connect(port, host) {
        const self = this;
        this._connecting = true;
        this.stream.setNoDelay(true);
        this.stream.connect(port, host);
        this.stream.once("connect", function() {
          if (self._keepAlive) {
            self.stream.setKeepAlive(true, self._keepAliveInitialDelayMillis);
          }
          self.emit("connect");
        });
        const reportStreamError = function(error) {
          if (self._ending && (error.code === "ECONNRESET" || error.code === "EPIPE")) {
            return;
          }
          self.emit("error", error);
        };
        this.stream.on("error", reportStreamError);
        this.stream.on("close", function() {
          self.emit("end");
        });
        if (!this.ssl) {
          return this.attachListeners(this.stream);
        }
        if (this.sslNegotiation === "direct") {
          return this.stream.once("connect", function() {
            self.upgradeToSSL(host, reportStreamError);
          });
        }
        this.stream.once("data", function(buffer) {
          const responseCode = buffer.toString("utf8");
          switch (responseCode) {
            case "S":
              break;
            case "N":
              self.stream.end();
              return self.emit("error", new Error("The server does not support SSL connections"));
            default:
              self.stream.end();
              return self.emit("error", new Error("There was an error establishing an SSL connection"));
          }
          self.upgradeToSSL(host, reportStreamError);
        });
      }
      upgradeToSSL(host, reportStreamError) {
        const self = this;
        const options = {
          socket: self.stream,
          // tls.connect checks the server identity against `servername`, falling
          // back to `host` and then to 'localhost'. `servername` must stay unset
          // for IP addresses (see below), so `host` is needed to keep certificate
          // validation working when connecting to an IP address.
          host
        };
        if (self.ssl !== true) {
          Object.assign(options, self.ssl);
          if ("key" in self.ssl) {
            options.key = self.ssl.key;
          }
        }
        if (self.sslNegotiation === "direct") {
          options.ALPNProtocols = ["postgresql"];
        }
        const net = __require("net");
        if (net.isIP && net.isIP(host) === 0) {
          options.servername = host;
        }
        try {
          self.stream = stream.getSecureStream(options);
        } catch (err) {
          return self.emit("error", err);
        }
        self.attachListeners(self.stream);
        self.stream.on("error", reportStreamError);
        self.emit("sslconnect");
      }
      attachListeners(stream2) {
        parse(stream2, (msg) => {
          const eventName = msg.name === "error" ? "errorMessage" : msg.name;
          if (this._emitMessage) {
            this.emit("message", msg);
          }
          this.emit(eventName, msg);
        });
      }
      requestSsl() {
        this.stream.write(serialize.requestSsl());
      }
      startup(config) {
        this.stream.write(serialize.startup(config));
      }
      cancel(processID, secretKey) {
        this._send(serialize.cancel(processID, secretKey));
      }
      password(password) {
        this._send(serialize.password(password));
      }
      sendSASLInitialResponseMessage(mechanism, initialResponse) {
        this._send(serialize.sendSASLInitialResponseMessage(mechanism, initialResponse));
      }
      sendSCRAMClientFinalMessage(additionalData) {
        this._send(serialize.sendSCRAMClientFinalMessage(additionalData));
      }
      _send(buffer) {
        if (!this.stream.writable) {
          return false;
        }
        return this.stream.write(buffer);
      }
      query(text) {
        this._send(serialize.query(text));
      }
      // send parse message
      parse(query) {
        this._send(serialize.parse(query));
      }
      // send bind message
      bind(config) {
        this._send(serialize.bind(config));
      }
      // send execute message
      execute(config) {
        this._send(serialize.execute(config));
      }
      flush() {
        if (this.stream.writable) {
          this.stream.write(flushBuffer);
        }
      }
      sync() {
        this._send(syncBuffer);
      }
      ref() {
        this.stream.ref();
      }
      unref() {
        this.stream.unref();
      }
      end() {
        this._ending = true;
        if (!this._connecting || !this.stream.writable) {
          this.stream.end();
          return;
        }
        return this.stream.write(endBuffer, () => {
          this.stream.end();
        });
      }
      close(msg) {
        this._send(serialize.close(msg));
      }
      describe(msg) {
        this._send(serialize.describe(msg));
      }
      sendCopyFromChunk(chunk) {
        this._send(serialize.copyData(chunk));
      }
      endCopyFrom() {
        this._send(serialize.copyDone());
      }
      sendCopyFail(msg) {
        this._send(serialize.copyFail(msg));
      }
    };
    module.exports = Connection2;
  }
});

// node_modules/split2/index.js
var require_split2 = __commonJS({
  "node_modules/split2/index.js"(exports, module) {
    "use strict";
    var { Transform } = __require("stream");
    var { StringDecoder } = __require("string_decoder");
    var kLast = /* @__PURE__ */ Symbol("last");
    var kDecoder = /* @__PURE__ */ Symbol("decoder");
    function transform(chunk, enc, cb) {
      let list;
      if (this.overflow) {
        const buf = this[kDecoder].write(chunk);
        list = buf.split(this.matcher);
        if (list.length === 1) return cb();
        list.shift();
        this.overflow = false;
      } else {
        this[kLast] += this[kDecoder].write(chunk);
        list = this[kLast].split(this.matcher);
      }
      this[kLast] = list.pop();
      for (let i = 0; i < list.length; i++) {
        try {
          push(this, this.mapper(list[i]));
        } catch (error) {
          return cb(error);
        }
      }
      this.overflow = this[kLast].length > this.maxLength;
      if (this.overflow && !this.skipOverflow) {
        cb(new Error("maximum buffer reached"));
        return;
      }
      cb();
    }
    function flush(cb) {
      this[kLast] += this[kDecoder].end();
      if (this[kLast]) {
        try {
          push(this, this.mapper(this[kLast]));
        } catch (error) {
          return cb(error);
        }
      }
      cb();
    }
    function push(self, val) {
      if (val !== void 0) {
        self.push(val);
      }
    }
    function noop(incoming) {
      return incoming;
    }
    function split(matcher, mapper, options) {
      matcher = matcher || /\r?\n/;
      mapper = mapper || noop;
      options = options || {};
      switch (arguments.length) {
        case 1:
          if (typeof matcher === "function") {
            mapper = matcher;
            matcher = /\r?\n/;
          } else if (typeof matcher === "object" && !(matcher instanceof RegExp) && !matcher[Symbol.split]) {
            options = matcher;
            matcher = /\r?\n/;
          }
          break;
        case 2:
          if (typeof matcher === "function") {
            options = mapper;
            mapper = matcher;
            matcher = /\r?\n/;
          } else if (typeof mapper === "object") {
            options = mapper;
            mapper = noop;
          }
      }
      options = Object.assign({}, options);
      options.autoDestroy = true;
      options.transform = transform;
      options.flush = flush;
      options.readableObjectMode = true;
      const stream = new Transform(options);
      stream[kLast] = "";
      stream[kDecoder] = new StringDecoder("utf8");
      stream.matcher = matcher;
      stream.mapper = mapper;
      stream.maxLength = options.maxLength;
      stream.skipOverflow = options.skipOverflow || false;
      stream.overflow = false;
      stream._destroy = function(err, cb) {
        this._writableState.errorEmitted = false;
        cb(err);
      };
      return stream;
    }
    module.exports = split;
  }
});

// node_modules/pgpass/lib/helper.js
var require_helper = __commonJS({
  "node_modules/pgpass/lib/helper.js"(exports, module) {
    "use strict";
    var path = __require("path");
    var Stream = __require("stream").Stream;
    var split = require_split2();
    var util = __require("util");
    var defaultPort = 5432;
    var isWin = process.platform === "win32";
    var warnStream = process.stderr;
    var S_IRWXG = 56;
    var S_IRWXO = 7;
    var S_IFMT = 61440;
    var S_IFREG = 32768;
    function isRegFile(mode) {
      return (mode & S_IFMT) == S_IFREG;
    }
    var fieldNames = ["host", "port", "database", "user", "password"];
    var nrOfFields = fieldNames.length;
    var passKey = fieldNames[nrOfFields - 1];
    function warn() {
      var isWritable = warnStream instanceof Stream && true === warnStream.writable;
      if (isWritable) {
        var args = Array.prototype.slice.call(arguments).concat("\n");
        warnStream.write(util.format.apply(util, args));
      }
    }
    Object.defineProperty(module.exports, "isWin", {
      get: function() {
        return isWin;
      },
      set: function(val) {
        isWin = val;
      }
    });
    module.exports.warnTo = function(stream) {
      var old = warnStream;
      warnStream = stream;
      return old;
    };
    module.exports.getFileName = function(rawEnv) {
      var env = rawEnv || process.env;
      var file = env.PGPASSFILE || (isWin ? path.join(env.APPDATA || "./", "postgresql", "pgpass.conf") : path.join(env.HOME || "./", ".pgpass"));
      return file;
    };
    module.exports.usePgPass = function(stats, fname) {
      if (Object.prototype.hasOwnProperty.call(process.env, "PGPASSWORD")) {
        return false;
      }
      if (isWin) {
        return true;
      }
      fname = fname || "<unkn>";
      if (!isRegFile(stats.mode)) {
        warn('WARNING: password file "%s" is not a plain file', fname);
        return false;
      }
      if (stats.mode & (S_IRWXG | S_IRWXO)) {
        warn('WARNING: password file "%s" has group or world access; permissions should be u=rw (0600) or less', fname);
        return false;
      }
      return true;
    };
    var matcher = module.exports.match = function(connInfo, entry) {
      return fieldNames.slice(0, -1).reduce(function(prev, field, idx) {
        if (idx == 1) {
          if (Number(connInfo[field] || defaultPort) === Number(entry[field])) {
            return prev && true;
          }
        }
        return prev && (entry[field] === "*" || entry[field] === connInfo[field]);
      }, true);
    };
    module.exports.getPassword = function(connInfo, stream, cb) {
      var pass;
      var lineStream = stream.pipe(split());
      function onLine(line) {
        var entry = parseLine(line);
        if (entry && isValidEntry(entry) && matcher(connInfo, entry)) {
          pass = entry[passKey];
          lineStream.end();
        }
      }
      var onEnd = function() {
        stream.destroy();
        cb(pass);
      };
      var onErr = function(err) {
        stream.destroy();
        warn("WARNING: error on reading file: %s", err);
        cb(void 0);
      };
      stream.on("error", onErr);
      lineStream.on("data", onLine).on("end", onEnd).on("error", onErr);
    };
    var parseLine = module.exports.parseLine = function(line) {
      if (line.length < 11 || line.match(/^\s+#/)) {
        return null;
      }
      var curChar = "";
      var prevChar = "";
      var fieldIdx = 0;
      var startIdx = 0;
      var endIdx = 0;
      var obj = {};
      var isLastField = false;
      var addToObj = function(idx, i0, i1) {
        var field = line.substring(i0, i1);
        if (!Object.hasOwnProperty.call(process.env, "PGPASS_NO_DEESCAPE")) {
          field = field.replace(/\\([:\\])/g, "$1");
        }
        obj[fieldNames[idx]] = field;
      };
      for (var i = 0; i < line.length - 1; i += 1) {
        curChar = line.charAt(i + 1);
        prevChar = line.charAt(i);
        isLastField = fieldIdx == nrOfFields - 1;
        if (isLastField) {
          addToObj(fieldIdx, startIdx);
          break;
        }
        if (i >= 0 && curChar == ":" && prevChar !== "\\") {
          addToObj(fieldIdx, startIdx, i + 1);
          startIdx = i + 2;
          fieldIdx += 1;
        }
      }
      obj = Object.keys(obj).length === nrOfFields ? obj : null;
      return obj;
    };
    var isValidEntry = module.exports.isValidEntry = function(entry) {
      var rules = {
        // host
        0: function(x) {
          return x.length > 0;
        },
        // port
        1: function(x) {
          if (x === "*") {
            return true;
          }
          x = Number(x);
          return isFinite(x) && x > 0 && x < 9007199254740992 && Math.floor(x) === x;
        },
        // database
        2: function(x) {
          return x.length > 0;
        },
        // username
        3: function(x) {
          return x.length > 0;
        },
        // password
        4: function(x) {
          return x.length > 0;
        }
      };
      for (var idx = 0; idx < fieldNames.length; idx += 1) {
        var rule = rules[idx];
        var value = entry[fieldNames[idx]] || "";
        var res = rule(value);
        if (!res) {
          return false;
        }
      }
      return true;
    };
  }
});

// node_modules/pgpass/lib/index.js
var require_lib = __commonJS({
  "node_modules/pgpass/lib/index.js"(exports, module) {
    "use strict";
    var path = __require("path");
    var fs = __require("fs");
    var helper = require_helper();
    module.exports = function(connInfo, cb) {
      var file = helper.getFileName();
      fs.stat(file, function(err, stat2) {
        if (err || !helper.usePgPass(stat2, file)) {
          return cb(void 0);
        }
        var st = fs.createReadStream(file);
        helper.getPassword(connInfo, st, cb);
      });
    };
    module.exports.warnTo = helper.warnTo;
  }
});

// node_modules/pg/lib/client.js
var require_client = __commonJS({
  "node_modules/pg/lib/client.js"(exports, module) {
    var EventEmitter = __require("events").EventEmitter;
    var utils = require_utils();
    var nodeUtils = __require("util");
    var sasl = require_sasl();
    var TypeOverrides2 = require_type_overrides();
    var ConnectionParameters = require_connection_parameters();
    var Query2 = require_query();
    var defaults2 = require_defaults();
    var Connection2 = require_connection();
    var crypto = require_utils2();
    var activeQueryDeprecationNotice = nodeUtils.deprecate(
      () => {
      },
      "Client.activeQuery is deprecated and will be removed in pg@9.0"
    );
    var queryQueueDeprecationNotice = nodeUtils.deprecate(
      () => {
      },
      "Client.queryQueue is deprecated and will be removed in pg@9.0."
    );
    var pgPassDeprecationNotice = nodeUtils.deprecate(
      () => {
      },
      "pgpass support is deprecated and will be removed in pg@9.0. You can provide an async function as the password property to the Client/Pool constructor that returns a password instead. Within this function you can call the pgpass module in your own code."
    );
    var byoPromiseDeprecationNotice = nodeUtils.deprecate(
      () => {
      },
      "Passing a custom Promise implementation to the Client/Pool constructor is deprecated and will be removed in pg@9.0."
    );
    var queryQueueLengthDeprecationNotice = nodeUtils.deprecate(
      () => {
      },
      "Calling client.query() when the client is already executing a query is deprecated and will be removed in pg@9.0. Use async/await or an external async flow control mechanism instead."
    );
    function coerceNumberOrDefault(value, defaultValue) {
      if (typeof value === "number") {
        return Number.isFinite(value) ? value : defaultValue;
      }
      if (typeof value === "string" && value.trim() !== "") {
        const n = Number(value);
        return Number.isFinite(n) ? n : defaultValue;
      }
      return defaultValue;
    }
    var Client2 = class extends EventEmitter {
      constructor(config) {
        super();
        this.connectionParameters = new ConnectionParameters(config);
        this.user = this.connectionParameters.user;
        this.database = this.connectionParameters.database;
        this.port = this.connectionParameters.port;
        this.host = this.connectionParameters.host;
        Object.defineProperty(this, "password", {
          configurable: true,
          enumerable: false,
          writable: true,
          value: this.connectionParameters.password
        });
        this.replication = this.connectionParameters.replication;
        const c = config || {};
        if (c.Promise) {
          byoPromiseDeprecationNotice();
        }
        this._Promise = c.Promise || global.Promise;
        this._types = new TypeOverrides2(c.types);
        this._ending = false;
        this._ended = false;
        this._connecting = false;
        this._connected = false;
        this._connectionError = false;
        this._queryable = true;
        this._activeQuery = null;
        this._txStatus = null;
        this.enableChannelBinding = Boolean(c.enableChannelBinding);
        this.scramMaxIterations = coerceNumberOrDefault(c.scramMaxIterations, sasl.DEFAULT_MAX_SCRAM_ITERATIONS);
        this.connection = c.connection || new Connection2({
          stream: c.stream,
          ssl: this.connectionParameters.ssl,
          sslNegotiation: this.connectionParameters.sslnegotiation,
          keepAlive: c.keepAlive || false,
          keepAliveInitialDelayMillis: c.keepAliveInitialDelayMillis || 0,
          encoding: this.connectionParameters.client_encoding || "utf8"
        });
        this._queryQueue = [];
        this._sentQueryQueue = [];
        this.pipeline = Boolean(c.pipeline);
        this.binary = c.binary || defaults2.binary;
        this.processID = null;
        this.secretKey = null;
        this.ssl = this.connectionParameters.ssl || false;
        this.sslNegotiation = this.connectionParameters.sslnegotiation || "postgres";
        if (this.ssl && this.ssl.key) {
          Object.defineProperty(this.ssl, "key", {
            enumerable: false
          });
        }
        this._connectionTimeoutMillis = c.connectionTimeoutMillis || 0;
      }
      get activeQuery() {
        activeQueryDeprecationNotice();
        return this._activeQuery;
      }
      set activeQuery(val) {
        activeQueryDeprecationNotice();
        this._activeQuery = val;
      }
      _getActiveQuery() {
        return this._activeQuery;
      }
      _errorAllQueries(err) {
        const enqueueError = (query) => {
          process.nextTick(() => {
            query.handleError(err, this.connection);
          });
        };
        const activeQuery = this._getActiveQuery();
        if (activeQuery) {
          enqueueError(activeQuery);
          this._activeQuery = null;
        }
        this._sentQueryQueue.forEach(enqueueError);
        this._sentQueryQueue.length = 0;
        this._queryQueue.forEach(enqueueError);
        this._queryQueue.length = 0;
      }
      _connect(callback) {
        const self = this;
        const con = this.connection;
        this._connectionCallback = callback;
        if (this._connecting || this._connected) {
          const err = new Error("Client has already been connected. You cannot reuse a client.");
          process.nextTick(() => {
            callback(err);
          });
          return;
        }
        this._connecting = true;
        if (this._connectionTimeoutMillis > 0) {
          this.connectionTimeoutHandle = setTimeout(() => {
            con._ending = true;
            con.stream.destroy(new Error("timeout expired"));
          }, this._connectionTimeoutMillis);
          if (this.connectionTimeoutHandle.unref) {
            this.connectionTimeoutHandle.unref();
          }
        }
        if (this.host && this.host.indexOf("/") === 0) {
          con.connect(this.host + "/.s.PGSQL." + this.port);
        } else {
          con.connect(this.port, this.host);
        }
        con.on("connect", function() {
          if (self.ssl) {
            if (self.sslNegotiation !== "direct") {
              con.requestSsl();
            }
          } else {
            con.startup(self.getStartupConf());
          }
        });
        con.on("sslconnect", function() {
          con.startup(self.getStartupConf());
        });
        this._attachListeners(con);
        con.once("end", () => {
          const error = this._ending ? new Error("Connection terminated") : new Error("Connection terminated unexpectedly");
          clearTimeout(this.connectionTimeoutHandle);
          this._errorAllQueries(error);
          this._ended = true;
          if (!this._ending) {
            if (this._connecting && !this._connectionError) {
              if (this._connectionCallback) {
                this._connectionCallback(error);
              } else {
                this._handleErrorEvent(error);
              }
            } else if (!this._connectionError) {
              this._handleErrorEvent(error);
            }
          }
          process.nextTick(() => {
            this.emit("end");
          });
        });
      }
      connect(callback) {
        if (callback) {
          this._connect(callback);
          return;
        }
        return new this._Promise((resolve8, reject) => {
          this._connect((error) => {
            if (error) {
              reject(error);
            } else {
              resolve8(this);
            }
          });
        });
      }
      _attachListeners(con) {
        con.on("authenticationCleartextPassword", this._handleAuthCleartextPassword.bind(this));
        con.on("authenticationMD5Password", this._handleAuthMD5Password.bind(this));
        con.on("authenticationSASL", this._handleAuthSASL.bind(this));
        con.on("authenticationSASLContinue", this._handleAuthSASLContinue.bind(this));
        con.on("authenticationSASLFinal", this._handleAuthSASLFinal.bind(this));
        con.on("backendKeyData", this._handleBackendKeyData.bind(this));
        con.on("error", this._handleErrorEvent.bind(this));
        con.on("errorMessage", this._handleErrorMessage.bind(this));
        con.on("readyForQuery", this._handleReadyForQuery.bind(this));
        con.on("notice", this._handleNotice.bind(this));
        con.on("rowDescription", this._handleRowDescription.bind(this));
        con.on("dataRow", this._handleDataRow.bind(this));
        con.on("portalSuspended", this._handlePortalSuspended.bind(this));
        con.on("emptyQuery", this._handleEmptyQuery.bind(this));
        con.on("commandComplete", this._handleCommandComplete.bind(this));
        con.on("parseComplete", this._handleParseComplete.bind(this));
        con.on("copyInResponse", this._handleCopyInResponse.bind(this));
        con.on("copyData", this._handleCopyData.bind(this));
        con.on("notification", this._handleNotification.bind(this));
      }
      _getPassword(cb) {
        const con = this.connection;
        if (typeof this.password === "function") {
          this._Promise.resolve().then(() => this.password(this.connectionParameters)).then((pass) => {
            if (pass !== void 0) {
              if (typeof pass !== "string") {
                con.emit("error", new TypeError("Password must be a string"));
                return;
              }
              this.connectionParameters.password = this.password = pass;
            } else {
              this.connectionParameters.password = this.password = null;
            }
            cb();
          }).catch((err) => {
            con.emit("error", err);
          });
        } else if (this.password !== null) {
          cb();
        } else {
          try {
            const pgPass = require_lib();
            pgPass(this.connectionParameters, (pass) => {
              if (void 0 !== pass) {
                pgPassDeprecationNotice();
                this.connectionParameters.password = this.password = pass;
              }
              cb();
            });
          } catch (e) {
            this.emit("error", e);
          }
        }
      }
      _handleAuthCleartextPassword(msg) {
        this._getPassword(() => {
          this.connection.password(this.password);
        });
      }
      _handleAuthMD5Password(msg) {
        this._getPassword(async () => {
          try {
            const hashedPassword = await crypto.postgresMd5PasswordHash(this.user, this.password, msg.salt);
            this.connection.password(hashedPassword);
          } catch (e) {
            this.emit("error", e);
          }
        });
      }
      _handleAuthSASL(msg) {
        this._getPassword(() => {
          try {
            this.saslSession = sasl.startSession(
              msg.mechanisms,
              this.enableChannelBinding && this.connection.stream,
              this.scramMaxIterations
            );
            this.connection.sendSASLInitialResponseMessage(this.saslSession.mechanism, this.saslSession.response);
          } catch (err) {
            this.connection.emit("error", err);
          }
        });
      }
      async _handleAuthSASLContinue(msg) {
        try {
          await sasl.continueSession(
            this.saslSession,
            this.password,
            msg.data,
            this.enableChannelBinding && this.connection.stream
          );
          this.connection.sendSCRAMClientFinalMessage(this.saslSession.response);
        } catch (err) {
          this.connection.emit("error", err);
        }
      }
      _handleAuthSASLFinal(msg) {
        try {
          sasl.finalizeSession(this.saslSession, msg.data);
          this.saslSession = null;
        } catch (err) {
          this.connection.emit("error", err);
        }
      }
      _handleBackendKeyData(msg) {
        this.processID = msg.processID;
        this.secretKey = msg.secretKey;
      }
      _handleReadyForQuery(msg) {
        if (this._connecting) {
          this._connecting = false;
          this._connected = true;
          clearTimeout(this.connectionTimeoutHandle);
          if (this._connectionCallback) {
            this._connectionCallback(null, this);
            this._connectionCallback = null;
          }
          this.emit("connect");
        }
        const activeQuery = this._getActiveQuery();
        this._activeQuery = null;
        this._txStatus = msg?.status ?? null;
        this.readyForQuery = true;
        if (activeQuery) {
          activeQuery.handleReadyForQuery(this.connection);
        }
        this._pulseQueryQueue();
      }
      // if we receive an error event or error message
      // during the connection process we handle it here
      _handleErrorWhileConnecting(err) {
        if (this._connectionError) {
          return;
        }
        this._connectionError = true;
        clearTimeout(this.connectionTimeoutHandle);
        if (this._connectionCallback) {
          return this._connectionCallback(err);
        }
        this.emit("error", err);
      }
      // if we're connected and we receive an error event from the connection
      // this means the socket is dead - do a hard abort of all queries and emit
      // the socket error on the client as well
      _handleErrorEvent(err) {
        if (this._connecting) {
          return this._handleErrorWhileConnecting(err);
        }
        this._queryable = false;
        this._errorAllQueries(err);
        this.emit("error", err);
      }
      // handle error messages from the postgres backend
      _handleErrorMessage(msg) {
        if (this._connecting) {
          return this._handleErrorWhileConnecting(msg);
        }
        const activeQuery = this._getActiveQuery();
        if (!activeQuery) {
          this._handleErrorEvent(msg);
          return;
        }
        this._activeQuery = null;
        if (activeQuery.name) {
          delete this.connection.submittedNamedStatements[activeQuery.name];
        }
        activeQuery.handleError(msg, this.connection);
      }
      _handleRowDescription(msg) {
        const activeQuery = this._getActiveQuery();
        if (activeQuery == null) {
          const error = new Error("Received unexpected rowDescription message from backend.");
          this._handleErrorEvent(error);
          return;
        }
        activeQuery.handleRowDescription(msg);
      }
      _handleDataRow(msg) {
        const activeQuery = this._getActiveQuery();
        if (activeQuery == null) {
          const error = new Error("Received unexpected dataRow message from backend.");
          this._handleErrorEvent(error);
          return;
        }
        activeQuery.handleDataRow(msg);
      }
      _handlePortalSuspended(msg) {
        const activeQuery = this._getActiveQuery();
        if (activeQuery == null) {
          const error = new Error("Received unexpected portalSuspended message from backend.");
          this._handleErrorEvent(error);
          return;
        }
        activeQuery.handlePortalSuspended(this.connection);
      }
      _handleEmptyQuery(msg) {
        const activeQuery = this._getActiveQuery();
        if (activeQuery == null) {
          const error = new Error("Received unexpected emptyQuery message from backend.");
          this._handleErrorEvent(error);
          return;
        }
        activeQuery.handleEmptyQuery(this.connection);
      }
      _handleCommandComplete(msg) {
        const activeQuery = this._getActiveQuery();
        if (activeQuery == null) {
          const error = new Error("Received unexpected commandComplete message from backend.");
          this._handleErrorEvent(error);
          return;
        }
        activeQuery.handleCommandComplete(msg, this.connection);
      }
      _handleParseComplete() {
        const activeQuery = this._getActiveQuery();
        if (activeQuery == null) {
          const error = new Error("Received unexpected parseComplete message from backend.");
          this._handleErrorEvent(error);
          return;
        }
        if (activeQuery.name) {
          this.connection.parsedStatements[activeQuery.name] = activeQuery.text;
          delete this.connection.submittedNamedStatements[activeQuery.name];
        }
      }
      _handleCopyInResponse(msg) {
        const activeQuery = this._getActiveQuery();
        if (activeQuery == null) {
          const error = new Error("Received unexpected copyInResponse message from backend.");
          this._handleErrorEvent(error);
          return;
        }
        activeQuery.handleCopyInResponse(this.connection);
      }
      _handleCopyData(msg) {
        const activeQuery = this._getActiveQuery();
        if (activeQuery == null) {
          const error = new Error("Received unexpected copyData message from backend.");
          this._handleErrorEvent(error);
          return;
        }
        activeQuery.handleCopyData(msg, this.connection);
      }
      _handleNotification(msg) {
        this.emit("notification", msg);
      }
      _handleNotice(msg) {
        this.emit("notice", msg);
      }
      getStartupConf() {
        const params = this.connectionParameters;
        const data = {
          user: params.user,
          database: params.database
        };
        const appName = params.application_name || params.fallback_application_name;
        if (appName) {
          data.application_name = appName;
        }
        if (params.replication) {
          data.replication = "" + params.replication;
        }
        if (params.statement_timeout) {
          data.statement_timeout = String(parseInt(params.statement_timeout, 10));
        }
        if (params.lock_timeout) {
          data.lock_timeout = String(parseInt(params.lock_timeout, 10));
        }
        if (params.idle_in_transaction_session_timeout) {
          data.idle_in_transaction_session_timeout = String(parseInt(params.idle_in_transaction_session_timeout, 10));
        }
        if (params.options) {
          data.options = params.options;
        }
        return data;
      }
      cancel(client, query) {
        if (client.activeQuery === query) {
          const con = this.connection;
          if (this.host && this.host.indexOf("/") === 0) {
            con.connect(this.host + "/.s.PGSQL." + this.port);
          } else {
            con.connect(this.port, this.host);
          }
          con.on("connect", function() {
            con.cancel(client.processID, client.secretKey);
          });
        } else if (client._queryQueue.indexOf(query) !== -1) {
          client._queryQueue.splice(client._queryQueue.indexOf(query), 1);
        } else if (client._sentQueryQueue.indexOf(query) !== -1) {
          query.callback = () => {
          };
        }
      }
      setTypeParser(oid, format, parseFn) {
        return this._types.setTypeParser(oid, format, parseFn);
      }
      getTypeParser(oid, format) {
        return this._types.getTypeParser(oid, format);
      }
      // escapeIdentifier and escapeLiteral moved to utility functions & exported
      // on PG
      // re-exported here for backwards compatibility
      escapeIdentifier(str) {
        return utils.escapeIdentifier(str);
      }
      escapeLiteral(str) {
        return utils.escapeLiteral(str);
      }
      _pulseQueryQueue() {
        if (this.pipeline) {
          this._pulsePipelinedQueryQueue();
          return;
        }
        if (this.readyForQuery === true) {
          this._activeQuery = this._queryQueue.shift();
          const activeQuery = this._getActiveQuery();
          if (activeQuery) {
            this.readyForQuery = false;
            this.hasExecuted = true;
            const queryError = activeQuery.submit(this.connection);
            if (queryError) {
              process.nextTick(() => {
                activeQuery.handleError(queryError, this.connection);
                this.readyForQuery = true;
                this._pulseQueryQueue();
              });
            }
          } else if (this.hasExecuted) {
            this._activeQuery = null;
            this.emit("drain");
          }
        }
      }
      _pulsePipelinedQueryQueue() {
        if (!this._connected || !this._queryable) {
          return;
        }
        while (this._queryQueue.length > 0) {
          const query = this._queryQueue.shift();
          this.hasExecuted = true;
          const queryError = query.submit(this.connection);
          if (queryError) {
            process.nextTick(() => {
              query.handleError(queryError, this.connection);
            });
            continue;
          }
          this._sentQueryQueue.push(query);
        }
        if (this.readyForQuery && !this._activeQuery && this._sentQueryQueue.length > 0) {
          this._activeQuery = this._sentQueryQueue.shift();
          this.readyForQuery = false;
        }
        if (!this._activeQuery && this._sentQueryQueue.length === 0 && this._queryQueue.length === 0 && this.hasExecuted) {
          this.emit("drain");
        }
      }
      query(config, values, callback) {
        let query;
        let result;
        if (config == null) {
          throw new TypeError("Client was passed a null or undefined query");
        }
        if (typeof config.submit === "function") {
          result = query = config;
          if (!query.callback) {
            if (typeof values === "function") {
              query.callback = values;
            } else if (callback) {
              query.callback = callback;
            }
          }
        } else {
          query = new Query2(config, values, callback);
          if (!query.callback) {
            result = new this._Promise((resolve8, reject) => {
              query.callback = (err, res) => err ? reject(err) : resolve8(res);
            }).catch((err) => {
              Error.captureStackTrace(err);
              throw err;
            });
          } else if (typeof query.callback !== "function") {
            throw new TypeError("callback is not a function");
          }
        }
        const readTimeout = config.query_timeout || this.connectionParameters.query_timeout;
        if (readTimeout) {
          const queryCallback = query.callback || (() => {
          });
          const readTimeoutTimer = setTimeout(() => {
            const error = new Error("Query read timeout");
            process.nextTick(() => {
              query.handleError(error, this.connection);
            });
            queryCallback(error);
            query.callback = () => {
            };
            const index = this._queryQueue.indexOf(query);
            if (index > -1) {
              this._queryQueue.splice(index, 1);
            } else if (this.pipeline) {
              this.connection.stream.destroy();
              return;
            }
            this._pulseQueryQueue();
          }, readTimeout);
          query.callback = (err, res) => {
            clearTimeout(readTimeoutTimer);
            queryCallback(err, res);
          };
        }
        if (this.binary && !query.binary) {
          query.binary = true;
        }
        if (query._result && !query._result._types) {
          query._result._types = this._types;
        }
        if (this.pipeline) {
          const portalQuery = typeof config.submit === "function" && !(query instanceof Query2) ? "Custom query classes such as pg-cursor and pg-query-stream are" : query.rows ? "The `rows` option is" : null;
          if (portalQuery) {
            process.nextTick(() => {
              query.handleError(new Error(`${portalQuery} not supported in pipeline mode`), this.connection);
            });
            return result;
          }
        }
        if (!this._queryable) {
          process.nextTick(() => {
            query.handleError(new Error("Client has encountered a connection error and is not queryable"), this.connection);
          });
          return result;
        }
        if (this._ending) {
          process.nextTick(() => {
            query.handleError(new Error("Client was closed and is not queryable"), this.connection);
          });
          return result;
        }
        if (this._queryQueue.length > 0 && !this.pipeline) {
          queryQueueLengthDeprecationNotice();
        }
        this._queryQueue.push(query);
        this._pulseQueryQueue();
        return result;
      }
      ref() {
        this.connection.ref();
      }
      unref() {
        this.connection.unref();
      }
      getTransactionStatus() {
        return this._txStatus;
      }
      end(cb) {
        this._ending = true;
        if (!this.connection._connecting || this._ended) {
          if (cb) {
            cb();
            return;
          } else {
            return this._Promise.resolve();
          }
        }
        if (!this._queryable) {
          this.connection.stream.destroy();
        } else if (this.pipeline && (this._getActiveQuery() || this._sentQueryQueue.length > 0 || this._queryQueue.length > 0)) {
          this.once("drain", () => this.connection.end());
        } else if (this._getActiveQuery()) {
          this.connection.stream.destroy();
        } else {
          this.connection.end();
        }
        if (cb) {
          this.connection.once("end", cb);
        } else {
          return new this._Promise((resolve8) => {
            this.connection.once("end", resolve8);
          });
        }
      }
      get queryQueue() {
        queryQueueDeprecationNotice();
        return this._queryQueue;
      }
    };
    Client2.Query = Query2;
    module.exports = Client2;
  }
});

// node_modules/pg-pool/index.js
var require_pg_pool = __commonJS({
  "node_modules/pg-pool/index.js"(exports, module) {
    "use strict";
    var EventEmitter = __require("events").EventEmitter;
    var NOOP = function() {
    };
    var removeWhere = (list, predicate) => {
      const i = list.findIndex(predicate);
      return i === -1 ? void 0 : list.splice(i, 1)[0];
    };
    var IdleItem = class {
      constructor(client, idleListener, timeoutId) {
        this.client = client;
        this.idleListener = idleListener;
        this.timeoutId = timeoutId;
      }
    };
    var PendingItem = class {
      constructor(callback) {
        this.callback = callback;
      }
    };
    function throwOnDoubleRelease() {
      throw new Error("Release called on client which has already been released to the pool.");
    }
    function promisify(Promise2, callback) {
      if (callback) {
        return { callback, result: void 0 };
      }
      let rej;
      let res;
      const cb = function(err, client) {
        err ? rej(err) : res(client);
      };
      const result = new Promise2(function(resolve8, reject) {
        res = resolve8;
        rej = reject;
      }).catch((err) => {
        Error.captureStackTrace(err);
        throw err;
      });
      return { callback: cb, result };
    }
    function makeIdleListener(pool, client) {
      return function idleListener(err) {
        err.client = client;
        client.removeListener("error", idleListener);
        client.on("error", () => {
          pool.log("additional client error after disconnection due to error", err);
        });
        pool._remove(client);
        pool.emit("error", err, client);
      };
    }
    var Pool2 = class extends EventEmitter {
      constructor(options, Client2) {
        super();
        this.options = Object.assign({}, options);
        if (options != null && "password" in options) {
          Object.defineProperty(this.options, "password", {
            configurable: true,
            enumerable: false,
            writable: true,
            value: options.password
          });
        }
        if (options != null && options.ssl && options.ssl.key) {
          Object.defineProperty(this.options.ssl, "key", {
            enumerable: false
          });
        }
        this.options.max = this.options.max || this.options.poolSize || 10;
        this.options.min = this.options.min || 0;
        this.options.maxUses = this.options.maxUses || Infinity;
        this.options.allowExitOnIdle = this.options.allowExitOnIdle || false;
        this.options.maxLifetimeSeconds = this.options.maxLifetimeSeconds || 0;
        this.log = this.options.log || function() {
        };
        this.Client = this.options.Client || Client2 || require_lib2().Client;
        this.Promise = this.options.Promise || global.Promise;
        if (typeof this.options.idleTimeoutMillis === "undefined") {
          this.options.idleTimeoutMillis = 1e4;
        }
        this._clients = [];
        this._idle = [];
        this._expired = /* @__PURE__ */ new WeakSet();
        this._pendingQueue = [];
        this._endCallback = void 0;
        this.ending = false;
        this.ended = false;
      }
      _promiseTry(f) {
        const Promise2 = this.Promise;
        if (typeof Promise2.try === "function") {
          return Promise2.try(f);
        }
        return new Promise2((resolve8) => resolve8(f()));
      }
      _isFull() {
        return this._clients.length >= this.options.max;
      }
      _isAboveMin() {
        return this._clients.length > this.options.min;
      }
      _pulseQueue() {
        this.log("pulse queue");
        if (this.ended) {
          this.log("pulse queue ended");
          return;
        }
        if (this.ending) {
          this.log("pulse queue on ending");
          if (this._idle.length) {
            this._idle.slice().map((item) => {
              this._remove(item.client);
            });
          }
          if (!this._clients.length) {
            this.ended = true;
            this._endCallback();
          }
          return;
        }
        if (!this._pendingQueue.length) {
          this.log("no queued requests");
          return;
        }
        if (!this._idle.length && this._isFull()) {
          return;
        }
        const pendingItem = this._pendingQueue.shift();
        if (this._idle.length) {
          const idleItem = this._idle.pop();
          clearTimeout(idleItem.timeoutId);
          const client = idleItem.client;
          client.ref && client.ref();
          const idleListener = idleItem.idleListener;
          return this._acquireClient(client, pendingItem, idleListener, false);
        }
        if (!this._isFull()) {
          return this.newClient(pendingItem);
        }
        throw new Error("unexpected condition");
      }
      _remove(client, callback) {
        const removed = removeWhere(this._idle, (item) => item.client === client);
        if (removed !== void 0) {
          clearTimeout(removed.timeoutId);
        }
        this._clients = this._clients.filter((c) => c !== client);
        const context = this;
        client.end(() => {
          context.emit("remove", client);
          if (typeof callback === "function") {
            callback();
          }
        });
      }
      connect(cb) {
        if (this.ending) {
          const err = new Error("Cannot use a pool after calling end on the pool");
          return cb ? cb(err) : this.Promise.reject(err);
        }
        const response = promisify(this.Promise, cb);
        const result = response.result;
        if (this._isFull() || this._idle.length) {
          if (this._idle.length) {
            process.nextTick(() => this._pulseQueue());
          }
          if (!this.options.connectionTimeoutMillis) {
            this._pendingQueue.push(new PendingItem(response.callback));
            return result;
          }
          const queueCallback = (err, res, done) => {
            clearTimeout(tid);
            response.callback(err, res, done);
          };
          const pendingItem = new PendingItem(queueCallback);
          const tid = setTimeout(() => {
            removeWhere(this._pendingQueue, (i) => i.callback === queueCallback);
            pendingItem.timedOut = true;
            response.callback(new Error("timeout exceeded when trying to connect"));
          }, this.options.connectionTimeoutMillis);
          if (tid.unref) {
            tid.unref();
          }
          this._pendingQueue.push(pendingItem);
          return result;
        }
        this.newClient(new PendingItem(response.callback));
        return result;
      }
      newClient(pendingItem) {
        const client = new this.Client(this.options);
        this._clients.push(client);
        const idleListener = makeIdleListener(this, client);
        this.log("checking client timeout");
        let tid;
        let timeoutHit = false;
        if (this.options.connectionTimeoutMillis) {
          tid = setTimeout(() => {
            if (client.connection) {
              this.log("ending client due to timeout");
              timeoutHit = true;
              client.connection.stream.destroy();
            } else if (!client.isConnected()) {
              this.log("ending client due to timeout");
              timeoutHit = true;
              client.end();
            }
          }, this.options.connectionTimeoutMillis);
        }
        this.log("connecting new client");
        client.connect((err) => {
          if (tid) {
            clearTimeout(tid);
          }
          client.on("error", idleListener);
          if (err) {
            this.log("client failed to connect", err);
            this._clients = this._clients.filter((c) => c !== client);
            if (timeoutHit) {
              err = new Error("Connection terminated due to connection timeout", { cause: err });
            }
            this._pulseQueue();
            if (!pendingItem.timedOut) {
              pendingItem.callback(err, void 0, NOOP);
            }
          } else {
            this.log("new client connected");
            if (this.options.onConnect) {
              this._promiseTry(() => this.options.onConnect(client)).then(
                () => {
                  this._afterConnect(client, pendingItem, idleListener);
                },
                (hookErr) => {
                  this._clients = this._clients.filter((c) => c !== client);
                  client.end(() => {
                    this._pulseQueue();
                    if (!pendingItem.timedOut) {
                      pendingItem.callback(hookErr, void 0, NOOP);
                    }
                  });
                }
              );
              return;
            }
            return this._afterConnect(client, pendingItem, idleListener);
          }
        });
      }
      _afterConnect(client, pendingItem, idleListener) {
        if (this.options.maxLifetimeSeconds !== 0) {
          const maxLifetimeTimeout = setTimeout(() => {
            this.log("ending client due to expired lifetime");
            this._expired.add(client);
            const idleIndex = this._idle.findIndex((idleItem) => idleItem.client === client);
            if (idleIndex !== -1) {
              this._acquireClient(
                client,
                new PendingItem((err, client2, clientRelease) => clientRelease()),
                idleListener,
                false
              );
            }
          }, this.options.maxLifetimeSeconds * 1e3);
          maxLifetimeTimeout.unref();
          client.once("end", () => clearTimeout(maxLifetimeTimeout));
        }
        return this._acquireClient(client, pendingItem, idleListener, true);
      }
      // acquire a client for a pending work item
      _acquireClient(client, pendingItem, idleListener, isNew) {
        if (isNew) {
          this.emit("connect", client);
        }
        this.emit("acquire", client);
        client.release = this._releaseOnce(client, idleListener);
        client.removeListener("error", idleListener);
        if (!pendingItem.timedOut) {
          if (isNew && this.options.verify) {
            this.options.verify(client, (err) => {
              if (err) {
                client.release(err);
                return pendingItem.callback(err, void 0, NOOP);
              }
              pendingItem.callback(void 0, client, client.release);
            });
          } else {
            pendingItem.callback(void 0, client, client.release);
          }
        } else {
          if (isNew && this.options.verify) {
            this.options.verify(client, client.release);
          } else {
            client.release();
          }
        }
      }
      // returns a function that wraps _release and throws if called more than once
      _releaseOnce(client, idleListener) {
        let released = false;
        return (err) => {
          if (released) {
            throwOnDoubleRelease();
          }
          released = true;
          this._release(client, idleListener, err);
        };
      }
      // release a client back to the poll, include an error
      // to remove it from the pool
      _release(client, idleListener, err) {
        client.on("error", idleListener);
        client._poolUseCount = (client._poolUseCount || 0) + 1;
        this.emit("release", err, client);
        if (err || this.ending || !client._queryable || client._ending || client._poolUseCount >= this.options.maxUses) {
          if (client._poolUseCount >= this.options.maxUses) {
            this.log("remove expended client");
          }
          return this._remove(client, this._pulseQueue.bind(this));
        }
        const isExpired = this._expired.has(client);
        if (isExpired) {
          this.log("remove expired client");
          this._expired.delete(client);
          return this._remove(client, this._pulseQueue.bind(this));
        }
        let tid;
        if (this.options.idleTimeoutMillis && this._isAboveMin()) {
          tid = setTimeout(() => {
            if (this._isAboveMin()) {
              this.log("remove idle client");
              this._remove(client, this._pulseQueue.bind(this));
            }
          }, this.options.idleTimeoutMillis);
          if (this.options.allowExitOnIdle) {
            tid.unref();
          }
        }
        if (this.options.allowExitOnIdle) {
          client.unref();
        }
        this._idle.push(new IdleItem(client, idleListener, tid));
        this._pulseQueue();
      }
      query(text, values, cb) {
        if (typeof text === "function") {
          const response2 = promisify(this.Promise, text);
          setImmediate(function() {
            return response2.callback(new Error("Passing a function as the first parameter to pool.query is not supported"));
          });
          return response2.result;
        }
        if (typeof values === "function") {
          cb = values;
          values = void 0;
        }
        const response = promisify(this.Promise, cb);
        cb = response.callback;
        this.connect((err, client) => {
          if (err) {
            return cb(err);
          }
          let clientReleased = false;
          const onError = (err2) => {
            if (clientReleased) {
              return;
            }
            clientReleased = true;
            client.release(err2);
            cb(err2);
          };
          client.once("error", onError);
          this.log("dispatching query");
          try {
            client.query(text, values, (err2, res) => {
              this.log("query dispatched");
              client.removeListener("error", onError);
              if (clientReleased) {
                return;
              }
              clientReleased = true;
              client.release(err2);
              if (err2) {
                return cb(err2);
              }
              return cb(void 0, res);
            });
          } catch (err2) {
            client.release(err2);
            return cb(err2);
          }
        });
        return response.result;
      }
      end(cb) {
        this.log("ending");
        if (this.ending) {
          const err = new Error("Called end on pool more than once");
          return cb ? cb(err) : this.Promise.reject(err);
        }
        this.ending = true;
        const promised = promisify(this.Promise, cb);
        this._endCallback = promised.callback;
        this._pulseQueue();
        return promised.result;
      }
      get waitingCount() {
        return this._pendingQueue.length;
      }
      get idleCount() {
        return this._idle.length;
      }
      get expiredCount() {
        return this._clients.reduce((acc, client) => acc + (this._expired.has(client) ? 1 : 0), 0);
      }
      get totalCount() {
        return this._clients.length;
      }
    };
    module.exports = Pool2;
  }
});

// node_modules/pg/lib/native/query.js
var require_query2 = __commonJS({
  "node_modules/pg/lib/native/query.js"(exports, module) {
    "use strict";
    var EventEmitter = __require("events").EventEmitter;
    var util = __require("util");
    var utils = require_utils();
    var NativeQuery = module.exports = function(config, values, callback) {
      EventEmitter.call(this);
      config = utils.normalizeQueryConfig(config, values, callback);
      this.text = config.text;
      this.values = config.values;
      this.name = config.name;
      this.queryMode = config.queryMode;
      this.callback = config.callback;
      this.state = "new";
      this._arrayMode = config.rowMode === "array";
      this._emitRowEvents = false;
      this.on(
        "newListener",
        function(event) {
          if (event === "row") this._emitRowEvents = true;
        }.bind(this)
      );
    };
    util.inherits(NativeQuery, EventEmitter);
    var errorFieldMap = {
      sqlState: "code",
      statementPosition: "position",
      messagePrimary: "message",
      messageDetail: "detail",
      messageHint: "hint",
      context: "where",
      schemaName: "schema",
      tableName: "table",
      columnName: "column",
      dataTypeName: "dataType",
      constraintName: "constraint",
      sourceFile: "file",
      sourceLine: "line",
      sourceFunction: "routine"
    };
    NativeQuery.prototype.handleError = function(err) {
      const fields = this.native && this.native.pq.resultErrorFields();
      if (fields) {
        for (const key in fields) {
          const normalizedFieldName = errorFieldMap[key] || key;
          err[normalizedFieldName] = fields[key];
        }
      }
      if (this.callback) {
        this.callback(err);
      } else {
        this.emit("error", err);
      }
      this.state = "error";
    };
    NativeQuery.prototype.then = function(onSuccess, onFailure) {
      return this._getPromise().then(onSuccess, onFailure);
    };
    NativeQuery.prototype.catch = function(callback) {
      return this._getPromise().catch(callback);
    };
    NativeQuery.prototype._getPromise = function() {
      if (this._promise) return this._promise;
      this._promise = new Promise(
        function(resolve8, reject) {
          this._once("end", resolve8);
          this._once("error", reject);
        }.bind(this)
      );
      return this._promise;
    };
    NativeQuery.prototype.submit = function(client) {
      this.state = "running";
      const self = this;
      this.native = client.native;
      client.native.arrayMode = this._arrayMode;
      let after = function(err, rows, results) {
        client.native.arrayMode = false;
        setImmediate(function() {
          self.emit("_done");
        });
        if (err) {
          return self.handleError(err);
        }
        if (self._emitRowEvents) {
          if (results.length > 1) {
            rows.forEach((rowOfRows, i) => {
              rowOfRows.forEach((row) => {
                self.emit("row", row, results[i]);
              });
            });
          } else {
            rows.forEach(function(row) {
              self.emit("row", row, results);
            });
          }
        }
        self.state = "end";
        self.emit("end", results);
        if (self.callback) {
          self.callback(null, results);
        }
      };
      if (process.domain) {
        after = process.domain.bind(after);
      }
      if (this.name) {
        if (this.name.length > 63) {
          console.error("Warning! Postgres only supports 63 characters for query names.");
          console.error("You supplied %s (%s)", this.name, this.name.length);
          console.error("This can cause conflicts and silent errors executing queries");
        }
        const values = (this.values || []).map(utils.prepareValue);
        if (client.namedQueries[this.name] !== void 0) {
          if (this.text && client.namedQueries[this.name] !== this.text) {
            const err = new Error(`Prepared statements must be unique - '${this.name}' was used for a different statement`);
            return after(err);
          }
          return client.native.execute(this.name, values, after);
        }
        return client.native.prepare(this.name, this.text, values.length, function(err) {
          if (err) return after(err);
          client.namedQueries[self.name] = self.text;
          return self.native.execute(self.name, values, after);
        });
      } else if (this.values) {
        if (!Array.isArray(this.values)) {
          const err = new Error("Query values must be an array");
          return after(err);
        }
        const vals = this.values.map(utils.prepareValue);
        client.native.query(this.text, vals, after);
      } else if (this.queryMode === "extended") {
        client.native.query(this.text, [], after);
      } else {
        client.native.query(this.text, after);
      }
    };
  }
});

// node_modules/pg/lib/native/client.js
var require_client2 = __commonJS({
  "node_modules/pg/lib/native/client.js"(exports, module) {
    var nodeUtils = __require("util");
    var Native;
    try {
      Native = __require("pg-native");
    } catch (e) {
      throw e;
    }
    var TypeOverrides2 = require_type_overrides();
    var EventEmitter = __require("events").EventEmitter;
    var util = __require("util");
    var ConnectionParameters = require_connection_parameters();
    var NativeQuery = require_query2();
    var queryQueueLengthDeprecationNotice = nodeUtils.deprecate(
      () => {
      },
      "Calling client.query() when the client is already executing a query is deprecated and will be removed in pg@9.0. Use async/await or an external async flow control mechanism instead."
    );
    var Client2 = module.exports = function(config) {
      EventEmitter.call(this);
      config = config || {};
      this._Promise = config.Promise || global.Promise;
      this._types = new TypeOverrides2(config.types);
      this.native = new Native({
        types: this._types
      });
      this._queryQueue = [];
      this._ending = false;
      this._connecting = false;
      this._connected = false;
      this._queryable = true;
      this.pipeline = Boolean(config.pipeline);
      this._pipelineInFlight = false;
      const cp = this.connectionParameters = new ConnectionParameters(config);
      if (config.nativeConnectionString) cp.nativeConnectionString = config.nativeConnectionString;
      this.user = cp.user;
      Object.defineProperty(this, "password", {
        configurable: true,
        enumerable: false,
        writable: true,
        value: cp.password
      });
      this.database = cp.database;
      this.host = cp.host;
      this.port = cp.port;
      this.namedQueries = {};
    };
    Client2.Query = NativeQuery;
    util.inherits(Client2, EventEmitter);
    Client2.prototype._errorAllQueries = function(err) {
      const enqueueError = (query) => {
        process.nextTick(() => {
          query.native = this.native;
          query.handleError(err);
        });
      };
      if (this._hasActiveQuery()) {
        enqueueError(this._activeQuery);
        this._activeQuery = null;
      }
      this._queryQueue.forEach(enqueueError);
      this._queryQueue.length = 0;
    };
    Client2.prototype._connect = function(cb) {
      const self = this;
      if (this._connecting) {
        process.nextTick(() => cb(new Error("Client has already been connected. You cannot reuse a client.")));
        return;
      }
      this._connecting = true;
      this.connectionParameters.getLibpqConnectionString(function(err, conString) {
        if (self.connectionParameters.nativeConnectionString) conString = self.connectionParameters.nativeConnectionString;
        if (err) return cb(err);
        self.native.connect(conString, function(err2) {
          if (err2) {
            self.native.end();
            return cb(err2);
          }
          self._connected = true;
          self.native.on("error", function(err3) {
            self._queryable = false;
            self._errorAllQueries(err3);
            self.emit("error", err3);
          });
          self.native.on("notification", function(msg) {
            self.emit("notification", {
              channel: msg.relname,
              payload: msg.extra
            });
          });
          self.emit("connect");
          self._pulseQueryQueue(true);
          cb(null, this);
        });
      });
    };
    Client2.prototype.connect = function(callback) {
      if (callback) {
        this._connect(callback);
        return;
      }
      return new this._Promise((resolve8, reject) => {
        this._connect((error) => {
          if (error) {
            reject(error);
          } else {
            resolve8(this);
          }
        });
      });
    };
    Client2.prototype.query = function(config, values, callback) {
      let query;
      let result;
      let readTimeout;
      let readTimeoutTimer;
      let queryCallback;
      if (config === null || config === void 0) {
        throw new TypeError("Client was passed a null or undefined query");
      } else if (typeof config.submit === "function") {
        readTimeout = config.query_timeout || this.connectionParameters.query_timeout;
        result = query = config;
        if (typeof values === "function") {
          config.callback = values;
        }
      } else {
        readTimeout = config.query_timeout || this.connectionParameters.query_timeout;
        query = new NativeQuery(config, values, callback);
        if (!query.callback) {
          let resolveOut, rejectOut;
          result = new this._Promise((resolve8, reject) => {
            resolveOut = resolve8;
            rejectOut = reject;
          }).catch((err) => {
            Error.captureStackTrace(err);
            throw err;
          });
          query.callback = (err, res) => err ? rejectOut(err) : resolveOut(res);
        }
      }
      if (readTimeout) {
        queryCallback = query.callback || (() => {
        });
        readTimeoutTimer = setTimeout(() => {
          const error = new Error("Query read timeout");
          process.nextTick(() => {
            query.handleError(error, this.connection);
          });
          queryCallback(error);
          query.callback = () => {
          };
          const index = this._queryQueue.indexOf(query);
          if (index > -1) {
            this._queryQueue.splice(index, 1);
          }
          this._pulseQueryQueue();
        }, readTimeout);
        query.callback = (err, res) => {
          clearTimeout(readTimeoutTimer);
          queryCallback(err, res);
        };
      }
      if (!this._queryable) {
        query.native = this.native;
        process.nextTick(() => {
          query.handleError(new Error("Client has encountered a connection error and is not queryable"));
        });
        return result;
      }
      if (this._ending) {
        query.native = this.native;
        process.nextTick(() => {
          query.handleError(new Error("Client was closed and is not queryable"));
        });
        return result;
      }
      if (this._queryQueue.length > 0 && !this.pipeline) {
        queryQueueLengthDeprecationNotice();
      }
      this._queryQueue.push(query);
      this._pulseQueryQueue();
      return result;
    };
    Client2.prototype.end = function(cb) {
      const self = this;
      this._ending = true;
      if (this._connecting && !this._connected) {
        this.once("connect", () => {
          this.end(() => {
          });
        });
      }
      let result;
      if (!cb) {
        result = new this._Promise(function(resolve8, reject) {
          cb = (err) => err ? reject(err) : resolve8();
        });
      }
      const doEnd = function() {
        self.native.end(function() {
          self._connected = false;
          self._errorAllQueries(new Error("Connection terminated"));
          process.nextTick(() => {
            self.emit("end");
            if (cb) cb();
          });
        });
      };
      if (this.pipeline && (this._pipelineInFlight || this._queryQueue.length > 0)) {
        this.once("drain", doEnd);
      } else {
        doEnd();
      }
      return result;
    };
    Client2.prototype._hasActiveQuery = function() {
      return this._activeQuery && this._activeQuery.state !== "error" && this._activeQuery.state !== "end";
    };
    Client2.prototype._pulseQueryQueue = function(initialConnection) {
      if (!this._connected) {
        return;
      }
      if (this.pipeline && !initialConnection) {
        return this._pulsePipelinedQueryQueue();
      }
      if (this._hasActiveQuery()) {
        return;
      }
      const query = this._queryQueue.shift();
      if (!query) {
        if (!initialConnection) {
          this.emit("drain");
        }
        return;
      }
      this._activeQuery = query;
      query.submit(this);
      const self = this;
      query.once("_done", function() {
        self._pulseQueryQueue();
      });
    };
    Client2.prototype._pulsePipelinedQueryQueue = function() {
      if (!this._connected || this._pipelineInFlight) {
        return;
      }
      if (this._queryQueue.length === 0) {
        if (this.hasExecuted) {
          this.emit("drain");
        }
        return;
      }
      this._pipelineInFlight = true;
      const self = this;
      const queries = [];
      const nativeQueries = [];
      const utils = require_utils();
      while (this._queryQueue.length > 0) {
        const query = this._queryQueue.shift();
        this.hasExecuted = true;
        nativeQueries.push(query);
        const values = query.values ? query.values.map(utils.prepareValue) : null;
        const pipelineEntry = { text: query.text, name: query.name, arrayMode: query._arrayMode };
        if (values) {
          pipelineEntry.values = values;
        }
        if (query.name && this.namedQueries[query.name]) {
          pipelineEntry._alreadyPrepared = true;
        }
        queries.push(pipelineEntry);
      }
      this.native.pipeline(queries, function(err, results) {
        self._pipelineInFlight = false;
        if (err) {
          self._connected = false;
          self._queryable = false;
          for (let i = 0; i < nativeQueries.length; i++) {
            const q = nativeQueries[i];
            q.native = self.native;
            q.handleError(err);
          }
          self._errorAllQueries(err);
          self.emit("error", err);
          self.emit("end");
          return;
        }
        for (let i = 0; i < nativeQueries.length; i++) {
          const q = nativeQueries[i];
          const r = results[i];
          q.native = self.native;
          if (r.err) {
            q.handleError(r.err);
          } else {
            if (q.name) {
              self.namedQueries[q.name] = q.text;
            }
            q.state = "end";
            q.emit("end", r.result);
            if (q.callback) {
              q.callback(null, r.result);
            }
          }
          setImmediate(function() {
            q.emit("_done");
          });
        }
        self._pulsePipelinedQueryQueue();
      });
    };
    Client2.prototype.cancel = function(query) {
      if (this._activeQuery === query) {
        this.native.cancel(function() {
        });
      } else if (this._queryQueue.indexOf(query) !== -1) {
        this._queryQueue.splice(this._queryQueue.indexOf(query), 1);
      }
    };
    Client2.prototype.ref = function() {
    };
    Client2.prototype.unref = function() {
    };
    Client2.prototype.setTypeParser = function(oid, format, parseFn) {
      return this._types.setTypeParser(oid, format, parseFn);
    };
    Client2.prototype.getTypeParser = function(oid, format) {
      return this._types.getTypeParser(oid, format);
    };
    Client2.prototype.isConnected = function() {
      return this._connected;
    };
    Client2.prototype.getTransactionStatus = function() {
      return this.native.getTransactionStatus();
    };
  }
});

// node_modules/pg/lib/native/index.js
var require_native = __commonJS({
  "node_modules/pg/lib/native/index.js"(exports, module) {
    "use strict";
    module.exports = require_client2();
  }
});

// node_modules/pg/lib/index.js
var require_lib2 = __commonJS({
  "node_modules/pg/lib/index.js"(exports, module) {
    "use strict";
    var Client2 = require_client();
    var defaults2 = require_defaults();
    var Connection2 = require_connection();
    var Result2 = require_result();
    var utils = require_utils();
    var Pool2 = require_pg_pool();
    var TypeOverrides2 = require_type_overrides();
    var { DatabaseError: DatabaseError2 } = require_dist();
    var { escapeIdentifier: escapeIdentifier2, escapeLiteral: escapeLiteral2 } = require_utils();
    var poolFactory = (Client3) => {
      return class BoundPool extends Pool2 {
        constructor(options) {
          super(options, Client3);
        }
      };
    };
    var PG = function(clientConstructor2) {
      this.defaults = defaults2;
      this.Client = clientConstructor2;
      this.Query = this.Client.Query;
      this.Pool = poolFactory(this.Client);
      this._pools = [];
      this.Connection = Connection2;
      this.types = require_pg_types();
      this.DatabaseError = DatabaseError2;
      this.TypeOverrides = TypeOverrides2;
      this.escapeIdentifier = escapeIdentifier2;
      this.escapeLiteral = escapeLiteral2;
      this.Result = Result2;
      this.utils = utils;
    };
    var clientConstructor = Client2;
    var forceNative = false;
    try {
      forceNative = !!process.env.NODE_PG_FORCE_NATIVE;
    } catch {
    }
    if (forceNative) {
      clientConstructor = require_native();
    }
    module.exports = new PG(clientConstructor);
    Object.defineProperty(module.exports, "native", {
      configurable: true,
      enumerable: false,
      get() {
        let native = null;
        try {
          native = new PG(require_native());
        } catch (err) {
          if (err.code !== "MODULE_NOT_FOUND") {
            throw err;
          }
        }
        Object.defineProperty(module.exports, "native", {
          value: native
        });
        return native;
      }
    });
  }
});

// src/logger.ts
function createStderrLogger(options = {}) {
  const write = (prefix, message) => {
    process.stderr.write(`${prefix}${message}
`);
  };
  return {
    debug: (message) => {
      if (options.verbose) write("debug: ", message);
    },
    info: (message) => write("", message),
    warn: (message) => write("warning: ", message),
    error: (message) => write("error: ", message)
  };
}

// src/cli/command.ts
var UsageError = class extends Error {
  exitCode = 2;
  constructor(message) {
    super(message);
    this.name = "UsageError";
  }
};

// src/cli/commands/bisect-command.ts
import { join as join3 } from "node:path";

// src/git/list-first-parent-commits.ts
var NotFirstParentError = class extends Error {
  constructor(good, bad) {
    super(
      `${good.slice(0, 12)} is not on the first-parent history of ${bad.slice(0, 12)}: a bisection of main needs a good commit that main itself was at (a merge commit or a commit pushed to main), not one of a merged branch`
    );
    this.good = good;
    this.bad = bad;
    this.name = "NotFirstParentError";
  }
  good;
  bad;
};
var FIELD = "";
async function listFirstParentCommits(repoDir, good, bad, signal2) {
  const format = `--format=%H${FIELD}%cI${FIELD}%s`;
  const read = async (args) => (await gitText(repoDir, ["log", "--first-parent", "--reverse", format, ...args], signal2 ? { signal: signal2 } : {})).split("\n").filter((line) => line !== "").map((line) => {
    const [sha2 = "", committedAt = "", subject = ""] = line.split(FIELD);
    return { sha: sha2, committedAt, subject };
  });
  const [start] = await read(["-1", "--no-walk", good]);
  if (!start) throw new NotFirstParentError(good, bad);
  if (start.sha === bad) return [start];
  const after = await read([`${good}..${bad}`]);
  const first = after[0];
  if (!first) throw new NotFirstParentError(good, bad);
  const parent = await gitText(repoDir, ["rev-parse", "--verify", `${first.sha}^1`], signal2 ? { signal: signal2 } : {});
  if (parent !== start.sha) throw new NotFirstParentError(good, bad);
  return [start, ...after];
}
async function findFirstParentCommitBefore(repoDir, head, days, signal2) {
  const options = signal2 ? { signal: signal2 } : {};
  const headTime = Number(await gitText(repoDir, ["log", "-1", "--format=%ct", head], options));
  const before = headTime - days * 86400;
  const sha2 = await gitText(repoDir, ["rev-list", "-1", "--first-parent", `--before=${before}`, head], options);
  return /^[0-9a-f]{40}$/.test(sha2) ? sha2 : null;
}

// src/watch/judge-drift.ts
function rangeOf(estimate) {
  return estimate.interval ?? { low: estimate.score, high: estimate.score };
}
function judgeScenarioDrift(estimate, maxDrift) {
  if (estimate === null) return "none";
  const { low, high } = rangeOf(estimate);
  if (high < maxDrift) return "drifted";
  if (low >= maxDrift) return "within";
  return "unclear";
}
function judgeDrift(estimates, maxDrift) {
  const scenarios = estimates.map((entry) => ({ ...entry, verdict: judgeScenarioDrift(entry.estimate, maxDrift) }));
  const drifted = scenarios.filter((entry) => entry.verdict === "drifted").sort((a, b) => (a.estimate?.score ?? 1) - (b.estimate?.score ?? 1));
  const scored = scenarios.filter((entry) => entry.estimate !== null);
  return {
    scenarios,
    drifted,
    alarm: drifted.length > 0,
    failed: scored.length === 0,
    improved: scored.length === scenarios.length && scored.every((entry) => entry.estimate !== null && rangeOf(entry.estimate).low > 1)
  };
}

// src/scoring/pool-round-estimates.ts
var Z95 = 1.959964;
var MIN_LOG_SE = 5e-4;
function logStandardError(interval) {
  return Math.max(MIN_LOG_SE, (Math.log(interval.high) - Math.log(interval.low)) / (2 * Z95));
}
function poolRoundEstimates(estimates) {
  const scored = estimates.filter((estimate) => Number.isFinite(estimate.score) && estimate.score > 0);
  if (scored.length === 0) return null;
  const withInterval = scored.filter(
    (estimate) => estimate.interval !== null && estimate.interval.low > 0 && estimate.interval.high >= estimate.interval.low
  );
  if (withInterval.length === 0) {
    const meanLog = scored.reduce((sum, estimate) => sum + Math.log(estimate.score), 0) / scored.length;
    return { score: Math.exp(meanLog), interval: null, rounds: scored.length };
  }
  if (withInterval.length === 1) {
    const only = withInterval[0];
    if (only) return { score: only.score, interval: { ...only.interval }, rounds: 1 };
  }
  let weights = 0;
  let weighted = 0;
  for (const estimate of withInterval) {
    const weight = 1 / logStandardError(estimate.interval) ** 2;
    weights += weight;
    weighted += weight * Math.log(estimate.score);
  }
  const mean2 = weighted / weights;
  const se = 1 / Math.sqrt(weights);
  return {
    score: Math.exp(mean2),
    interval: { low: Math.exp(mean2 - Z95 * se), high: Math.exp(mean2 + Z95 * se) },
    rounds: withInterval.length
  };
}

// src/watch/plan-bisection.ts
function stepKey(purpose, index, attempt) {
  return `${purpose}-${index}-${attempt}`;
}
function probeIndices(lo, hi, parallel) {
  const inside = hi - lo - 1;
  if (inside <= 0) return [];
  const count = Math.min(Math.max(1, parallel), inside);
  if (count === 1) return [Math.floor((lo + hi) / 2)];
  const indices = /* @__PURE__ */ new Set();
  for (let k = 1; k <= count; k++) indices.add(Math.min(hi - 1, Math.max(lo + 1, Math.round(lo + k * (hi - lo) / (count + 1)))));
  return [...indices].sort((a, b) => a - b);
}
function shareOf(pooled, drift) {
  const total = Math.log(drift);
  const { low, high } = rangeOf(pooled);
  return { value: Math.log(pooled.score) / total, low: Math.log(high) / total, high: Math.log(low) / total };
}
function planBisection(setup, records) {
  const { commits, drift } = setup;
  const n = commits.length - 1;
  if (n < 1) throw new Error("planBisection: the range needs the good and the bad commit");
  const commit = (index) => commits[index] ?? "";
  const bar = Math.sqrt(Math.min(drift.score, 1));
  const driftRange = rangeOf(drift);
  const roundsOf = (purpose, index) => records.filter((record) => record.purpose === purpose && record.index === index);
  const maxRounds = 1 + setup.maxRepeats;
  const judgeProbe = (index) => {
    const rounds = roundsOf("probe", index);
    const pooled = poolRoundEstimates(rounds.flatMap((round) => round.estimate ? [round.estimate] : []));
    if (!pooled) return { pooled, attempts: rounds.length, verdict: "failed", share: null };
    const { low, high } = rangeOf(pooled);
    const verdict = high < bar ? "bad" : low >= bar ? "good" : "unclear";
    return { pooled, attempts: rounds.length, verdict, share: drift.score < 1 ? shareOf(pooled, drift.score) : null };
  };
  const judgeParent = (rounds, attempts) => {
    const pooled = poolRoundEstimates(rounds);
    if (!pooled) return { pooled, attempts, verdict: "failed", share: null };
    const share = shareOf(pooled, drift.score);
    const verdict = share.low >= setup.explainShare ? "explains" : share.high < setup.explainShare ? "partial" : "unclear";
    return { pooled, attempts, verdict, share };
  };
  const planned = (purpose, index, attempt, base) => ({
    key: stepKey(purpose, index, attempt),
    purpose,
    index,
    attempt,
    base: commit(base),
    head: commit(index)
  });
  const steps = judgeAll(setup, records, judgeProbe, judgeParent);
  const done = (lo2, hi2, outcome) => ({ bar, lo: lo2, hi: hi2, next: [], outcome, steps });
  if (driftRange.high >= 1) return done(0, n, { kind: "no-drift" });
  let lo = 0;
  let hi = n;
  while (hi - lo > 1) {
    const probes = probeIndices(lo, hi, setup.parallel).map((index) => ({ index, ...judgeProbe(index) }));
    const next = probes.filter(
      (probe) => probe.attempts === 0 || (probe.verdict === "unclear" || probe.verdict === "failed") && probe.attempts < maxRounds
    ).map((probe) => planned("probe", probe.index, probe.attempts + 1, 0));
    if (next.length > 0) return { bar, lo, hi, next, outcome: null, steps };
    const firstBad = probes.find((probe) => probe.verdict === "bad")?.index ?? hi;
    const lastGood = probes.filter((probe) => probe.index < firstBad && probe.verdict === "good").at(-1)?.index ?? lo;
    const stuck = probes.find((probe) => probe.index > lastGood && probe.index < firstBad);
    if (stuck) {
      if (stuck.verdict === "unclear" && stuck.pooled && isPartWay(stuck.pooled, driftRange.high)) {
        return done(lastGood, firstBad, { kind: "gradual", evidence: "part-way-level", at: stuck.index, from: 0, to: n });
      }
      return done(lastGood, firstBad, {
        kind: "range",
        from: lastGood,
        to: firstBad,
        unresolved: stuck.index,
        why: stuck.verdict === "failed" ? "failed" : "straddles"
      });
    }
    lo = lastGood;
    hi = firstBad;
  }
  const parent = hi - 1;
  let judged;
  if (parent === 0) {
    const probeRounds = roundsOf("probe", hi).flatMap((round) => round.estimate ? [round.estimate] : []);
    judged = judgeParent(hi === n ? [drift, ...probeRounds] : probeRounds, Math.max(1, probeRounds.length));
  } else {
    const rounds = roundsOf("parent", hi);
    judged = judgeParent(
      rounds.flatMap((round) => round.estimate ? [round.estimate] : []),
      rounds.length
    );
    if (rounds.length === 0 || (judged.verdict === "unclear" || judged.verdict === "failed") && rounds.length < maxRounds) {
      return { bar, lo, hi, next: [planned("parent", hi, rounds.length + 1, parent)], outcome: null, steps };
    }
  }
  if (judged.verdict === "explains" && judged.share) return done(lo, hi, { kind: "single", firstBad: hi, parent, share: judged.share });
  if (judged.verdict === "partial") return done(lo, hi, { kind: "gradual", evidence: "first-bad-explains-little", at: hi, from: 0, to: n });
  return done(lo, hi, {
    kind: "range",
    from: parent,
    to: hi,
    unresolved: hi,
    why: judged.verdict === "failed" ? "failed" : "share-straddles"
  });
}
function isPartWay(pooled, driftHigh) {
  const { low, high } = rangeOf(pooled);
  return high < 1 && low > driftHigh;
}
function judgeAll(setup, records, judgeProbe, judgeParent) {
  const seen = /* @__PURE__ */ new Set();
  const steps = [];
  for (const record of records) {
    const id = `${record.purpose}-${record.index}`;
    if (seen.has(id)) continue;
    seen.add(id);
    const head = setup.commits[record.index] ?? "";
    if (record.purpose === "probe") {
      steps.push({ purpose: "probe", index: record.index, base: setup.commits[0] ?? "", head, ...judgeProbe(record.index) });
    } else {
      const rounds = records.filter((other) => other.purpose === "parent" && other.index === record.index);
      const judged = judgeParent(
        rounds.flatMap((round) => round.estimate ? [round.estimate] : []),
        rounds.length
      );
      steps.push({ purpose: "parent", index: record.index, base: setup.commits[record.index - 1] ?? "", head, ...judged });
    }
  }
  return steps;
}

// src/watch/scenario-estimates.ts
function scenarioLabel(name) {
  return name ?? "the round";
}
function estimateOf(card) {
  if (card.roundScore === null || !(card.roundScore > 0)) return null;
  return {
    score: card.roundScore,
    interval: card.scoreInterval ? { low: card.scoreInterval.low, high: card.scoreInterval.high } : null
  };
}
function readScenarioEstimates(card) {
  if (card.scenarios && card.scenarios.length > 0) {
    return card.scenarios.map((scenario) => ({ name: scenario.name, estimate: estimateOf(scenario.card) }));
  }
  return [{ name: null, estimate: estimateOf(card) }];
}
function findScenarioEstimate(estimates, name) {
  return estimates.find((entry) => entry.name === name)?.estimate ?? null;
}

// src/round/run-bisection.ts
var RangeRoundFailedError = class extends Error {
  constructor(message, card) {
    super(message);
    this.card = card;
    this.name = "RangeRoundFailedError";
  }
  card;
};
function pickFollowedScenario(card, named) {
  const estimates = readScenarioEstimates(card);
  if (named !== void 0 && named !== null) {
    const drift = findScenarioEstimate(estimates, named);
    return drift ? { name: named, drift } : null;
  }
  const slower = estimates.flatMap((entry) => entry.estimate ? [{ name: entry.name, drift: entry.estimate }] : []).filter((entry) => rangeOf(entry.drift).high < 1).sort((a, b) => a.drift.score - b.drift.score);
  return slower[0] ?? estimates.flatMap((entry) => entry.estimate ? [{ name: entry.name, drift: entry.estimate }] : [])[0] ?? null;
}
async function runLocalBisection(options) {
  const commits = await listFirstParentCommits(options.repoDir, options.good, options.bad, options.signal);
  const shas = commits.map((commit) => commit.sha);
  const rangeCard = options.rangeCard ?? await options.runRound({ base: options.good, head: options.bad, label: "the range round (bad against good)" });
  if (!options.rangeCard) await options.onRound?.("range", rangeCard);
  const followed = pickFollowedScenario(rangeCard, options.scenario);
  if (!followed) {
    throw new RangeRoundFailedError(
      options.scenario ? `the range round has no score for scenario ${JSON.stringify(options.scenario)}: name one the round config has, or leave --scenario out` : "the range round scored nothing (see its card): there is no drift to bisect",
      rangeCard
    );
  }
  const setup = {
    commits: shas,
    drift: followed.drift,
    maxRepeats: options.maxRepeats,
    explainShare: options.explainShare,
    parallel: 1
  };
  const records = [];
  const cards = /* @__PURE__ */ new Map();
  let plan = planBisection(setup, records);
  while (!plan.outcome) {
    for (const step of plan.next) {
      if (options.signal?.aborted) throw options.signal.reason instanceof Error ? options.signal.reason : new Error("cancelled");
      const card = await options.runRound({ base: step.base, head: step.head, label: `step ${step.key}` });
      cards.set(step.key, card);
      records.push({
        purpose: step.purpose,
        index: step.index,
        attempt: step.attempt,
        estimate: findScenarioEstimate(readScenarioEstimates(card), followed.name)
      });
      await options.onRound?.(step.key, card);
    }
    plan = planBisection(setup, records);
  }
  options.logger.info(`bisection of ${options.good.slice(0, 12)}..${options.bad.slice(0, 12)}: ${plan.outcome.kind}`);
  return { commits, scenario: followed.name, rangeCard, setup, records, cards, plan };
}

// src/round/run-commit-round.ts
function localCommitRounds(options) {
  return async ({ base, head, label }) => {
    const round = await loadRound(options.configPath, {
      commits: { base, head, repoDir: options.repoDir, labels: { base: `${label}'s base`, head: `${label}'s head`, repo: "--repo" } }
    });
    options.logger.info(`${label}: ${head.slice(0, 12)} against ${base.slice(0, 12)}`);
    return await runRound({
      round,
      logger: options.logger,
      signal: options.signal,
      ...options.onProgress ? { onProgress: (event) => options.onProgress?.(label, event) } : {}
    });
  };
}

// src/round/run-watch.ts
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";

// src/scoring/detect-change-point.ts
function bestSplit(values, start, end, minSegment) {
  const n = end - start;
  if (n < 2 * minSegment) return null;
  const at = (i) => values[start + i] ?? 0;
  const rowBefore = new Array(n).fill(0);
  const rowAfter = new Array(n).fill(0);
  let total = 0;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const d = Math.abs(at(i) - at(j));
      rowBefore[j] = (rowBefore[j] ?? 0) + d;
      rowAfter[i] = (rowAfter[i] ?? 0) + d;
      total += d;
    }
  }
  let left = 0;
  let cross = 0;
  let right = total;
  let best = null;
  for (let tau = 1; tau < n; tau++) {
    const moved = tau - 1;
    left += rowBefore[moved] ?? 0;
    right -= rowAfter[moved] ?? 0;
    cross += (rowAfter[moved] ?? 0) - (rowBefore[moved] ?? 0);
    const m = tau;
    const k = n - tau;
    if (m < minSegment || k < minSegment) continue;
    const pairs = (count) => count * (count - 1) / 2;
    const energy = 2 * cross / (m * k) - (pairs(m) > 0 ? left / pairs(m) : 0) - (pairs(k) > 0 ? right / pairs(k) : 0);
    const statistic = m * k / (m + k) * energy;
    if (best === null || statistic > best.statistic) best = { index: start + tau, statistic };
  }
  return best;
}
function mean(values, start, end) {
  let sum = 0;
  for (let i = start; i < end; i++) sum += values[i] ?? 0;
  return end > start ? sum / (end - start) : Number.NaN;
}
function permutationPValue(values, start, end, observed, options, random) {
  const segment = values.slice(start, end);
  let asLarge = 0;
  for (let round = 0; round < options.permutations; round++) {
    for (let i = segment.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      const swap = segment[i] ?? 0;
      segment[i] = segment[j] ?? 0;
      segment[j] = swap;
    }
    const split = bestSplit(segment, 0, segment.length, options.minSegment);
    if (split && split.statistic >= observed * (1 - 1e-12)) asLarge++;
  }
  return (1 + asLarge) / (1 + options.permutations);
}
function detectChangePoints(values, options) {
  if (!values.every((value) => Number.isFinite(value))) throw new Error("detectChangePoints: every value must be a finite number");
  if (!Number.isInteger(options.minSegment) || options.minSegment < 1) throw new Error("detectChangePoints: minSegment must be 1 or more");
  const random = createSeededRandom(options.seed ?? 1592639710);
  const bounds = [0, values.length];
  const found = [];
  for (; ; ) {
    let candidate = null;
    for (let segment = 0; segment + 1 < bounds.length; segment++) {
      const start2 = bounds[segment] ?? 0;
      const end2 = bounds[segment + 1] ?? 0;
      const split2 = bestSplit(values, start2, end2, options.minSegment);
      if (split2 && (candidate === null || split2.statistic > candidate.split.statistic)) candidate = { split: split2, start: start2, end: end2 };
    }
    if (!candidate || candidate.split.statistic <= 0) break;
    const { split, start, end } = candidate;
    const pValue = permutationPValue(values, start, end, split.statistic, options, random);
    if (pValue > options.maxPValue) break;
    found.push({
      index: split.index,
      pValue,
      statistic: split.statistic,
      meanBefore: mean(values, start, split.index),
      meanAfter: mean(values, split.index, end)
    });
    bounds.push(split.index);
    bounds.sort((a, b) => a - b);
  }
  return found.sort((a, b) => a.index - b.index);
}

// src/watch/find-series-change.ts
function findSeriesChange(series, settings) {
  if (!settings.enabled) return null;
  const names = [...new Set(series.flatMap((entry) => entry.scores.map((score) => score.name)))];
  let found = null;
  for (const name of names) {
    const points = series.flatMap((entry, at) => {
      const score = entry.scores.find((candidate) => candidate.name === name)?.score;
      return score === void 0 ? [] : [{ at, head: entry.head, value: Math.log(score) }];
    });
    if (points.length < 2 * settings.minSegment) continue;
    const changes = detectChangePoints(
      points.map((point) => point.value),
      { maxPValue: settings.maxPValue, minSegment: settings.minSegment, permutations: settings.permutations }
    );
    for (const change2 of changes) {
      const score = Math.exp(change2.meanAfter - change2.meanBefore);
      const before = points[change2.index - 1];
      const after = points[change2.index];
      if (!before || !after || score > 1 - settings.minChange) continue;
      if (!found || after.at > found.at)
        found = { scenario: name, before: before.head, after: after.head, score, pValue: change2.pValue, at: after.at };
    }
  }
  if (!found) return null;
  const { at: _at, ...change } = found;
  return change;
}

// src/watch/watch-state.ts
var sha = external_exports.string().regex(/^[0-9a-f]{40}$/, { error: "expected a full commit SHA" });
var watchStateSchema = external_exports.object({
  version: external_exports.literal(1),
  /** The commit drift rounds are measured against. */
  good: sha,
  /** When it became the good commit (ISO 8601) and why. */
  goodSince: external_exports.string(),
  goodBecause: external_exports.string().max(500),
  /** The drifts found and reported, newest last (the last 50 kept). */
  reported: external_exports.array(
    external_exports.object({
      good: sha,
      bad: sha,
      at: external_exports.string(),
      scenarios: external_exports.array(external_exports.object({ name: external_exports.string().nullable(), score: external_exports.number(), low: external_exports.number(), high: external_exports.number() })),
      /** The bisection's conclusion, when the watch bisected. */
      outcome: external_exports.string().max(2e3).nullable()
    })
  ).max(50),
  /** The last round the watch ran. */
  last: external_exports.object({ head: sha, at: external_exports.string(), alarm: external_exports.boolean(), failed: external_exports.boolean() }).nullable(),
  /**
   * The drift rounds measured against the present good commit, oldest first (the last 200): the series the
   * change-point method reads. Emptied when the good commit moves, since its scores are against another commit.
   */
  series: external_exports.array(
    external_exports.object({ head: sha, at: external_exports.string(), scores: external_exports.array(external_exports.object({ name: external_exports.string().nullable(), score: external_exports.number().positive() })) })
  ).max(200).default([])
});
function parseWatchState(text, source) {
  let value;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`${source}: expected the watch's JSON state, ${error.message}`);
  }
  const parsed = watchStateSchema.safeParse(value);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new Error(
      `${source}: expected the watch's state (version 1), ${first ? `${first.path.join(".") || "the file"}: ${first.message}` : "invalid"}; delete the file to start the watch again from watch.since`
    );
  }
  return parsed.data;
}
function startWatchState(good, because, now) {
  return { version: 1, good, goodSince: now.toISOString(), goodBecause: because, reported: [], last: null, series: [] };
}
function advanceWatchState(state, round) {
  const { judgement, head, now } = round;
  const at = now.toISOString();
  const last = { head, at, alarm: judgement.alarm, failed: judgement.failed };
  if (judgement.failed) return { ...state, last };
  if (round.change) {
    const { change } = round;
    return {
      ...state,
      good: head,
      goodSince: at,
      goodBecause: `a change point in the series (${change.before.slice(0, 12)}..${change.after.slice(0, 12)}, p ${change.pValue.toFixed(3)}) was reported; later rounds are measured against the slower main`,
      reported: [
        ...state.reported,
        {
          good: change.before,
          bad: change.after,
          at,
          scenarios: [{ name: change.scenario, score: change.score, low: change.score, high: change.score }],
          outcome: round.outcome
        }
      ].slice(-50),
      last,
      series: []
    };
  }
  if (judgement.alarm) {
    const scenarios = judgement.drifted.flatMap(
      (entry) => entry.estimate ? [
        {
          name: entry.name,
          score: entry.estimate.score,
          low: entry.estimate.interval?.low ?? entry.estimate.score,
          high: entry.estimate.interval?.high ?? entry.estimate.score
        }
      ] : []
    );
    return {
      ...state,
      good: head,
      goodSince: at,
      goodBecause: `a drift from ${round.good.slice(0, 12)} was reported; later rounds are measured against the slower main`,
      reported: [...state.reported, { good: round.good, bad: head, at, scenarios, outcome: round.outcome }].slice(-50),
      last,
      series: []
    };
  }
  if (judgement.improved && head !== state.good) {
    return {
      ...state,
      good: head,
      goodSince: at,
      goodBecause: `faster than ${round.good.slice(0, 12)} in every scenario`,
      last,
      series: []
    };
  }
  return { ...state, last, series: appendSeries(state, round) };
}
function appendSeries(state, round) {
  if (round.good !== state.good || round.judgement.failed) return state.series;
  const scores = round.judgement.scenarios.flatMap((entry) => entry.estimate ? [{ name: entry.name, score: entry.estimate.score }] : []);
  return [...state.series, { head: round.head, at: round.now.toISOString(), scores }].slice(-200);
}

// src/round/run-watch.ts
async function readWatchSettings(configPath) {
  const path = resolve(configPath);
  let text;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new ConfigError(
      `config: expected a readable round config file, could not read ${path} (${error.code ?? "?"})`
    );
  }
  return parseRoundConfigYaml(text, path).watch ?? DEFAULT_WATCH;
}
async function resolveWatchBase(options) {
  const { repoDir, head } = options;
  let base;
  if (options.given !== null) {
    const sha2 = await resolveCommit(repoDir, options.given);
    if (!sha2)
      throw new ConfigError(
        `${options.labels.given}: expected a commit of the repository at ${repoDir}, got ${JSON.stringify(options.given)}`
      );
    base = { good: sha2, from: "given", because: `named by ${options.labels.given}` };
  } else if (options.state) {
    base = { good: options.state.good, from: "state", because: `the last commit the watch found good (${options.state.goodBecause})` };
  } else {
    const since = options.since;
    let sha2;
    let because;
    if ("days" in since) {
      sha2 = await findFirstParentCommitBefore(repoDir, head, since.days);
      because = `main's commit ${since.days} day${since.days === 1 ? "" : "s"} before the head (${options.labels.since})`;
      if (!sha2) {
        throw new ConfigError(
          `${options.labels.since}: main's history before ${head.slice(0, 12)} is younger than ${since.days} days; set watch.since to a tag or a commit, or name the good commit`
        );
      }
    } else if ("tag" in since) {
      sha2 = await resolveCommit(repoDir, `refs/tags/${since.tag}`);
      because = `the tag ${since.tag} (${options.labels.since})`;
      if (!sha2)
        throw new ConfigError(`${options.labels.since}: expected a tag of the repository at ${repoDir}, got ${JSON.stringify(since.tag)}`);
    } else {
      sha2 = await resolveCommit(repoDir, since.commit);
      because = `the commit ${since.commit} (${options.labels.since})`;
      if (!sha2)
        throw new ConfigError(
          `${options.labels.since}: expected a commit of the repository at ${repoDir}, got ${JSON.stringify(since.commit)}`
        );
    }
    base = { good: sha2, from: "since", because };
  }
  if (!await isAncestor(repoDir, base.good, head)) {
    throw new ConfigError(
      `${base.from === "given" ? options.labels.given : base.from === "state" ? "the watch's state" : options.labels.since}: ${base.good.slice(0, 12)} is not an ancestor of main's head ${head.slice(0, 12)}: the watch measures main against an earlier main (was main's history rewritten? delete the state file, or name the good commit)`
    );
  }
  return base;
}
async function runWatch(options) {
  const { base, head, watch } = options;
  const state = options.state ?? startWatchState(base.good, base.because, options.now());
  if (base.good === head) {
    options.logger.info(`main's head ${head.slice(0, 12)} is the good commit: nothing has merged since, nothing to measure`);
    return { base, head, card: null, judgement: null, change: null, state, bisection: null };
  }
  const card = await options.runRound({ base: base.good, head, label: "the drift round" });
  const judgement = judgeDrift(readScenarioEstimates(card), watch.maxDrift);
  const change = judgement.alarm || judgement.failed ? null : findSeriesChange(appendSeries(state, { good: base.good, head, judgement, now: options.now() }), watch.changePoint);
  if (change) {
    options.logger.info(
      `change point: ${change.scenario ?? "the round"} ${((1 - change.score) * 100).toFixed(1)}% slower between ${change.before.slice(0, 12)} and ${change.after.slice(0, 12)} (p ${change.pValue.toFixed(3)})`
    );
  }
  let bisection = null;
  if (change && options.bisect) {
    bisection = await runLocalBisection({
      repoDir: options.repoDir,
      good: change.before,
      bad: change.after,
      scenario: change.scenario,
      maxRepeats: watch.maxRepeats,
      explainShare: watch.explainShare,
      runRound: options.runRound,
      logger: options.logger,
      ...options.signal ? { signal: options.signal } : {}
    });
  }
  if (judgement.alarm && options.bisect) {
    bisection = await runLocalBisection({
      repoDir: options.repoDir,
      good: base.good,
      bad: head,
      scenario: judgement.drifted[0]?.name ?? null,
      rangeCard: card,
      maxRepeats: watch.maxRepeats,
      explainShare: watch.explainShare,
      runRound: options.runRound,
      logger: options.logger,
      ...options.signal ? { signal: options.signal } : {}
    });
  }
  const outcome = bisection?.plan.outcome ? describeOutcomeShort(bisection) : null;
  const next = advanceWatchState(state, { good: base.good, head, judgement, outcome, change, now: options.now() });
  return { base, head, card, judgement, change, state: next, bisection };
}
function describeOutcomeShort(bisection) {
  const outcome = bisection.plan.outcome;
  const sha2 = (index) => bisection.commits[index]?.sha.slice(0, 12) ?? "?";
  switch (outcome?.kind) {
    case "single":
      return `single merge ${sha2(outcome.firstBad)} (${Math.round(outcome.share.value * 100)}% of the drift)`;
    case "gradual":
      return `gradual drift over ${sha2(outcome.from)}..${sha2(outcome.to)}`;
    case "range":
      return `range ${sha2(outcome.from)}..${sha2(outcome.to)} (${sha2(outcome.unresolved)} unresolved)`;
    case "no-drift":
      return "no drift to bisect";
    default:
      return "unfinished";
  }
}

// src/round/write-watch-report.ts
import { mkdir } from "node:fs/promises";
import { join } from "node:path";

// src/history/render-bisection.ts
function describeChange(score) {
  const percent = Math.abs(1 - score) * 100;
  if (percent < 0.05) return "no change";
  return `${percent.toFixed(1)}% ${score < 1 ? "slower" : "faster"}`;
}
function describeInterval2(interval) {
  if (!interval) return "no interval";
  if (interval.high < 1) return `[${((1 - interval.high) * 100).toFixed(1)}%, ${((1 - interval.low) * 100).toFixed(1)}%] slower`;
  return `[${interval.low.toFixed(3)}\xD7, ${interval.high.toFixed(3)}\xD7]`;
}
function describeEstimate(estimate) {
  const { interval } = estimate;
  const change = describeChange(estimate.score);
  if (interval && interval.high < 1)
    return `${change} [${((1 - interval.high) * 100).toFixed(1)}%, ${((1 - interval.low) * 100).toFixed(1)}%]`;
  return `${change} ${describeInterval2(interval)}`;
}
function shortSha(sha2) {
  return sha2.slice(0, 12);
}
function commitRef(report, index) {
  const commit = report.commits[index];
  if (!commit) return "?";
  const code = `\`${shortSha(commit.sha)}\``;
  const linked = report.commitUrl ? `[${code}](${report.commitUrl(commit.sha)})` : code;
  const pull = commit.pullRequest ? ` (#${commit.pullRequest.number})` : "";
  const subject = commit.subject ? ` ${escapeInline(commit.subject.slice(0, 80))}` : "";
  return `${linked}${pull}${subject}`;
}
function mergeName(report, index) {
  const commit = report.commits[index];
  const pull = commit?.pullRequest ? `#${commit.pullRequest.number} ` : "";
  return `${pull}\`${shortSha(commit?.sha ?? "")}\` (merge ${index} of ${report.commits.length - 1} in the range)`;
}
function estimateCells(pooled) {
  if (!pooled) return ["\u2014", "\u2014"];
  const interval = pooled.interval ? `${pooled.interval.low.toFixed(3)}\xD7 \u2013 ${pooled.interval.high.toFixed(3)}\xD7` : "\u2014";
  return [`${pooled.score.toFixed(3)}\xD7 (${describeChange(pooled.score)})`, interval];
}
var VERDICT_WORDS = {
  good: "at the good level",
  bad: "at the bad level",
  explains: "explains the drift",
  partial: "explains part of it",
  unclear: "straddles the bar",
  failed: "scored nothing"
};
function stepName(step) {
  return step.purpose === "probe" ? `probe ${step.index}` : `parent of ${step.index}`;
}
function describeOutcome(report, outcome) {
  const label = scenarioLabel(report.scenario);
  const barText = `the bar ${report.plan.bar.toFixed(3)}\xD7 (halfway between 1\xD7 and the drift)`;
  switch (outcome.kind) {
    case "single": {
      const parent = report.plan.steps.find((step) => step.purpose === "parent" && step.index === outcome.firstBad);
      const pooled = parent?.pooled ?? null;
      const measured = pooled ? `${label} ${describeEstimate(pooled)} against its parent` : "";
      return [
        `**Found: ${mergeName(report, outcome.firstBad)}.** ${measured}${measured ? ", " : ""}${Math.round(outcome.share.value * 100)}% of the drift (between ${Math.round(outcome.share.low * 100)}% and ${Math.round(outcome.share.high * 100)}%).`
      ];
    }
    case "gradual":
      return [
        `**Gradual drift: no single merge explains it.** ${label} got ${describeChange(report.drift.score)} over the ${report.commits.length - 1} merges from ${commitRef(report, outcome.from)} to ${commitRef(report, outcome.to)}, ` + (outcome.evidence === "first-bad-explains-little" ? `and the first merge past ${barText}, ${mergeName(report, outcome.at)}, explains less than half of it against its own parent.` : `and ${mergeName(report, outcome.at)} sits part-way: slower than the good commit and faster than the bad one beyond their intervals, so the speed fell both before and after it.`)
      ];
    case "range":
      return [
        `**Narrowed to a range, not to one merge:** the first bad commit is after ${commitRef(report, outcome.from)} and at or before ${commitRef(report, outcome.to)}. ` + (outcome.why === "straddles" ? `${mergeName(report, outcome.unresolved)} still straddles ${barText} after its repeats, and speedgate does not guess.` : outcome.why === "failed" ? `The rounds of ${mergeName(report, outcome.unresolved)} scored nothing (see their cards).` : `${mergeName(report, outcome.unresolved)} is the first bad commit, but whether it explains most of the drift stays unclear after its repeats.`)
      ];
    case "no-drift":
      return [`**No drift to bisect:** the bad commit against the good one shows ${label} ${describeChange(report.drift.score)}.`];
  }
}
function renderBisection(report) {
  const { plan } = report;
  const label = scenarioLabel(report.scenario);
  const n = report.commits.length - 1;
  const lines = [
    `## speedgate: ${escapeInline(label)} ${describeChange(report.drift.score)} on main`,
    "",
    `${report.trigger}: ${commitRef(report, n)} against ${commitRef(report, 0)}, ${n} merge${n === 1 ? "" : "s"} apart, measured ${label} ${describeEstimate(report.drift)}${report.maxDrift != null ? ` (the watch's bar: ${report.maxDrift.toFixed(2)}\xD7)` : ""}.`,
    ""
  ];
  if (plan.outcome) lines.push(...describeOutcome(report, plan.outcome));
  else {
    const pending = report.pending ?? plan.next.map((step) => step.key);
    lines.push(
      `**Bisecting:** the first bad commit is after ${commitRef(report, plan.lo)} and at or before ${commitRef(report, plan.hi)}; ${pending.length > 0 ? `running ${pending.join(", ")}` : "waiting for the next step"}.`
    );
  }
  if ((report.uncertain ?? []).length > 0) {
    lines.push(
      "",
      `\u26A0\uFE0F speedgate cannot tell whether ${(report.uncertain ?? []).join(", ")} was dispatched (the app stopped while sending it). It is not sent again; if no run of the watch workflow for it appears, dispatch the workflow by hand with the inputs listed below.`
    );
  }
  const rows = plan.steps.map((step) => {
    const run = report.runs?.get(`${step.purpose}-${step.index}-${step.attempts}`) ?? report.runs?.get(`${step.purpose}-${step.index}-1`);
    const [score, interval] = estimateCells(step.pooled);
    const head = report.commits.findIndex((commit) => commit.sha === step.head);
    const base = report.commits.findIndex((commit) => commit.sha === step.base);
    return [
      run?.url ? `[${stepName(step)}](${run.url})` : stepName(step),
      head >= 0 ? commitRef(report, head) : `\`${shortSha(step.head)}\``,
      base === 0 ? "the good commit" : base >= 0 ? `its parent \`${shortSha(step.base)}\`` : `\`${shortSha(step.base)}\``,
      score,
      interval,
      `${VERDICT_WORDS[step.verdict]}${step.attempts > 1 ? ` (${step.attempts} rounds pooled)` : ""}`,
      run?.runner ? escapeInline(run.runner) : "\u2014"
    ];
  });
  lines.push(
    "",
    `### Steps (${label}; a probe scores a merge against the good commit, the parent round the first bad merge against its parent)`,
    ""
  );
  if (rows.length === 0) lines.push("No step has landed yet.");
  else lines.push(markdownTable([["Step", "Commit", "Against", "Score", "Interval (95%)", "Verdict", "Runner"], ...rows]));
  lines.push(
    "",
    `How to read this: docs/watching-main.md. A step's bar is ${plan.bar.toFixed(3)}\xD7; a step whose interval straddles it is run again (its rounds pooled) and never guessed.`
  );
  return `${lines.join("\n")}
`;
}

// src/round/write-watch-report.ts
async function writeBisectionReport(dir, bisection, trigger, maxDrift) {
  await mkdir(dir, { recursive: true });
  for (const [key, card] of bisection.cards) await writeScorecard(join(dir, "steps", key), card);
  const markdown = renderBisection({
    scenario: bisection.scenario,
    commits: bisection.commits.map((commit) => ({ sha: commit.sha, subject: commit.subject })),
    drift: bisection.setup.drift,
    plan: bisection.plan,
    trigger,
    maxDrift
  });
  const json = {
    good: bisection.commits[0]?.sha ?? null,
    bad: bisection.commits.at(-1)?.sha ?? null,
    scenario: bisection.scenario,
    commits: bisection.commits,
    drift: bisection.setup.drift,
    bar: bisection.plan.bar,
    outcome: bisection.plan.outcome,
    steps: bisection.plan.steps,
    rounds: bisection.records.map((record) => {
      const key = stepKey(record.purpose, record.index, record.attempt);
      return { key, ...record, card: join("steps", key, "scorecard.json") };
    })
  };
  const markdownPath = join(dir, "bisection.md");
  const jsonPath = join(dir, "bisection.json");
  await writeAtomically(markdownPath, markdown);
  await writeAtomically(jsonPath, `${JSON.stringify(json, null, 2)}
`);
  return { markdownPath, jsonPath, markdown };
}
async function writeWatchReport(outDir, run, maxDrift) {
  await mkdir(outDir, { recursive: true });
  const cardPaths = run.card ? await writeScorecard(outDir, run.card) : null;
  const bisection = run.bisection ? await writeBisectionReport(
    join(outDir, "bisection"),
    run.bisection,
    run.change ? "A change point in the watch's series" : "The drift round",
    run.change ? null : maxDrift
  ) : null;
  const watchPath = join(outDir, "watch.json");
  const report = {
    good: run.base.good,
    goodFrom: run.base.from,
    goodBecause: run.base.because,
    head: run.head,
    maxDrift,
    alarm: run.judgement?.alarm ?? false,
    failed: run.judgement?.failed ?? false,
    scenarios: run.judgement?.scenarios ?? [],
    change: run.change,
    bisection: run.bisection?.plan.outcome ?? null,
    state: run.state
  };
  await writeAtomically(watchPath, `${JSON.stringify(report, null, 2)}
`);
  return { watchPath, cardPaths, bisection };
}

// src/cli/parse-command-args.ts
import { parseArgs } from "node:util";
function parseCommandArgs(command, args, options, allowPositionals = false) {
  try {
    return parseArgs({ args, options, allowPositionals, strict: true });
  } catch (error) {
    throw new UsageError(`speedgate ${command}: ${error.message}`);
  }
}

// src/cli/commands/watch-command.ts
import { access, mkdir as mkdir2, readFile as readFile2 } from "node:fs/promises";
import { dirname, join as join2, resolve as resolve3 } from "node:path";

// src/cli/describe-watch-run.ts
var VERDICTS = {
  drifted: "DRIFTED beyond the bar",
  within: "within the bar",
  unclear: "straddles the bar",
  none: "scored nothing"
};
function describeWatchRun(run, maxDrift) {
  const lines = [`good commit: ${run.base.good.slice(0, 12)} (${run.base.because})`, `main's head: ${run.head.slice(0, 12)}`];
  if (!run.judgement) {
    lines.push("nothing merged since the good commit: no round was run");
  } else {
    lines.push(`drift round, bar ${maxDrift.toFixed(2)}\xD7 (watch.maxDrift):`);
    for (const entry of run.judgement.scenarios) {
      const measured = entry.estimate ? describeEstimate(entry.estimate) : "no score (see the card's failure)";
      lines.push(`  ${scenarioLabel(entry.name)}: ${measured}: ${VERDICTS[entry.verdict]}`);
    }
    if (run.change) {
      lines.push(
        `CHANGE POINT: ${scenarioLabel(run.change.scenario)} ${describeChange(run.change.score)} between ${run.change.before.slice(0, 12)} and ${run.change.after.slice(0, 12)} in the watch's series (p ${run.change.pValue.toFixed(3)})`
      );
    }
    lines.push(
      run.judgement.alarm ? `ALARM: main drifted (${run.judgement.drifted.map((entry) => scenarioLabel(entry.name)).join(", ")})` : run.judgement.failed ? "no verdict: the drift round scored nothing" : "no alarm"
    );
  }
  lines.push(`good commit from now on: ${run.state.good.slice(0, 12)} (${run.state.goodBecause})`);
  return `${lines.join("\n")}
`;
}

// src/scorecard/render/render-text.ts
function pad(text, width) {
  return text.length >= width ? text : text + " ".repeat(width - text.length);
}
function columns(rows) {
  const widths = [];
  for (const row of rows) row.forEach((cell, index) => widths[index] = Math.max(widths[index] ?? 0, cell.length));
  return rows.map(
    (row) => row.map((cell, index) => pad(cell, widths[index] ?? 0)).join("  ").trimEnd()
  );
}
function failureLines(card, maxLogLines) {
  const failure = card.failure;
  if (!failure) return [];
  const oom = explainCudaOom(card);
  const runnerAtFault = decideVerdict(card).cause === "runner";
  const scenarioNote = failure.scenario ? `, scenario ${failure.scenario}` : "";
  const out = [
    "",
    describeFailureCause(failure),
    ...oom ? [`${oom.lead} ${oom.text}`] : [],
    ...columns([
      ["  engine", failure.engine],
      ["  stage", `${failure.stage}${failure.run ? `, run ${failure.run} of ${roundRuns(card)}` : ""}${scenarioNote}`],
      ["  kind", `${failure.kind} (${failure.label})`],
      ["  exit", failure.exitCode !== null ? String(failure.exitCode) : failure.signal ?? "\u2014"],
      ["  error", failure.summary],
      ...failure.frames && failure.frames.length > 0 ? [["  frames", failure.frames.join(" \u2190 ")]] : [],
      [runnerAtFault ? "  if it fails on a free GPU" : "  what to try", failure.hint]
    ])
  ];
  if (failure.logTail.length > 0) {
    const shown = failure.logTail.slice(-maxLogLines);
    out.push(
      "",
      `Log tail (last ${shown.length} of ${failure.logTail.length} lines):`,
      ...shown.map((line) => `  | ${cleanLogLine(line)}`)
    );
  }
  return out;
}
function summaryRows(card, indent = "") {
  const score = describeScore(card);
  if (!score) return [];
  const gate = describeGate(card);
  const speed = describeSpeedLead(card);
  const next = describeNextStep(card);
  const inconclusive = describeInconclusive(card);
  const regressed = describeRegressedPrompts(card);
  const answers = describeUnexplainedDecision(card);
  const rows = [
    ["Round score", `${score.score} ${score.rest}`],
    ["Prompts", describePromptCounts(card)],
    ...speed === "" ? [] : [["Speed", speed]],
    ...regressed ? [["Slower prompts", regressed]] : [],
    ...describeQualityRows(card).map((row) => [row.label, row.text]),
    ...answers ? [["Answers", answers]] : [],
    ["Gate", gate.text],
    ...next ? [["What now", next]] : [],
    ...inconclusive ? [
      ["For the author", inconclusive.author],
      ["For maintainers", inconclusive.maintainers]
    ] : []
  ];
  return rows.map(([label, text]) => [`${indent}${label ?? ""}`, text ?? ""]);
}
function settingsLine(card) {
  const s = card.settings;
  const load = s.concurrency ? `concurrency ${s.concurrency}` : `request interval ${s.requestIntervalMs} ms${s.arrival === "poisson" ? " (Poisson)" : ""}`;
  const runs = s.budget ? `${s.budget.min} to ${s.budget.max} (a budget)` : String(s.runs);
  return `Settings: ${load}, runs ${runs}, thinking ${s.thinking ? "on" : "off"}, context limit ${s.contextLimit}, max tokens ${s.maxTokens}, tolerance ${formatPercent(s.tolerance)}`;
}
function timeSpentLines(card) {
  if (!card.timeSpent) return [];
  const { rows, sentence } = describeTimeSpent(card.timeSpent);
  const four = describeFixedFour(card, card.timeSpent);
  return [
    "",
    "Where the time went:",
    ...columns(rows.map(([label, ...rest]) => [`  ${label ?? ""}`, ...rest])),
    `  ${sentence}`,
    ...four ? [`  ${four}`] : []
  ];
}
function provenanceLines(card) {
  const out = [];
  for (const role of ["baseline", "candidate"]) {
    const snapshot = card.gpuState?.[role];
    if (snapshot === void 0) continue;
    const reading = readGpuSnapshot(snapshot);
    const state = reading.readable ? `${describeMemoryInUse(reading)}; ${reading.processes.length === 0 ? "no process listed" : describeHolders(reading.processes)}` : `not read (${snapshot?.error ?? "the engine did not start"})`;
    out.push(`GPU before the ${role} started: ${state}`);
  }
  const p = card.provenance;
  out.push(...renderCommitsText(card));
  out.push(
    `Engine ${card.engine}; image digest ${p.imageDigest ?? "\u2014"}; patch hash ${p.patchHash ?? "\u2014"}; runner ${p.runner ?? "\u2014"}; GPU ${p.gpu ?? "\u2014"}`
  );
  return out;
}
function renderScenariosText(card, scenarios, maxLogLines) {
  const out = [scenarios.headline, ""];
  const failure = failureLines(card, maxLogLines);
  if (scenarios.leadsWithFailure) out.push(...failure.slice(1), "");
  out.push(
    ...columns([
      ["scenario", "role", "load", "prompts", "score", "interval", "verdict"],
      ...scenarios.rows.map((row) => [row.name, row.role, row.load, row.prompts, row.score, row.interval, `${row.mark} ${row.verdict}`])
    ])
  );
  for (const reason of scenarios.roundReasons) out.push("", `Not passed: ${reason}.`);
  for (const row of scenarios.rows) {
    const queueBound = describeQueueBound(row.card);
    if (queueBound) out.push("", `${row.name}: ${queueBound}`);
  }
  if (card.unchanged) out.push("", `No change was scored: ${card.unchanged}.`);
  if (!scenarios.leadsWithFailure) out.push(...failure);
  for (const row of scenarios.rows) {
    out.push("", `Scenario ${row.name}: ${describeScenarioScore(row.card)} ${row.mark}`);
    const rows = summaryRows(row.card, "  ");
    out.push(...rows.length > 0 ? columns(rows) : [`  No score: ${row.card.gate.reason}`]);
    if (!row.judgement.passed && row.card.gate.passed && row.judgement.reason)
      out.push(`  Not passed in this round: ${row.judgement.reason.slice(row.name.length + 2)}`);
    out.push(`  ${settingsLine(row.card)}`);
  }
  out.push("", "How the round was measured:", `  Gate: ${describeGate(card).text}`);
  const counting = countingSentence(card);
  if (counting) out.push(`  ${counting}`);
  out.push(...timeSpentLines(card), "", ...provenanceLines(card));
  return `${delinkPlainText(out.join("\n"))}
`;
}
function renderText(card, options = {}) {
  const maxRows = options.maxPromptRows ?? 50;
  const maxLogLines = options.maxLogLines ?? 60;
  const scenarios = describeScenarios(card);
  if (scenarios) return renderScenariosText(card, scenarios, maxLogLines);
  const out = [];
  out.push(describeVerdict(card, { firstReasonOnly: true }).headline, "");
  const score = describeScore(card);
  out.push(...columns(summaryRows(card)));
  const queueBound = describeQueueBound(card);
  if (queueBound) out.push("", queueBound);
  if (card.unchanged) out.push("", `No change was scored: ${card.unchanged}.`);
  const failure = failureLines(card, maxLogLines);
  if (score) out.push(...failure);
  else out.push(...failure.slice(1));
  out.push("", "How the score was measured:");
  const intervalWords = describeInterval(card);
  out.push(
    ...columns([
      [
        "  Round score",
        card.roundScore === null ? "\u2014" : `${formatScoreAgainstBar(card.roundScore, card.gate.bar)} (${describeIntervalBriefly(card)})`
      ],
      ...intervalWords ? [["  Interval", intervalWords]] : [],
      ["  Runs", describeRuns2(card)],
      ["  Noise", describeNoise(card)],
      ["  Prompts scored", `${card.promptsScored} / ${card.promptsTotal}`],
      ["  Below tolerance", `${card.belowTolerance} (answered too little to score)`],
      ...integrityRows(card).map(([label, text]) => [`  ${label ?? ""}`, text ?? ""]),
      ["  Zeroed", `${card.zeroedTotal} (the candidate failed on them, so each counts as 0)`],
      ["  Unscored", describeUnscored(card)],
      ...card.excluded > 0 ? [["  Excluded", `${card.excluded} (baseline failed on them or answered nothing)`]] : [],
      // A scored card's gate is in its first rows already; one with no score says it only here.
      ...score ? [] : [["  Gate", describeGate(card).text]]
    ])
  );
  out.push(`  ${settingsLine(card)}`);
  if (card.tokenCountsEstimated) out.push("  Token counts are estimates: the server did not report them per chunk.");
  const counting = countingSentence(card);
  if (counting) out.push(`  ${counting}`);
  const metrics = card.metrics;
  if (metrics) {
    const row = (label, metric) => [
      `  ${label}`,
      `${formatMs(metrics.baseline[metric].median)} / ${formatMs(metrics.baseline[metric].p90)} / ${formatMs(metrics.baseline[metric].p99)}`,
      `${formatMs(metrics.candidate[metric].median)} / ${formatMs(metrics.candidate[metric].p90)} / ${formatMs(metrics.candidate[metric].p99)}`,
      `${formatRatio(metrics.ratio[metric].median)} / ${formatRatio(metrics.ratio[metric].p90)} / ${formatRatio(metrics.ratio[metric].p99)}`
    ];
    out.push(
      "",
      `Where the speed came from (${metrics.prompts} scored prompts, at equal length): first token (queueing included) ${describeTimeChange(metrics.ratio.ttftMs.median)}, decode ${describeTimeChange(metrics.ratio.tpotMs.median)} per token`,
      ...columns([
        ["  ms", "baseline p50/p90/p99", "candidate p50/p90/p99", "candidate \xF7 baseline"],
        row("TTFT", "ttftMs"),
        row("TPOT", "tpotMs"),
        row("ITL", "itlMs"),
        row("E2E at k", "e2eMs"),
        [
          "  output tok/s",
          formatRate(metrics.baseline.outputTokensPerS),
          formatRate(metrics.candidate.outputTokensPerS),
          formatRatio(metrics.ratio.outputTokensPerS)
        ],
        [
          "  requests/s",
          formatRate(metrics.baseline.requestsPerS),
          formatRate(metrics.candidate.requestsPerS),
          formatRatio(metrics.ratio.requestsPerS)
        ]
      ])
    );
    const own = renderEngineTimes(card).replace(/\*\*|`/g, "");
    if (own) out.push(own);
  }
  const changed = describeChangedQuestions(card);
  if (changed) out.push("", `${changed.summary}:`, ...changed.lines.map((line) => `  ${line}`));
  const same = findSameOutcome(card);
  if (same) {
    out.push("", `All ${card.prompts.length} prompts: ${same.status}, ${same.score}${same.reason ? `: ${same.reason}` : ""}`);
  } else if (card.prompts.length > 0) {
    const shown = card.prompts.slice(0, maxRows);
    const manyRuns = card.runs.completed > 1;
    const perRun = (prompt) => manyRuns ? [formatRunScores(prompt, "/")] : [];
    out.push(
      "",
      ...columns([
        [
          "prompt",
          "status",
          "score",
          ...manyRuns ? ["runs"] : [],
          manyRuns ? "tokens b/c (run 1)" : "tokens b/c",
          "e2e ms b/c",
          "reason"
        ],
        ...shown.map((prompt) => [
          prompt.id,
          prompt.status,
          prompt.score === null ? "\u2014" : formatTimes(prompt.score),
          ...perRun(prompt),
          `${prompt.baseline?.outputTokens ?? "\u2014"}/${prompt.candidate?.outputTokens ?? "\u2014"}`,
          `${formatMs(prompt.baseline?.e2eMs ?? null)}/${formatMs(prompt.candidate?.e2eMs ?? null)}`,
          promptReason(prompt, card)
        ])
      ])
    );
    if (card.prompts.length > shown.length) out.push(`\u2026 ${card.prompts.length - shown.length} more prompts in scorecard.json`);
  }
  out.push(...timeSpentLines(card), "", ...provenanceLines(card));
  return `${delinkPlainText(out.join("\n"))}
`;
}

// src/cli/render-round-plan.ts
import { isAbsolute, relative } from "node:path";
function showCommand(command, config) {
  const host = config.runtime === "process" || config.docker.network === "host" ? PROCESS_ENGINE_HOST : "0.0.0.0";
  return command.map(
    (argument) => argument.replaceAll("{port}", String(config.port)).replaceAll("{contextLimit}", String(config.bench.contextLimit)).replaceAll("{model}", config.bench.model).replaceAll("{host}", host).replaceAll("{node}", "node").replaceAll("{speedgate}", "speedgate")
  ).map((argument) => argument === "" || /[\s"'\\$`]/.test(argument) ? JSON.stringify(argument) : argument).join(" ");
}
function showBuild(build) {
  const args = Object.keys(build.args);
  return `built from ${build.context} (${build.dockerfile}${args.length > 0 ? `, build args ${args.join(", ")}` : ""})`;
}
function showEnv(env) {
  const names = Object.keys(env ?? {});
  return names.length === 0 ? "none from the config" : names.join(", ");
}
function engineLines(role, check) {
  const { config, configPath, patch } = check.round;
  const lines = [];
  const launch = resolveRoundEngines(config, configPath, { commits: check.round.commits != null })[role];
  const { command, cwd } = launch;
  if (check.round.commits) {
    if (config.runtime === "docker") {
      lines.push(
        role === "baseline" ? `the engine image ${config.baseline.image ?? "(baseline.build)"} with its source (${config.candidate.sourceDir ?? "?"}) brought to the base` : `the baseline with the pull request applied in ${config.candidate.sourceDir ?? "?"}`
      );
      lines.push(`runs: ${command ? showCommand(command, config) : "the image's own CMD"}`, `in: ${cwd ?? "the image's WORKDIR"}`);
    } else {
      lines.push(
        `runs: ${command ? showCommand(command, config) : "?"}`,
        `in: ${cwd ?? "the root"} of its worktree of the ${role === "baseline" ? "base" : "head"}`
      );
    }
    lines.push(`environment: ${showEnv(launch.env)}`);
    return lines;
  }
  if (config.runtime === "docker") {
    if (role === "baseline") {
      lines.push(config.baseline.build ? showBuild(config.baseline.build) : `image ${config.baseline.image ?? "?"}`);
    } else if (config.candidate.build) {
      lines.push(showBuild(config.candidate.build));
    } else {
      const postPatch = config.candidate.postPatch.length;
      const steps = `${postPatch > 0 ? `, then ${postPatch} postPatch command${postPatch === 1 ? "" : "s"}` : ""}`;
      const where = config.candidate.sourceDir ?? "the image's WORKDIR";
      lines.push(
        patch || config.candidate.patch ? `the baseline image with the patch applied in ${where} (an overlay build${steps})` : config.candidate.sourceDir ? `the baseline image with the patch applied in ${where} (an overlay build${steps}); the patch comes from --patch or the action's patch input, and without one the candidate is the baseline unpatched` : "the baseline image, unpatched (no candidate.patch, candidate.sourceDir or candidate.build)"
      );
    }
    const entrypoint = config.docker.entrypoint;
    const through = entrypoint === void 0 ? " (after the image's ENTRYPOINT, if it has one)" : entrypoint.length === 0 ? " (the image's ENTRYPOINT cleared)" : ` (after the ENTRYPOINT ${showCommand(entrypoint, config)})`;
    lines.push(`runs: ${command ? `${showCommand(command, config)}${through}` : "the image's own CMD"}`);
    lines.push(`in: ${cwd ?? "the image's WORKDIR"}`);
  } else {
    const patched = role === "candidate" && config.candidate.sourceDir && (patch || config.candidate.patch);
    if (patched) lines.push(`a copy of ${config.candidate.sourceDir} with the patch applied`);
    lines.push(`runs: ${command ? showCommand(command, config) : "?"}`);
    const marker = "<copy>";
    const folder = processEngineCwd(role, config, configPath, patched ? marker : null);
    const offset = folder.slice(marker.length + 1);
    const shown = !folder.startsWith(marker) ? folder : offset === "" ? `the root of its patched copy of ${config.candidate.sourceDir ?? "?"}` : `${offset}/ in its patched copy of ${config.candidate.sourceDir ?? "?"}`;
    lines.push(`in: ${shown}`);
  }
  lines.push(`environment: ${showEnv(launch.env)}`);
  return lines;
}
function containerLines(config) {
  const { docker } = config;
  const gpus = docker.gpus === void 0 ? "none (docker.gpus is not set)" : Array.isArray(docker.gpus) ? `devices ${docker.gpus.join(", ")}` : String(docker.gpus);
  const shm = docker.ipc === "host" ? "the host's /dev/shm (ipc: host)" : docker.shmSize ?? "16g, or half the memory limit if smaller (docker.shmSize is not set)";
  const lines = [
    `GPUs: ${gpus}; shared memory: ${shm}; IPC: ${docker.ipc ?? "the daemon's default (private)"}`,
    `network: ${docker.network === "isolated" ? "isolated (a per-run internal network, no internet)" : "host"}`
  ];
  if (docker.mounts.length === 0) lines.push("mounts: none");
  for (const mount of docker.mounts) lines.push(`mount: ${mount.source} -> ${mount.target} (${mount.readOnly ? "read-only" : "writable"})`);
  return lines;
}
function runnerPrerequisites(check) {
  const { config } = check.round;
  const needs = [];
  if (config.runtime === "docker") {
    needs.push("a Docker daemon the runner's user can reach");
    if (config.docker.gpus !== void 0)
      needs.push(
        `GPUs for containers (the NVIDIA Container Toolkit): docker.gpus: ${Array.isArray(config.docker.gpus) ? config.docker.gpus.join(", ") : config.docker.gpus}`
      );
    if (config.baseline.image && !config.baseline.build) needs.push(`the image ${config.baseline.image}, or access to pull it`);
  }
  for (const entry of check.paths.filter((path) => path.onRunner)) needs.push(describeRunnerPath(entry));
  return needs;
}
function describeRunnerPath(entry) {
  const state = entry.problem === null ? "present on this machine" : `not on this machine (${entry.problem === "does not exist" ? "checked when the round runs" : entry.problem})`;
  return `${entry.path} (${entry.field}, ${entry.purpose}): ${state}`;
}
function notes(check) {
  const { config, prompts } = check.round;
  const found = [];
  if (config.runtime === "docker" && config.docker.gpus === void 0) {
    found.push(
      engineFamily(config.engine) === "llama.cpp" ? "docker.gpus is not set: llama.cpp runs on the CPU (set docker.gpus and build it with CUDA to use GPUs)" : "docker.gpus is not set: the engines start without a GPU (set it to all, a count or device ids)"
    );
  }
  found.push(...describeRoundTwoRuns(check.round));
  config.docker.mounts.forEach((mount, index) => {
    if (!mount.readOnly)
      found.push(`docker.mounts[${index}] is writable: the candidate can change what the next round's engines read there`);
  });
  if (config.runtime === "process" && config.candidate.sourceDir && !config.candidate.cwd && config.baseline.cwd) {
    const offset = relative(config.candidate.sourceDir, config.baseline.cwd);
    if (offset.startsWith("..") || isAbsolute(offset)) {
      found.push(
        "baseline.cwd is outside candidate.sourceDir: the candidate runs at the root of its patched copy; set candidate.cwd if it should run elsewhere in it"
      );
    }
  }
  const promptsPath = check.paths.find((entry) => entry.field === "bench.prompts");
  if (promptsPath?.problem) found.push(`the prompts (${promptsPath.path}) are on the runner only: not validated here`);
  else if (prompts.length === 0 && sendsBenchPrompts(config))
    found.push(
      typeof config.bench.prompts === "string" ? "the prompts file has no prompts" : "the synthetic prompts wait for bench.tokenizer, which is on the runner only"
    );
  return found;
}
function describePlanPrompts(bench, count, onRunnerOnly) {
  if (typeof bench.prompts === "object") {
    const { synthetic } = bench.prompts;
    return `${synthetic.count} synthetic, each ${synthetic.inputTokens} tokens asking for exactly ${synthetic.outputTokens} (seed ${synthetic.seed}), ${describeLoad(bench)}, ${bench.warmupRequests} warm-up`;
  }
  if (onRunnerOnly) return `${bench.prompts} (on the runner)`;
  return `${count} from ${bench.prompts}, up to ${bench.maxTokens} tokens each, ${describeLoad(bench)}, ${bench.warmupRequests} warm-up`;
}
function sharedPromptsLines(check) {
  const scenarios = (check.round.scenarios ?? []).map((scenario) => ({
    name: scenario.name,
    promptsHash: scenario.prompts.length > 0 ? scenario.fingerprint.promptsHash : null
  }));
  const note = describeSharedPrompts(findSharedPrompts(scenarios));
  return note ? [`note: ${note}`] : [];
}
function describePlanRule(use) {
  switch (use) {
    case "interval-low":
      return "the 95% interval's low end";
    case "sequential":
      return "the sequential test after each pair of runs (its lower bound)";
    default:
      return "the round score";
  }
}
function scenarioLines(check) {
  return (check.round.scenarios ?? []).map((scenario, index) => {
    const { bench, gate } = scenario.config;
    const onRunnerOnly = check.paths.some((entry) => entry.field === `scenarios[${index}].prompts` && entry.problem !== null);
    const runs = `${describeRuns(bench.runs)} run${bench.runs === 1 ? "" : "s"}`;
    return `${scenario.name}: ${describePlanPrompts(bench, scenario.prompts.length, onRunnerOnly)}; ${runs}; gate at least ${gate.minRoundScore}\xD7`;
  });
}
function qualityLines(check) {
  const { quality, gate } = check.round.config;
  if (!quality) return [];
  const loaded = check.round.quality;
  const scorer = typeof quality.scorer === "object" ? `regex ${quality.scorer.regex}` : quality.scorer;
  const count = loaded ? `${loaded.questions.length} questions from ${quality.questions}` : `${quality.questions} (on the runner)`;
  const maxDrop = Math.round((gate.quality?.maxDrop ?? DEFAULT_MAX_QUALITY_DROP) * 1e3) / 10;
  return [
    `quality: ${count}, scorer ${scorer}, up to ${quality.maxTokens} tokens, ${quality.concurrency} in flight, asked of both engines after the bench in every start; a significant drop of ${maxDrop} points or more fails`,
    gate.answers === "quality" ? "gate.answers: quality: an answer no baseline answer gives is timed at equal length, and the question set judges it" : "gate.answers: speed (the default): an answer no baseline answer gives is held to the agreement rules"
  ];
}
function renderRoundPlan(check, commitsPlan = []) {
  const { config, configPath, prompts, patch } = check.round;
  const { bench, gate, health } = config;
  const promptsPath = check.paths.find((entry) => entry.field === "bench.prompts");
  const section = (title, lines) => [title, ...lines.map((line) => `  ${line}`)].join("\n");
  const out = [
    `speedgate run --check: ${configPath} is valid; nothing was started.`,
    section("Round", [
      `engine ${config.engine}, runtime ${config.runtime}, port ${config.port}`,
      sendsBenchPrompts(config) ? `prompts: ${describePlanPrompts(bench, prompts.length, promptsPath?.problem != null)}` : `prompts: each scenario sends its own${bench.prompts === void 0 ? "" : " (bench.prompts is not read)"}`,
      check.round.commits ? "candidate: the head commit (no patch)" : patch ? `patch: ${patch.path} (${patch.bytes.length} bytes, sha256 ${patch.sha256.slice(0, 16)}\u2026)` : config.candidate.patch ? `patch: ${config.candidate.patch} (on the runner)` : "patch: none here (--patch or the action's patch input supplies it, or --base and --head score a pull request's commits)",
      `runs: ${describeRuns(bench.runs)} of each engine, ${bench.order}`,
      `gate: ${describePlanRule(gate.use)} at least ${gate.minRoundScore}\xD7; a prompt scores only with at least ${Math.round(bench.tolerance * 1e3) / 10}% of the baseline's tokens`,
      ...gate.maxRegression !== void 0 ? [`gate.maxRegression: no scenario's interval may lie wholly below ${gate.maxRegression}\xD7`] : [],
      ...qualityLines(check),
      `health: GET ${health.path} every ${health.intervalMs} ms until 200, for up to ${health.timeoutS} s`
    ]),
    ...check.round.scenarios ? [
      section(`Scenarios (each engine start serves all ${check.round.scenarios.length}, in this order)`, [
        ...scenarioLines(check),
        ...sharedPromptsLines(check)
      ])
    ] : [],
    ...commitsPlan.length > 0 ? [section("Commits (the pull request's base against its head)", [...commitsPlan])] : [],
    section("Baseline", engineLines("baseline", check)),
    section("Candidate", engineLines("candidate", check)),
    ...config.runtime === "docker" ? [section("Containers", containerLines(config))] : []
  ];
  const needs = runnerPrerequisites(check);
  out.push(section("The runner must have", needs.length > 0 ? needs : ["nothing beyond this machine's files (all checked)"]));
  const found = notes(check);
  if (found.length > 0) out.push(section("Notes", found));
  return `${out.join("\n\n")}
`;
}

// src/cli/describe-commits-plan.ts
var import_dockerode = __toESM(require_docker(), 1);
var short = (sha2) => sha2.slice(0, 12);
function listed(change) {
  if (change.files.length === 0) return "no file";
  const names = change.files.slice(0, 5).map((file) => file.path).join(", ");
  const more = change.files.length > 5 ? `, \u2026 ${change.files.length - 5} more` : "";
  const left = change.leftOut.length > 0 ? `; ${change.leftOut.length} changed file${change.leftOut.length === 1 ? "" : "s"} outside source.paths left out` : "";
  return `${change.files.length} file${change.files.length === 1 ? "" : "s"} (${names}${more})${left}`;
}
function describeSource(source) {
  if ("label" in source) return `label ${source.label}`;
  if ("file" in source) return `file ${source.file}${source.pattern ? ` (pattern ${source.pattern})` : ""}`;
  return "source.revision.commit";
}
async function readRevisionForCheck(round) {
  const { config } = round;
  const source = config.source.revision;
  if ("commit" in source) return { written: source.commit, why: "source.revision.commit" };
  if (!("label" in source)) return { written: null, why: `read from ${describeSource(source)} in the image when the round runs` };
  if (!config.baseline.image) return { written: null, why: `read from the ${source.label} label of the built image when the round runs` };
  try {
    const info = await new import_dockerode.default().getImage(config.baseline.image).inspect();
    const value = info.Config.Labels?.[source.label];
    return value ? { written: value.trim(), why: `label ${source.label}` } : {
      written: null,
      why: `the image on this machine has no label ${source.label}${source.label === DEFAULT_REVISION_LABEL ? " (set source.revision to where its commit is written)" : ""}: the round would end with image_base_mismatch`
    };
  } catch {
    return {
      written: null,
      why: `read from label ${source.label} when the round runs (the image is not on this machine, or no Docker daemon answers)`
    };
  }
}
async function describeCommitsPlan(round) {
  const commits = round.commits;
  if (!commits) return [];
  const { config } = round;
  const lines = [
    `base ${short(commits.base)} (${commits.baseRef}), head ${short(commits.head)} (${commits.headRef}), in the repository ${commits.repoDir}`,
    commits.mergeBase === commits.base ? "the head is up to date with the base: the candidate is the head" : `the head branched off at ${short(commits.mergeBase)}: the candidate is the base with the pull request's changes since then applied`
  ];
  const head = await planCommitChange(commits.repoDir, commits.mergeBase, commits.head, config.source);
  if (config.runtime === "process") {
    const builds2 = decideBuilds(null, head);
    lines.push(
      `each engine runs in a git worktree of its commit, in ${config.baseline.cwd ?? "the repository's root"}${config.candidate.cwd ? ` (candidate: ${config.candidate.cwd})` : ""}; both are removed after the round`,
      `the pull request changes ${listed(head)}`,
      `build (source.build): ${builds2.candidate.run ? `runs in both worktrees: ${builds2.candidate.reason}` : `none: ${builds2.candidate.reason}`}`
    );
    return lines;
  }
  const revision = await readRevisionForCheck(round);
  const image = config.baseline.image ?? "the image baseline.build makes";
  if (!revision.written) {
    const builds2 = decideBuilds(null, head);
    const build = builds2.candidate.run ? `runs in both engines: ${builds2.candidate.reason}` : `${builds2.candidate.reason}; the baseline builds too if compiled code changed between the image's commit and the base`;
    lines.push(
      `engine image ${image}, its source in ${config.candidate.sourceDir ?? "?"}; its commit: ${revision.why}`,
      `candidate overlay: ${listed(head)}`,
      `build (source.build): ${build}`
    );
    return lines;
  }
  const imageCommit = await resolveCommit(commits.repoDir, revision.written.toLowerCase());
  if (!imageCommit) {
    lines.push(
      `engine image ${image} at ${revision.written} (${revision.why}): that commit is not in the repository, so the round would end with image_base_mismatch (fetch it, or the full history)`
    );
    return lines;
  }
  lines.push(`engine image ${image} at ${short(imageCommit)} (${revision.why}), its source in ${config.candidate.sourceDir ?? "?"}`);
  if (!await isAncestor(commits.repoDir, imageCommit, commits.base)) {
    lines.push(`the image's commit is not an ancestor of the base: the round would end with image_base_mismatch before any engine starts`);
    return lines;
  }
  const base = await planCommitChange(commits.repoDir, imageCommit, commits.base, config.source);
  const builds = decideBuilds(base, head);
  lines.push(
    `baseline overlay (image's commit to the base): ${listed(base)}${config.source.cacheBaseline ? "; the result is cached for every pull request on this base" : ""}`,
    `candidate overlay (the pull request): ${listed(head)}`,
    `build (source.build): baseline ${builds.baseline.run ? "runs" : "none"} (${builds.baseline.reason}); candidate ${builds.candidate.run ? "runs" : "none"} (${builds.candidate.reason})`
  );
  return lines;
}

// src/cli/read-round-mode.ts
import { resolve as resolve2 } from "node:path";
function readRoundMode(command, values, usage) {
  if (values.base === void 0) {
    if (values.head !== void 0 || values.repo !== void 0) {
      throw new UsageError(
        `speedgate ${command}: ${values.head !== void 0 ? "--head" : "--repo"} needs --base (the commit the candidate is scored against)
usage: ${usage}`
      );
    }
    return values.patch ? { patchPath: values.patch } : {};
  }
  if (values.patch !== void 0) {
    throw new UsageError(
      `speedgate ${command}: --patch and --base score two different ways (a fixed baseline with a patch, or a pull request's base against its head): give one
usage: ${usage}`
    );
  }
  return {
    commits: { base: values.base, head: values.head ?? "HEAD", ...values.repo !== void 0 ? { repoDir: resolve2(values.repo) } : {} }
  };
}

// src/cli/commands/run-command.ts
function renderCard(card, format) {
  if (format === "md") return renderMarkdown(card);
  return renderText(card);
}
var EXIT_IMAGE_BASE_MISMATCH = 3;
function checkFormat(command, format) {
  if (format !== "md" && format !== "text")
    throw new UsageError(`speedgate ${command}: --format: expected md or text, got ${JSON.stringify(format)}`);
}
async function runAndReport(round, options, context) {
  const progress = createProgressRenderer(process.stderr);
  let card;
  try {
    card = await runRound({
      round,
      logger: context.logger,
      signal: context.signal,
      ...options.runId ? { runId: options.runId } : {},
      onProgress: progress.onProgress
    });
  } catch (error) {
    progress.finish();
    if (error instanceof RoundCancelledError) {
      context.logger.error(error.message);
      return 130;
    }
    throw error;
  }
  progress.finish();
  const { jsonPath, markdownPath } = await writeScorecard(options.outDir, card);
  context.stdout.write(renderCard(card, options.format));
  context.logger.info(`wrote ${jsonPath} and ${markdownPath}`);
  if (card.failure?.kind === "image_base_mismatch") return EXIT_IMAGE_BASE_MISMATCH;
  return options.failOnGate && !describeVerdict(card).passed ? 1 : 0;
}
var runCommand = {
  name: "run",
  summary: "run a round (a pull request's base against its head, or a fixed baseline against a patch) and write the score card",
  usage: "speedgate run --config <round.yml> (--out <dir> | --check) [--base <rev> [--head <rev>] [--repo <dir>] | --patch <file>] [--fail-on-gate] [--format text|md] [--run-id ID]",
  details: `Options:
  --config <file>    the round config (YAML); paths in it resolve against its folder
  --out <dir>        where scorecard.json and scorecard.md are written (the card is also printed)
  --check            a dry run: validate the config, the prompts and the patch (or the commits), print
                     the plan and what the GPU runner must have, and start nothing (no --out needed)
  --base <rev>       score a pull request against its own base: the baseline is the engine brought to
                     this commit, the candidate the base plus the pull request (docs/scoring-pull-requests.md)
  --head <rev>       the pull request's head (default HEAD)
  --repo <dir>       the engine's git repository holding both commits (default: the one around the
                     current folder)
  --patch <file>     a fixed baseline and a patch (competitions): the candidate's patch, a unified diff;
                     replaces candidate.patch. Not with --base
  --fail-on-gate     exit 1 when the gate does not pass
  --format text|md   how the card is printed on stdout (default text)
  --run-id ID        the id the run's Docker containers, networks and images are labelled with
                     (default: a new one); \`speedgate cleanup --run-id ID\` removes them

Exit codes:
  0    a card was written, whatever its verdict (with --check: the round is valid)
  1    --fail-on-gate and the gate does not pass, or speedgate itself failed
  2    a bad config, prompts file, patch or usage: nothing was started, nothing written
  3    the engine image cannot be brought to the base commit (image_base_mismatch): a card was
       written, and no engine was started
  130  cancelled by SIGINT or SIGTERM: the engines were stopped first`,
  async run(args, context) {
    const { values } = parseCommandArgs("run", args, {
      config: { type: "string" },
      out: { type: "string" },
      patch: { type: "string" },
      "fail-on-gate": { type: "boolean", default: false },
      format: { type: "string", default: "text" },
      "run-id": { type: "string" },
      check: { type: "boolean", default: false },
      base: { type: "string" },
      head: { type: "string" },
      repo: { type: "string" }
    });
    if (!values.config) throw new UsageError(`speedgate run: --config is required
usage: ${this.usage}`);
    const loadOptions = readRoundMode("run", values, this.usage);
    if (values.check) {
      const check = await checkRound(values.config, loadOptions);
      context.stdout.write(renderRoundPlan(check, await describeCommitsPlan(check.round)));
      return 0;
    }
    if (!values.out) throw new UsageError(`speedgate run: --out is required
usage: ${this.usage}`);
    checkFormat("run", values.format);
    const round = await loadRound(values.config, loadOptions);
    return await runAndReport(
      round,
      {
        outDir: values.out,
        format: values.format,
        failOnGate: values["fail-on-gate"],
        ...values["run-id"] ? { runId: values["run-id"] } : {}
      },
      context
    );
  }
};

// src/cli/commands/watch-command.ts
var DEFAULT_STATE_PATH = join2(".speedgate", "watch-state.json");
async function readStateFile(path) {
  try {
    await access(path);
  } catch {
    return null;
  }
  try {
    return parseWatchState(await readFile2(path, "utf8"), path);
  } catch (error) {
    throw new ConfigError(`--state: ${error.message}`);
  }
}
async function repositoryRoot(repo) {
  const from = resolve3(repo ?? process.cwd());
  const root = await findRepositoryRoot(from);
  if (!root) throw new ConfigError(`--repo: expected a clone of the engine's repository, but ${from} is not in a git repository`);
  return root;
}
var watchCommand = {
  name: "watch",
  summary: "score main's head against the last commit the watch found good, and bisect a drift beyond watch.maxDrift",
  usage: "speedgate watch --config <round.yml> --out <dir> [--repo <dir>] [--head <rev>] [--good <rev>] [--state <file>] [--bisect] [--fail-on-drift]",
  details: `Options:
  --config <file>    the round config; its watch: section sets the bar, where the watch starts and the repeats
  --out <dir>        where the drift round's card, watch.json and (with --bisect) bisection/ are written
  --repo <dir>       the engine's clone (default: the one around the current folder)
  --head <rev>       main's head (default HEAD)
  --good <rev>       the commit to measure against this once (default: the state file's, else watch.since)
  --state <file>     the watch's state: its good commit, kept between runs (default: .speedgate/watch-state.json
                     in the repository); written after each run
  --bisect           when the drift round raises an alarm, bisect main's first-parent range here, one round
                     after another (docs/watching-main.md)
  --fail-on-drift    exit 1 when a scenario drifted beyond the bar

Exit codes:
  0    the watch ran (an alarm too, without --fail-on-drift), or main has not moved
  1    --fail-on-drift and main drifted, or speedgate itself failed
  2    a bad config, state file, commit or usage: nothing was run
  3    the engine image cannot be brought to the good commit (image_base_mismatch)
  130  cancelled by SIGINT or SIGTERM`,
  async run(args, context) {
    const { values } = parseCommandArgs("watch", args, {
      config: { type: "string" },
      out: { type: "string" },
      repo: { type: "string" },
      head: { type: "string" },
      good: { type: "string" },
      state: { type: "string" },
      bisect: { type: "boolean", default: false },
      "fail-on-drift": { type: "boolean", default: false }
    });
    if (!values.config) throw new UsageError(`speedgate watch: --config is required
usage: ${this.usage}`);
    if (!values.out) throw new UsageError(`speedgate watch: --out is required
usage: ${this.usage}`);
    const watch = await readWatchSettings(values.config);
    const repoDir = await repositoryRoot(values.repo);
    const head = await resolveCommit(repoDir, values.head ?? "HEAD");
    if (!head)
      throw new ConfigError(`--head: expected a commit of the repository at ${repoDir}, got ${JSON.stringify(values.head ?? "HEAD")}`);
    const statePath = resolve3(repoDir, values.state ?? DEFAULT_STATE_PATH);
    const state = await readStateFile(statePath);
    const base = await resolveWatchBase({
      repoDir,
      head,
      given: values.good ?? null,
      state,
      since: watch.since,
      labels: { given: "--good", since: "watch.since" }
    });
    context.logger.info(`watch: main's head ${head.slice(0, 12)} against ${base.good.slice(0, 12)}, ${base.because}`);
    const progress = createProgressRenderer(process.stderr);
    let run;
    try {
      run = await runWatch({
        repoDir,
        head,
        base,
        state,
        watch,
        bisect: values.bisect,
        runRound: localCommitRounds({
          configPath: values.config,
          repoDir,
          logger: context.logger,
          signal: context.signal,
          onProgress: (_label, event) => progress.onProgress(event)
        }),
        logger: context.logger,
        signal: context.signal,
        now: () => /* @__PURE__ */ new Date()
      });
    } catch (error) {
      progress.finish();
      if (error instanceof RoundCancelledError) {
        context.logger.error(error.message);
        return 130;
      }
      throw error;
    }
    progress.finish();
    const written = await writeWatchReport(values.out, run, watch.maxDrift);
    await mkdir2(dirname(statePath), { recursive: true });
    await writeAtomically(statePath, `${JSON.stringify(run.state, null, 2)}
`);
    context.stdout.write(describeWatchRun(run, watch.maxDrift));
    if (written.bisection) context.stdout.write(`
${written.bisection.markdown}`);
    context.logger.info(
      `wrote ${written.watchPath}${written.cardPaths ? ` and ${written.cardPaths.jsonPath}` : ""}; state in ${statePath}`
    );
    if (run.card?.failure?.kind === "image_base_mismatch") return EXIT_IMAGE_BASE_MISMATCH;
    return values["fail-on-drift"] && run.judgement?.alarm ? 1 : 0;
  }
};

// src/cli/commands/bisect-command.ts
var bisectCommand = {
  name: "bisect",
  summary: "find the merge that made main slower between a good and a bad commit, one base/head round at a time",
  usage: "speedgate bisect --config <round.yml> --good <rev> --bad <rev> --out <dir> [--repo <dir>] [--scenario <name>]",
  details: `Options:
  --config <file>    the round config (its watch: section sets the repeats and the share a merge must explain)
  --good <rev>       a commit of main at the good speed
  --bad <rev>        a later commit of main, slower
  --out <dir>        where bisection.md, bisection.json, range/ (the bad commit's card against the good one)
                     and steps/<step>/ (each step's card) are written
  --repo <dir>       the engine's clone (default: the one around the current folder)
  --scenario <name>  the scenario to follow (default: the one the range round shows slowest)

It first scores the bad commit against the good one (the range round), then each step: a commit of main's
first-parent history between them against the good commit, halving the range; a step whose interval
straddles its bar is run again (watch.maxRepeats), then reported as a range, never guessed. The first bad
commit is then scored against its own parent: a single merge when it explains watch.explainShare of the
drift, else a gradual drift (docs/watching-main.md).

Exit codes:
  0    the bisection ended (found, gradual, a range, or no drift to bisect: bisection.md says which)
  1    speedgate itself failed, or the range round scored nothing
  2    a bad config, commit or usage, or a good commit not on the bad one's first-parent history
  130  cancelled by SIGINT or SIGTERM`,
  async run(args, context) {
    const { values } = parseCommandArgs("bisect", args, {
      config: { type: "string" },
      good: { type: "string" },
      bad: { type: "string" },
      out: { type: "string" },
      repo: { type: "string" },
      scenario: { type: "string" }
    });
    for (const required of ["config", "good", "bad", "out"]) {
      if (!values[required]) throw new UsageError(`speedgate bisect: --${required} is required
usage: ${this.usage}`);
    }
    const configPath = values.config ?? "";
    const outDir = values.out ?? "";
    const watch = await readWatchSettings(configPath);
    const repoDir = await repositoryRoot(values.repo);
    const resolved = { good: "", bad: "" };
    for (const which of ["good", "bad"]) {
      const sha2 = await resolveCommit(repoDir, values[which] ?? "");
      if (!sha2)
        throw new ConfigError(`--${which}: expected a commit of the repository at ${repoDir}, got ${JSON.stringify(values[which])}`);
      resolved[which] = sha2;
    }
    const progress = createProgressRenderer(process.stderr);
    let bisection;
    try {
      bisection = await runLocalBisection({
        repoDir,
        good: resolved.good,
        bad: resolved.bad,
        scenario: values.scenario ?? null,
        maxRepeats: watch.maxRepeats,
        explainShare: watch.explainShare,
        runRound: localCommitRounds({
          configPath,
          repoDir,
          logger: context.logger,
          signal: context.signal,
          onProgress: (_label, event) => progress.onProgress(event)
        }),
        logger: context.logger,
        signal: context.signal,
        onRound: async (key, card) => {
          if (key === "range") await writeScorecard(join3(outDir, "range"), card);
        }
      });
    } catch (error) {
      progress.finish();
      if (error instanceof RoundCancelledError) {
        context.logger.error(error.message);
        return 130;
      }
      if (error instanceof NotFirstParentError) throw new ConfigError(`--good: ${error.message}`);
      if (error instanceof RangeRoundFailedError) {
        context.logger.error(`speedgate bisect: ${error.message}; its card is in ${join3(outDir, "range")}`);
        return 1;
      }
      throw error;
    }
    progress.finish();
    const written = await writeBisectionReport(outDir, bisection, "speedgate bisect", null);
    context.stdout.write(written.markdown);
    context.logger.info(`wrote ${written.markdownPath} and ${written.jsonPath}`);
    return 0;
  }
};

// src/cli/commands/calibrate-command.ts
import { randomUUID } from "node:crypto";
import { mkdir as mkdir3 } from "node:fs/promises";
import { basename, dirname as dirname3, join as join4, relative as relative2, resolve as resolve4 } from "node:path";

// src/round/run-calibration.ts
import { dirname as dirname2 } from "node:path";
var CalibrationRoundError = class extends Error {
  constructor(message, card) {
    super(message);
    this.card = card;
    this.name = "CalibrationRoundError";
  }
  card;
};
function aaRound(round) {
  const { cwd } = resolveRoundEngines(round.config, round.configPath, { commits: round.commits != null }).baseline;
  const aaConfig = (config) => {
    const { calibration: _calibration, ...gate } = config.gate;
    const baseline = cwd === null ? config.baseline : { ...config.baseline, cwd };
    const bench = { ...config.bench, runs: calibrationRunsOf(config.bench.runs) };
    return {
      ...config,
      baseline,
      candidate: { postPatch: [], trusted: config.candidate.trusted },
      bench,
      gate: { ...gate, use: "round-score" }
    };
  };
  return {
    ...round,
    config: aaConfig(round.config),
    ...round.scenarios ? { scenarios: round.scenarios.map((scenario) => ({ ...scenario, config: aaConfig(scenario.config) })) } : {},
    patch: null,
    calibration: null,
    // Scoring commits (calibrate --base): the base in both seats, each engine from a worktree of it as run --base starts them.
    ...round.commits ? { commits: { ...round.commits, head: round.commits.base, headRef: round.commits.baseRef, mergeBase: round.commits.base } } : {}
  };
}
function agreed(cards, pick, what) {
  const values = [...new Set(cards.map(pick))];
  if (values.length > 1)
    throw new Error(`the A/A rounds of one calibration ran on different ${what}s (${values.join(", ")}); calibrate again on one runner`);
  return values[0] ?? null;
}
function studyOf(cards) {
  return {
    rounds: cards.map((card) => ({
      roundScore: card.roundScore,
      runScores: card.runs.scores,
      promptsCompared: card.promptsTotal - card.excluded,
      unscored: card.unscored,
      // The baseline against itself: what its own batch nondeterminism cuts short or parts, which a round's agreement rules allow.
      disagreed: card.belowTolerance + card.diverged,
      medianAgreement: card.medianAgreement ?? null,
      // How often the same engine gives an answer none of its other seat's answers explains: the unexplained rule's own rate.
      ...card.unexplainedAnswers ? { unexplainedAnswers: { count: card.unexplainedAnswers.count, compared: card.unexplainedAnswers.compared } } : {}
    })),
    noise: computeNoiseFloor(cards.map((card) => card.roundScore))
  };
}
function findUnscored(card) {
  if (card.failure) {
    const failedIn = card.scenarios?.find(({ name }) => name === card.failure?.scenario);
    return { card: failedIn?.card ?? card, scenario: failedIn?.name ?? null };
  }
  const unscored = (card.scenarios ?? [{ name: null, card }]).find(({ card: one }) => one.roundScore === null || one.roundScore <= 0);
  return unscored ? { card: unscored.card, scenario: unscored.name } : null;
}
async function runCalibration(options) {
  const { round } = options;
  const aa = aaRound(round);
  const cards = [];
  for (let index = 0; index < options.rounds; index++) {
    const card = await runRound({
      round: aa,
      logger: options.logger,
      signal: options.signal,
      runId: `${options.runId}-aa${index + 1}`,
      ...options.runtimeFor ? { runtime: options.runtimeFor(aa) } : {},
      onProgress: (event) => options.onProgress?.(index, event)
    });
    const unscored = findUnscored(card);
    if (unscored) {
      const where = unscored.scenario === null ? "" : ` in scenario ${unscored.scenario}`;
      throw new CalibrationRoundError(
        `A/A round ${index + 1} of ${options.rounds} has no score${where}, so the runner's noise cannot be measured: ${describeVerdict(unscored.card).headline}`,
        card
      );
    }
    cards.push(card);
    options.onRoundDone?.(index, card);
  }
  const { config } = round;
  const configDir = dirname2(round.configPath);
  const scenarios = (round.scenarios ?? []).map((scenario, index) => ({
    name: scenario.name,
    promptsHash: scenario.fingerprint.promptsHash,
    settings: calibrationSettingsOf(scenario.config, scenario.prompts.length),
    ...studyOf(cards.map((card) => card.scenarios?.[index]?.card ?? missingScenarioCard(scenario.name)))
  }));
  const headline = scenarios[0] ?? {
    promptsHash: (round.fingerprint ?? fingerprintRound(config, configDir, round.prompts)).promptsHash,
    settings: calibrationSettingsOf(config, round.prompts.length),
    ...studyOf(cards)
  };
  return {
    kind: CALIBRATION_KIND,
    schemaVersion: CALIBRATION_SCHEMA_VERSION,
    speedgateVersion: SPEEDGATE_VERSION,
    measuredAt: (options.now ?? /* @__PURE__ */ new Date()).toISOString(),
    engine: config.engine,
    runtime: config.runtime,
    runner: agreed(cards, (card) => card.provenance.runner, "runner"),
    gpu: agreed(cards, (card) => card.provenance.gpu, "GPU"),
    baselineImage: config.baseline.image ?? null,
    // A pulled tag must not move during the study; a locally built baseline may get a new ID per build.
    baselineImageId: config.baseline.image ? agreed(cards, (card) => card.provenance.baselineImageId, "baseline image") : cards[0]?.provenance.baselineImageId ?? null,
    baselineHash: hashBaseline(config, configDir),
    promptsHash: headline.promptsHash,
    settings: headline.settings,
    rounds: headline.rounds,
    noise: headline.noise,
    ...scenarios.length > 0 ? { scenarios } : {}
  };
}
function missingScenarioCard(name) {
  throw new Error(`an A/A round's card lacks scenario ${name}, which every round with that config serves`);
}

// src/cli/commands/calibrate-command.ts
var DEFAULT_CALIBRATION_ROUNDS = 20;
var DEFAULT_CALIBRATION_FILE = "speedgate-calibration.json";
function worstUnscoredShare(rounds) {
  return Math.max(...rounds.map((round) => round.promptsCompared > 0 ? round.unscored / round.promptsCompared : 0));
}
function describeUnrepeatable(share, maxUnscored, where) {
  return `  warning: the unchanged engine left up to ${formatPercent(share)} of the prompts${where} unscored in one round, more than gate.maxUnscored ${formatPercent(maxUnscored)}: its answers are not repeatable, so patches will fail the gate; check bench.tolerance and the engine's determinism`;
}
function describeBias(scores, where) {
  if (scores.length < 5) return null;
  const below = scores.every((score) => score < 1);
  if (!below && !scores.every((score) => score > 1)) return null;
  return `  warning: all ${scores.length} A/A rounds${where} scored ${below ? "below" : "above"} 1.00\xD7 (${formatTimes(Math.min(...scores))}\u2013${formatTimes(Math.max(...scores))}): the baseline against itself should land on both sides; one seat was favoured (a runner busy with other work, an engine sharing its cores or cache), so this floor measures that, not the runner's noise: calibrate again on a dedicated, idle runner`;
}
var TOO_NOISY_FLOOR = 0.25;
function describeTooNoisy(noise, where) {
  if (noise.floor < TOO_NOISY_FLOOR) return null;
  const smallest = (1 + noise.floor) * (1 + noise.detectableSpeedup);
  return `  warning: the noise floor${where} is +${formatPercent(noise.floor)}: a patch must be about ${formatTimes(smallest)} as fast to pass 95% of the time on this runner, and an unchanged or slightly faster engine gets inconclusive cards; score on a dedicated, idle runner (docs/score-your-engine.md, step 4)`;
}
function describeCalibration(file, maxUnscored, queueBound = null, scenarioMaxUnscored = /* @__PURE__ */ new Map()) {
  const scores = file.rounds.map((round) => round.roundScore);
  const headline = file.scenarios?.[0];
  const lines = [
    `A/A study of ${file.engine} on ${file.runner ?? "this machine"}${file.gpu ? ` (${file.gpu})` : ""}, ${file.rounds.length} rounds of ${file.settings.prompts} prompts, bench.runs ${file.settings.runs}${headline ? `, scenario ${headline.name} (the headline; every scenario's floor is below)` : ""}:`,
    `  round scores of the baseline against itself: ${scores.map((score) => formatTimes(score)).join(", ")}`,
    `  spread: ${formatTimes(Math.min(...scores))}\u2013${formatTimes(Math.max(...scores))}, ${formatPercent(file.noise.sdLog)} standard deviation (log scale)`,
    `  noise floor: +${formatPercent(file.noise.floor)}: an unchanged engine stays below it in 97.5% of rounds, so a round must score at least gate.minRoundScore \xD7 ${(1 + file.noise.floor).toFixed(4)} to pass`,
    `  a speedup of ${formatPercent(file.noise.detectableSpeedup)} over the bar passes 95% of the time on this runner`
  ];
  lines.push(...describeBudgetReach(file));
  const self = selfAgreementOf(file.rounds);
  if (self) {
    const median = self.lowestMedianAgreement === null ? "not compared by text" : `lowest median agreement ${formatPercent(self.lowestMedianAgreement)}`;
    lines.push(
      `  the baseline against itself: ${median}; at most ${formatPercent(self.mostDisagreed)} of the prompts cut short or parted in one round (rounds gating on this file allow the same)`
    );
    if (self.unexplained && self.unexplained.compared > 0) {
      lines.push(
        `  answers none of the other seat's explained: ${self.unexplained.count} of ${self.unexplained.compared} (${formatPercent(self.unexplained.count / self.unexplained.compared)}); rounds gating on this file allow the engine's own rate of odd answers up to its upper bound`
      );
    }
  }
  if (file.scenarios) {
    lines.push(`  each scenario, gated on its own floor (${file.scenarios.length}):`);
    for (const scenario of file.scenarios) {
      lines.push(
        `    ${scenario.name}: noise floor +${formatPercent(scenario.noise.floor)}, a speedup of ${formatPercent(scenario.noise.detectableSpeedup)} over the bar passes 95% of the time (${scenario.settings.prompts} prompts, bench.runs ${scenario.settings.runs})`
      );
    }
  }
  const studies = file.scenarios?.map((scenario) => ({
    where: ` of scenario ${scenario.name}`,
    share: worstUnscoredShare(scenario.rounds),
    limit: scenarioMaxUnscored.get(scenario.name) ?? maxUnscored
  })) ?? [{ where: "", share: worstUnscoredShare(file.rounds), limit: maxUnscored }];
  for (const { where, share, limit } of studies) if (share > limit) lines.push(describeUnrepeatable(share, limit, where));
  const noises = file.scenarios?.map((scenario) => ({ where: ` of scenario ${scenario.name}`, study: scenario })) ?? [
    { where: "", study: file }
  ];
  for (const { where, study } of noises) {
    const warnings = [
      describeBias(
        study.rounds.map((round) => round.roundScore),
        where
      ),
      describeTooNoisy(study.noise, where)
    ];
    for (const warning of warnings) if (warning) lines.push(warning);
  }
  if (queueBound) {
    const which = queueBound.first.scenario === null ? "" : ` in scenario ${queueBound.first.scenario}`;
    lines.push(
      `  warning: ${queueBound.rounds} of ${file.rounds.length} A/A rounds were queue-bound${which} (in the first, ${queueBound.first.why}): this floor measures how the baseline's queue drains, not its speed; ${queueBound.first.fix}`
    );
  }
  return `${lines.join("\n")}
`;
}
var QUOTED_BUDGETS = [4, 8, 16];
function describeBudgetReach(file) {
  const spread = calibratedSpread(
    file.rounds.map((round) => round.roundScore),
    file.settings.runs
  );
  const reach = (calibrated) => QUOTED_BUDGETS.map(
    (max) => `${formatTimes(detectableWithin({ min: 2, max }, file.settings.order, spread.sdLogRun, calibrated))} in ${max} runs`
  ).join(", ");
  const per = file.settings.runs === 1 ? "the A/A round scores' own spread" : `the A/A round scores' spread \xD7 \u221A${file.settings.runs} runs`;
  return [
    `  run-to-run spread: one run's score spreads ${formatPercent(spread.sdLogRun)} (standard deviation, log scale: ${per})`,
    `  smallest speedup over the bar a run budget (bench.runs { min: 2, max }) passes 95% of the time here: gating on this file ${reach({ degrees: spread.degrees })}; without a calibration ${reach(null)}`
  ];
}
function describeAaScore(card) {
  if (!card.scenarios) return formatTimes(card.roundScore);
  return card.scenarios.map(({ name, card: one }) => `${name} ${formatTimes(one.roundScore)}`).join(", ");
}
var calibrateCommand = {
  name: "calibrate",
  summary: "measure this runner's noise: the baseline scored against itself N rounds (an A/A study)",
  usage: "speedgate calibrate --config <round.yml> [--base <rev> [--head <rev>] [--repo <dir>]] [--runs N] [--out <file>] [--run-id ID]",
  details: `Options:
  --config <file>  the round config the rounds will run (its settings, prompts and bench.runs)
  --base <rev>     for a config run with --base (a pull request's own commits): the baseline is the
                   engine at this commit, in both seats, its folders resolved as run --base resolves
                   them; the calibration fits run --base with any base
  --head <rev>     accepted as run takes it (default HEAD); the A/A study never runs the head
  --repo <dir>     the engine's git repository (default: the one around the current folder)
  --runs N         A/A rounds to run (default ${DEFAULT_CALIBRATION_ROUNDS}, at least ${MIN_CALIBRATION_ROUNDS})
  --out <file>     where to write the calibration (default ${DEFAULT_CALIBRATION_FILE} next to the config)
  --run-id ID      the id the run's Docker resources are labelled with (default: a new one)

Exit codes:
  0    the calibration was written
  1    an A/A round failed (nothing is written), or speedgate itself failed
  2    a bad config or usage
  130  cancelled by SIGINT or SIGTERM`,
  async run(args, context) {
    const { values } = parseCommandArgs("calibrate", args, {
      config: { type: "string" },
      runs: { type: "string", default: String(DEFAULT_CALIBRATION_ROUNDS) },
      out: { type: "string" },
      "run-id": { type: "string" },
      base: { type: "string" },
      head: { type: "string" },
      repo: { type: "string" }
    });
    if (!values.config) throw new UsageError(`speedgate calibrate: --config is required
usage: ${this.usage}`);
    const mode = readRoundMode("calibrate", values, this.usage);
    const rounds = Number(values.runs);
    if (!Number.isInteger(rounds) || rounds < MIN_CALIBRATION_ROUNDS || rounds > 1e3) {
      throw new UsageError(
        `speedgate calibrate: --runs: expected a whole number of A/A rounds from ${MIN_CALIBRATION_ROUNDS} to 1000, got ${JSON.stringify(values.runs)}`
      );
    }
    const round = await loadRound(values.config, { ...mode, skipCalibration: true });
    const out = resolve4(values.out ?? join4(dirname3(round.configPath), DEFAULT_CALIBRATION_FILE));
    const progress = createProgressRenderer(process.stderr);
    const workloads = round.scenarios ? `${round.scenarios.length} scenarios (${round.scenarios.map((scenario) => scenario.name).join(", ")})` : `${round.prompts.length} prompts`;
    context.logger.info(
      `speedgate calibrate: ${rounds} A/A rounds of ${workloads} (bench.runs ${describeRuns(round.config.bench.runs)}, each A/A round ${calibrationRunsOf(round.config.bench.runs)} runs), the baseline against itself`
    );
    let file;
    const queueBound = [];
    try {
      file = await runCalibration({
        round,
        rounds,
        logger: context.logger,
        signal: context.signal,
        runId: values["run-id"] ?? `calibrate-${randomUUID().slice(0, 8)}`,
        onProgress: (_index, event) => progress.onProgress(event),
        onRoundDone: (index, card) => {
          progress.finish();
          const queued = (card.scenarios ?? [{ name: null, card }]).flatMap(({ name, card: one }) => {
            const bound = detectQueueBound(one);
            return bound ? [{ ...bound, scenario: name }] : [];
          });
          if (queued[0]) queueBound.push(queued[0]);
          const named2 = queued.map((bound) => bound.scenario).filter((name) => name !== null);
          const flag = queued.length === 0 ? "" : named2.length > 0 ? ` (queue-bound: ${named2.join(", ")})` : " (queue-bound)";
          context.logger.info(`A/A round ${index + 1} of ${rounds}: ${describeAaScore(card)}${flag}`);
        }
      });
    } catch (error) {
      progress.finish();
      if (error instanceof RoundCancelledError) {
        context.logger.error(error.message);
        return 130;
      }
      if (error instanceof CalibrationRoundError) {
        context.logger.error(`${error.message}; no calibration was written`);
        return 1;
      }
      throw error;
    }
    progress.finish();
    await mkdir3(dirname3(out), { recursive: true });
    await writeAtomically(out, `${JSON.stringify(file, null, 2)}
`);
    const first = queueBound[0];
    const scenarioMaxUnscored = new Map(round.scenarios?.map((scenario) => [scenario.name, scenario.config.gate.maxUnscored]));
    context.stdout.write(
      describeCalibration(file, round.config.gate.maxUnscored, first ? { rounds: queueBound.length, first } : null, scenarioMaxUnscored)
    );
    const named = relative2(dirname3(round.configPath), out) || basename(out);
    context.logger.info(`wrote ${out}; gate on it with gate.calibration: ${named} in ${round.configPath}`);
    return 0;
  }
};

// src/cli/commands/cleanup-command.ts
var import_dockerode2 = __toESM(require_docker(), 1);
import { resolve as resolve5 } from "node:path";

// src/docker/sweep-baseline-images.ts
var DEFAULT_BASELINE_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1e3;
async function sweepBaselineImages(docker, options, logger) {
  const now = options.now ?? Date.now();
  const images = await docker.listImages({ filters: { label: [`${LABEL_ROLE}=baseline`, LABEL_BASELINE_BASE] } });
  const sweep = { removed: [], inUse: [], kept: 0 };
  for (const info of images) {
    const created = Date.parse(info.Labels?.[LABEL_CREATED] ?? "") || info.Created * 1e3;
    if (now - created <= options.maxAgeMs) {
      sweep.kept += 1;
      continue;
    }
    const name = info.RepoTags?.find((tag) => tag !== "<none>:<none>") ?? info.Id.slice(0, 19);
    try {
      for (const tag of info.RepoTags ?? []) if (tag !== "<none>:<none>") await docker.getImage(tag).remove({ noprune: false });
      await docker.getImage(info.Id).remove().catch((error) => {
        if (dockerStatusCode(error) !== 404) throw error;
      });
      sweep.removed.push(name);
    } catch (error) {
      if (dockerStatusCode(error) !== 409) throw error;
      logger.debug(`docker: kept ${name}: ${error.message}`);
      sweep.inUse.push(name);
    }
  }
  return sweep;
}

// src/cli/commands/cleanup-command.ts
var USAGE = "speedgate cleanup [--repo DIR] | (--run-id ID | --stale | --baselines) [--older-than-hours H] [--keep-images]";
var DETAILS = `Without a mode: in the git repository around DIR (--repo, default the current folder), remove what
base/head rounds with runtime: process left there when their process was killed (a cancelled or
timed-out job): their worktrees, temporary folders and engine processes. A round still running is
left alone, and every new round in the repository does the same first. Needs no Docker.

Options:
  --repo DIR    the repository whose killed rounds to clean up (default: the current folder)
  --run-id ID   remove the containers, networks and candidate images of one run
  --stale       remove those of every run whose speedgate process is gone: on this host, its pid
                (with the process's start time, so a reused pid does not count) no longer runs;
                made on another host or without a pid, older than --older-than-hours (default ${DEFAULT_STALE_AFTER_MS / 36e5})
  --baselines   remove the baseline images cached per base commit (base/head mode) built more than
                --older-than-hours ago (default ${DEFAULT_BASELINE_MAX_AGE_MS / 36e5}, a week); one still in use is kept
  --keep-images keep the candidate images too
Otherwise baseline images are kept: runs share them and they are slow to rebuild. The build cache
volumes (speedgate-build-cache-<engine>) are never removed: docker volume rm clears one.

Exit codes: 0 removed (or nothing to remove); 1 no Docker daemon answers; 2 bad usage, or DIR is not
in a git repository`;
var cleanupCommand = {
  name: "cleanup",
  summary: "remove the worktrees, engine processes, Docker containers, networks and images a run left behind",
  usage: USAGE,
  details: DETAILS,
  async run(args, context) {
    const { values } = parseCommandArgs("cleanup", args, {
      "run-id": { type: "string" },
      stale: { type: "boolean", default: false },
      baselines: { type: "boolean", default: false },
      "older-than-hours": { type: "string" },
      "keep-images": { type: "boolean", default: false },
      repo: { type: "string" }
    });
    const runId = values["run-id"];
    const modes = [runId !== void 0, values.stale, values.baselines].filter(Boolean).length;
    if (modes === 0) {
      const from = resolve5(values.repo ?? process.cwd());
      let repoDir;
      try {
        repoDir = await gitText(from, ["rev-parse", "--show-toplevel"]);
      } catch (error) {
        if (!(error instanceof GitError)) throw error;
        throw new UsageError(
          `speedgate cleanup: ${from} is not in a git repository; run it in the engine's repository or name it with --repo
usage: ${USAGE}`
        );
      }
      const sweep = await sweepLeftRounds(repoDir, context.logger);
      context.stdout.write(
        `removed what ${sweep.rounds} killed round(s) left in ${repoDir}: ${sweep.worktrees} worktree(s), ${sweep.processGroups} process group(s) still running` + (sweep.live > 0 ? `; ${sweep.live} round(s) still running left alone` : "") + "\n"
      );
      return 0;
    }
    if (modes !== 1 || values.repo !== void 0) {
      throw new UsageError(
        `speedgate cleanup: expected at most one of --run-id, --stale or --baselines, and --repo only without them
usage: ${USAGE}`
      );
    }
    let staleAfterMs = values.baselines ? DEFAULT_BASELINE_MAX_AGE_MS : DEFAULT_STALE_AFTER_MS;
    if (values["older-than-hours"] !== void 0) {
      const hours = Number(values["older-than-hours"]);
      if (!Number.isFinite(hours) || hours < 0) {
        throw new UsageError(
          `speedgate cleanup: --older-than-hours: expected a number of hours, 0 or more, got ${JSON.stringify(values["older-than-hours"])}`
        );
      }
      staleAfterMs = hours * 36e5;
    }
    const docker = new import_dockerode2.default();
    try {
      await docker.ping();
    } catch (error) {
      context.logger.error(`speedgate cleanup: no Docker daemon answers (${error.message}); nothing was removed`);
      return 1;
    }
    if (values.baselines) {
      const sweep = await sweepBaselineImages(docker, { maxAgeMs: staleAfterMs }, context.logger);
      for (const name of sweep.removed) context.stdout.write(`removed ${name}
`);
      for (const name of sweep.inUse) context.stdout.write(`kept ${name}: still in use
`);
      context.stdout.write(
        `removed ${sweep.removed.length} cached baseline image(s) older than ${staleAfterMs / 36e5} hours; kept ${sweep.kept + sweep.inUse.length}
`
      );
      return 0;
    }
    const counts = await sweepResources(docker, runId !== void 0 ? { runId } : { stale: true }, context.logger, {
      keepCandidateImages: values["keep-images"],
      staleAfterMs
    });
    const what = runId !== void 0 ? `run ${runId}` : "stale runs";
    context.stdout.write(
      `removed ${counts.containers} container(s), ${counts.networks} network(s), ${counts.images} image(s) of ${what}
`
    );
    return 0;
  }
};

// src/cli/commands/demo-command.ts
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join as join5 } from "node:path";

// src/engine/find-free-port.ts
import { createServer } from "node:net";
async function findFreePort() {
  return await new Promise((resolve8, reject) => {
    const server = createServer();
    server.unref();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve8(port));
    });
  });
}

// src/cli/commands/demo-command.ts
function demoRoundPath() {
  return join5(findPackageRoot(), "examples", "demo", "round.yml");
}
var demoCommand = {
  name: "demo",
  summary: "score the embedded demo patch against the reference engine (needs only Node)",
  usage: "speedgate demo [--out <dir>] [--format text|md]",
  details: `Options:
  --out <dir>        where scorecard.json and scorecard.md are written (default: a new temporary folder)
  --format text|md   how the card is printed on stdout (default text)

Exit codes: 0 a card was written, whatever its verdict; 1 speedgate itself failed; 2 bad usage; 130 cancelled`,
  async run(args, context) {
    const { values } = parseCommandArgs("demo", args, {
      out: { type: "string" },
      format: { type: "string", default: "text" }
    });
    checkFormat("demo", values.format);
    const loaded = await loadRound(demoRoundPath());
    const round = { ...loaded, config: { ...loaded.config, port: await findFreePort() } };
    const outDir = values.out ?? await mkdtemp(join5(tmpdir(), "speedgate-demo-"));
    context.logger.info(`speedgate demo: ${round.prompts.length} prompts, baseline ./examples/demo/engine, candidate with faster.patch`);
    return await runAndReport(round, { outDir, format: values.format, failOnGate: false }, context);
  }
};

// src/history/format-history.ts
var HISTORY_COLUMNS = [
  "recorded_at",
  "pull_request",
  "head_sha",
  "run_id",
  "run_attempt",
  "round_score",
  "interval_low",
  "interval_high",
  "gate",
  "min_round_score",
  "scenarios_total",
  "scenarios_passed",
  "failure_kind",
  "image_digest",
  "patch_hash",
  "runner",
  "gpu"
];
function cells(card) {
  return {
    recorded_at: card.recordedAt.toISOString(),
    pull_request: String(card.pullRequest),
    head_sha: card.headSha,
    run_id: String(card.runId),
    run_attempt: String(card.runAttempt),
    round_score: card.roundScore === null ? "" : String(card.roundScore),
    interval_low: card.interval ? String(card.interval.low) : "",
    interval_high: card.interval ? String(card.interval.high) : "",
    gate: card.gate.passed ? "passed" : "failed",
    min_round_score: String(card.gate.minRoundScore),
    scenarios_total: card.scenarios ? String(card.scenarios.total) : "",
    scenarios_passed: card.scenarios ? String(card.scenarios.passed) : "",
    failure_kind: card.failure?.kind ?? "",
    image_digest: card.imageDigest ?? "",
    patch_hash: card.patchHash ?? "",
    runner: card.runner ?? "",
    gpu: card.gpu ?? ""
  };
}
function csvCell(value) {
  const safe = /^[=+\-@\t\r]/.test(value) && !/^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
function formatHistoryCsv(cards) {
  const lines = [HISTORY_COLUMNS.join(",")];
  for (const card of cards) {
    const row = cells(card);
    lines.push(HISTORY_COLUMNS.map((column) => csvCell(row[column])).join(","));
  }
  return `${lines.join("\r\n")}\r
`;
}
function printable(value) {
  return value.replace(/[\u0000-\u001f\u007f-\u009f]/g, "?");
}
function formatHistoryTable(cards) {
  if (cards.length === 0) return "no cards recorded\n";
  const header = ["recorded (UTC)", "PR", "commit", "run", "score", "interval", "gate", "scenarios", "failure", "runner", "GPU"];
  const rows = cards.map((card) => [
    card.recordedAt.toISOString().replace("T", " ").replace(/\.\d{3}Z$/, ""),
    `#${card.pullRequest}`,
    card.headSha.slice(0, 12),
    card.runAttempt > 1 ? `${card.runId}/${card.runAttempt}` : String(card.runId),
    formatTimes(card.roundScore),
    card.interval ? `${formatTimes(card.interval.low)}\u2013${formatTimes(card.interval.high)}` : "\u2014",
    card.gate.passed ? "passed" : "failed",
    card.scenarios ? `${card.scenarios.total} (${card.scenarios.passed} passed)` : "",
    card.failure?.kind ?? "",
    printable(card.runner ?? ""),
    printable(card.gpu ?? "")
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? "").length)));
  const line = (values) => values.map((value, column) => column === 4 || column === 1 ? value.padStart(widths[column] ?? 0) : value.padEnd(widths[column] ?? 0)).join("  ").trimEnd();
  return `${[line(header), line(widths.map((width) => "-".repeat(width))), ...rows.map(line)].join("\n")}
`;
}

// src/store/card-history.ts
var CARD_HISTORY_SCHEMA_VERSION = 4;
function parseGateMode(stored) {
  return GATE_MODES.find((mode) => mode === stored) ?? "round-score";
}
var COLUMNS = `id, repository, pull_request, head_sha, run_id, run_attempt, run_url, round_score, interval_low, interval_high,
  interval_confidence, gate_passed, gate_min_round_score, gate_use, failure_kind, failure_engine, failure_stage,
  image_digest, patch_hash, runner, gpu, engine, speedgate_version, card_created_at, scenarios_total, scenarios_passed, recorded_at`;
function fromRow(row) {
  return {
    id: Number(row.id),
    repository: row.repository,
    pullRequest: row.pull_request,
    headSha: row.head_sha,
    runId: Number(row.run_id),
    runAttempt: row.run_attempt,
    runUrl: row.run_url,
    roundScore: row.round_score,
    interval: row.interval_low !== null && row.interval_high !== null && row.interval_confidence !== null ? { low: row.interval_low, high: row.interval_high, confidence: row.interval_confidence } : null,
    gate: { passed: row.gate_passed, minRoundScore: row.gate_min_round_score, use: parseGateMode(row.gate_use) },
    scenarios: row.scenarios_total !== null && row.scenarios_passed !== null ? { total: row.scenarios_total, passed: row.scenarios_passed } : null,
    failure: row.failure_kind !== null ? { kind: row.failure_kind, engine: row.failure_engine ?? "", stage: row.failure_stage ?? "" } : null,
    imageDigest: row.image_digest,
    patchHash: row.patch_hash,
    runner: row.runner,
    gpu: row.gpu,
    engine: row.engine,
    speedgateVersion: row.speedgate_version,
    cardCreatedAt: row.card_created_at ? row.card_created_at.toISOString() : null,
    recordedAt: row.recorded_at
  };
}
async function listCards(queryable, query) {
  const { rows } = await queryable.query(
    `SELECT * FROM (
       SELECT ${COLUMNS} FROM speedgate.cards
       WHERE repository = $1 AND ($2::integer IS NULL OR pull_request = $2)
       ORDER BY recorded_at DESC, id DESC
       LIMIT $3
     ) newest ORDER BY recorded_at, id`,
    [query.repository.toLowerCase(), query.pullRequest ?? null, query.limit ?? null]
  );
  return rows.map(fromRow);
}

// src/store/migrate-database.ts
import { fileURLToPath } from "node:url";
var MIGRATIONS_DIR = fileURLToPath(new URL("./migrations/", import.meta.url));
async function tableExists(queryable) {
  const { rows } = await queryable.query("SELECT to_regclass('speedgate.schema_migrations') IS NOT NULL AS exists");
  return rows[0]?.exists === true;
}
async function readSchemaVersion(queryable) {
  if (!await tableExists(queryable)) return 0;
  const { rows } = await queryable.query("SELECT max(version) AS version FROM speedgate.schema_migrations");
  return rows[0]?.version ?? 0;
}

// src/store/open-database.ts
import { mkdir as mkdir4, mkdtemp as mkdtemp2, rm as rm2, stat } from "node:fs/promises";
import { tmpdir as tmpdir2 } from "node:os";
import { join as join7 } from "node:path";

// node_modules/pg/esm/index.mjs
var import_lib = __toESM(require_lib2(), 1);
var Client = import_lib.default.Client;
var Pool = import_lib.default.Pool;
var Connection = import_lib.default.Connection;
var types = import_lib.default.types;
var Query = import_lib.default.Query;
var DatabaseError = import_lib.default.DatabaseError;
var escapeIdentifier = import_lib.default.escapeIdentifier;
var escapeLiteral = import_lib.default.escapeLiteral;
var Result = import_lib.default.Result;
var TypeOverrides = import_lib.default.TypeOverrides;
var defaults = import_lib.default.defaults;
var esm_default = import_lib.default;

// src/store/lock-data-folder.ts
import { readFile as readFile3, rm, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join as join6 } from "node:path";
var LOCK_FILE = "speedgate.lock";
var DataFolderInUseError = class extends Error {
  constructor(dataDir, holder) {
    super(
      `the PGlite data folder ${dataDir} is in use by ${holder}: PGlite serves one process at a time; stop that process first, or run several on a PostgreSQL server (DATABASE_URL)`
    );
    this.dataDir = dataDir;
    this.holder = holder;
    this.name = "DataFolderInUseError";
  }
  dataDir;
  holder;
};
async function lockDataFolder(dataDir) {
  const path = join6(dataDir, LOCK_FILE);
  const mine = `${process.pid}@${hostname()}`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await writeFile(path, `${mine}
`, { flag: "wx", mode: 384 });
      return async () => {
        const current = await readFile3(path, "utf8").catch(() => "");
        if (current.trim() === mine) await rm(path, { force: true });
      };
    } catch (error) {
      if (error.code !== "EEXIST") throw error;
    }
    const holder = (await readFile3(path, "utf8").catch(() => "")).trim();
    const [pidText, host] = holder.split("@");
    const pid = Number(pidText);
    const stale = host === hostname() && Number.isInteger(pid) && pid > 0 && pid !== process.pid && !isProcessAlive(pid);
    if (!stale) throw new DataFolderInUseError(dataDir, holder === "" ? "another process" : `process ${holder}`);
    await rm(path, { force: true });
  }
  throw new DataFolderInUseError(dataDir, "another process");
}

// src/store/parse-database-target.ts
import { resolve as resolve6 } from "node:path";
function parseDatabaseTarget(value, cwd = process.cwd()) {
  const trimmed = value.trim();
  if (trimmed === "") throw new Error("the database is empty: give a postgres:// URL or a PGlite data folder");
  if (/^postgres(ql)?:\/\//i.test(trimmed)) {
    try {
      new URL(trimmed);
    } catch {
      throw new Error(`the database URL is not a URL: ${redactDatabaseUrl(trimmed)}`);
    }
    return { kind: "postgres", url: trimmed };
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed)) {
    throw new Error(
      `unsupported database URL scheme in ${redactDatabaseUrl(trimmed)}: expected postgres:// or postgresql://, or a PGlite data folder`
    );
  }
  return { kind: "pglite", dataDir: resolve6(cwd, trimmed) };
}
function redactDatabaseUrl(url) {
  try {
    const parsed = new URL(url);
    if (parsed.password !== "") parsed.password = "***";
    return parsed.toString();
  } catch {
    return url.replace(/\/\/([^:/@]*):[^@]*@/, "//$1:***@");
  }
}

// src/store/open-database.ts
var PGLITE_SUBFOLDER = "pgdata";
var SOCKET_PORT = 5432;
async function openDatabase(target, options) {
  if (target.kind === "postgres") return await openServer(target.url, options);
  return await openPglite(target.dataDir, options);
}
function createPool(config, logger, description) {
  const pool = new esm_default.Pool(config);
  attachPoolErrorLog(pool, logger, description);
  return pool;
}
function attachPoolErrorLog(pool, logger, description) {
  pool.on("error", (error) => {
    logger.warn(`database ${description}: an idle connection failed: ${error.message}`);
  });
  pool.on("connect", (client) => {
    client.on("error", (error) => {
      logger.warn(`database ${description}: a connection failed: ${error.message}`);
    });
  });
}
async function checkAnswers(pool, description) {
  try {
    await pool.query("SELECT 1");
  } catch (error) {
    await pool.end().catch(() => void 0);
    throw new Error(`the database ${description} does not answer: ${error.message}`, { cause: error });
  }
}
async function openServer(url, options) {
  const description = redactDatabaseUrl(url);
  const connection = {
    connectionString: url,
    application_name: options.applicationName ?? "speedgate",
    // Under Probot's 9 s answer timeout: a delivery whose job cannot be stored must be answered 5xx, not 202.
    connectionTimeoutMillis: 5e3,
    // A half-open TCP connection (a failover, a cut network) is found by the kernel, not after hours.
    keepAlive: true
  };
  const pool = createPool({ ...connection, max: options.maxConnections ?? 10 }, options.logger, description);
  await checkAnswers(pool, description);
  return {
    kind: "postgres",
    description,
    pool,
    connection,
    close: async () => {
      await pool.end();
    }
  };
}
async function openPglite(dataDir, options) {
  if (options.create === false && !await stat(join7(dataDir, PGLITE_SUBFOLDER)).catch(() => null)) {
    throw new Error(
      `no speedgate database in ${dataDir}: the folder holds no PGlite data (${PGLITE_SUBFOLDER}/); give the folder the app was started with`
    );
  }
  await mkdir4(dataDir, { recursive: true });
  const unlock = await lockDataFolder(dataDir);
  const cleanups = [unlock];
  const cleanUp = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => void 0);
  };
  try {
    const { PGlite } = await import("@electric-sql/pglite");
    const { PGLiteSocketServer } = await import("@electric-sql/pglite-socket");
    const db = await PGlite.create({ dataDir: join7(dataDir, PGLITE_SUBFOLDER) });
    cleanups.push(async () => {
      await db.close();
    });
    const socketDir = await mkdtemp2(join7(tmpdir2(), "speedgate-pglite-"));
    cleanups.push(async () => {
      await rm2(socketDir, { recursive: true, force: true });
    });
    const maxConnections = options.maxConnections ?? 10;
    const server = new PGLiteSocketServer({
      db,
      path: join7(socketDir, `.s.PGSQL.${SOCKET_PORT}`),
      maxConnections: Math.max(64, maxConnections * 4)
    });
    await server.start();
    cleanups.push(async () => {
      await server.stop();
    });
    const connection = {
      host: socketDir,
      port: SOCKET_PORT,
      user: "postgres",
      database: "postgres",
      application_name: options.applicationName ?? "speedgate"
    };
    const description = `PGlite in ${dataDir}`;
    const pool = createPool({ ...connection, max: maxConnections }, options.logger, description);
    cleanups.push(async () => {
      await pool.end();
    });
    await checkAnswers(pool, description);
    return {
      kind: "pglite",
      description,
      pool,
      connection,
      close: cleanUp
    };
  } catch (error) {
    await cleanUp();
    throw error;
  }
}

// src/cli/commands/history-command.ts
var REPOSITORY = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;
function positiveInteger(name, value) {
  if (value === void 0) return void 0;
  if (!/^\d+$/.test(value) || Number(value) < 1)
    throw new UsageError(`speedgate history: --${name}: expected a positive whole number, got ${JSON.stringify(value)}`);
  return Number(value);
}
var historyCommand = {
  name: "history",
  summary: "print the score cards the app recorded for a repository",
  usage: "speedgate history --database <postgres://\u2026 | PGlite folder> --repo <owner/repo> [--pr N] [--limit N] [--format table|csv]",
  details: `Options:
  --database <url | folder>  the app's PostgreSQL URL or its PGlite folder (default: DATABASE_URL);
                             a PGlite folder can be read only while the app is stopped
  --repo <owner/repo>        the repository whose cards to print
  --pr N                     only this pull request's cards
  --limit N                  at most N rows (the newest)
  --format table|csv         an aligned table (default) or CSV

Exit codes: 0 printed (also when no card was recorded); 2 a database that cannot be read, or bad usage`,
  async run(args, context) {
    const { values } = parseCommandArgs("history", args, {
      database: { type: "string" },
      repo: { type: "string" },
      pr: { type: "string" },
      limit: { type: "string" },
      format: { type: "string", default: "table" }
    });
    const database = values.database ?? context.env.DATABASE_URL;
    if (!database)
      throw new UsageError("speedgate history: --database is required (a postgres:// URL or the app's PGlite folder), or set DATABASE_URL");
    if (!values.repo || !REPOSITORY.test(values.repo)) {
      throw new UsageError(
        `speedgate history: --repo: expected owner/repo, got ${values.repo === void 0 ? "nothing" : JSON.stringify(values.repo)}`
      );
    }
    if (values.format !== "table" && values.format !== "csv") {
      throw new UsageError(`speedgate history: --format: expected table or csv, got ${JSON.stringify(values.format)}`);
    }
    const pullRequest = positiveInteger("pr", values.pr);
    const limit = positiveInteger("limit", values.limit);
    let target;
    try {
      target = parseDatabaseTarget(database);
    } catch (error) {
      throw new UsageError(`speedgate history: --database: ${error.message}`);
    }
    let opened;
    try {
      opened = await openDatabase(target, {
        logger: context.logger,
        maxConnections: 1,
        applicationName: "speedgate history",
        create: false
      });
    } catch (error) {
      throw new UsageError(`speedgate history: --database: ${error.message}`);
    }
    try {
      const version = await readSchemaVersion(opened.pool);
      if (version < CARD_HISTORY_SCHEMA_VERSION) {
        throw new UsageError(
          version === 0 ? `speedgate history: ${opened.description} holds no speedgate data: the app has not run on it` : `speedgate history: ${opened.description} is at schema version ${version}, older than the card history needs (${CARD_HISTORY_SCHEMA_VERSION}): start the app once to migrate it`
        );
      }
      const cards = await listCards(opened.pool, {
        repository: values.repo,
        ...pullRequest ? { pullRequest } : {},
        ...limit ? { limit } : {}
      });
      context.stdout.write(values.format === "csv" ? formatHistoryCsv(cards) : formatHistoryTable(cards));
      if (cards.length === 0 && values.format === "csv")
        context.logger.info(`no cards recorded for ${values.repo}${pullRequest ? `#${pullRequest}` : ""} in ${opened.description}`);
      return 0;
    } finally {
      await opened.close();
    }
  }
};

// src/cli/commands/merge-command.ts
var mergeCommand = {
  name: "merge",
  summary: "combine the cards of a sharded round into one, recomputing the score from every prompt",
  usage: "speedgate merge <scorecard.json | folder | glob>... [--out <dir>] [--format text|md|json] [--fail-on-gate]",
  details: `Options:
  <scorecard.json | folder | glob>...  the shard cards (a folder: every scorecard.json under it)
  --out <dir>              where the merged scorecard.json and scorecard.md are written
  --format text|md|json    how the merged card is printed on stdout (default text)
  --fail-on-gate           exit 1 when the merged card's gate does not pass

Exit codes: 0 merged; 1 --fail-on-gate and the gate does not pass; 2 cards that cannot be merged
(different rounds, a missing or duplicated shard) or bad usage`,
  async run(args, context) {
    const { values, positionals } = parseCommandArgs(
      "merge",
      args,
      { out: { type: "string" }, format: { type: "string", default: "text" }, "fail-on-gate": { type: "boolean", default: false } },
      true
    );
    if (positionals.length === 0) throw new UsageError(`usage: ${this.usage}`);
    const format = values.format;
    if (format !== "text" && format !== "md" && format !== "json") {
      throw new UsageError(`speedgate merge: --format: expected md, json or text, got ${JSON.stringify(format)}`);
    }
    const files = await findCardFiles(positionals, "speedgate merge");
    const cards = [];
    for (const file of files) cards.push(await readScorecard(file));
    const merged = mergeScorecards(cards, { labels: files });
    if (values.out) {
      const written = await writeScorecard(values.out, merged);
      context.logger.info(`Merged ${files.length} shard cards into ${written.jsonPath}`);
    }
    if (format === "md") context.stdout.write(renderMarkdown(merged));
    else if (format === "json") context.stdout.write(`${JSON.stringify(merged, null, 2)}
`);
    else context.stdout.write(renderText(merged));
    return values["fail-on-gate"] && !describeVerdict(merged).passed ? 1 : 0;
  }
};

// src/cli/commands/render-command.ts
var renderCommand = {
  name: "render",
  summary: "print a score card from scorecard.json",
  usage: "speedgate render <scorecard.json> [--format md|json|text]",
  details: `Options:
  --format md|json|text   md: the pull request comment; json: the card as stored; text (default): for a terminal

Exit codes: 0 printed; 2 not a readable score card, or bad usage`,
  async run(args, context) {
    const { values, positionals } = parseCommandArgs("render", args, { format: { type: "string", default: "text" } }, true);
    const path = positionals[0];
    if (!path || positionals.length > 1) throw new UsageError(`usage: ${this.usage}`);
    const card = await readScorecard(path);
    const format = values.format;
    if (format === "md") context.stdout.write(renderMarkdown(card));
    else if (format === "json") context.stdout.write(`${JSON.stringify(card, null, 2)}
`);
    else if (format === "text") context.stdout.write(renderText(card));
    else throw new UsageError(`speedgate render: --format: expected md, json or text, got ${JSON.stringify(format)}`);
    return 0;
  }
};

// src/cli/commands/sim-engine-command.ts
import { readFile as readFile4, writeFile as writeFile2 } from "node:fs/promises";
import { dirname as dirname4, resolve as resolve7 } from "node:path";
var USAGE2 = `speedgate sim-engine [--port N] [--host 127.0.0.1] [--profile profile.json]
    [--model NAME] [--flavour sglang|vllm] [--ttft-ms MS] [--itl-ms MS] [--output-tokens N]
    [--reasoning-tokens N] [--tokens-per-chunk N] [--usage-per-chunk] [--chunk-log out.jsonl]
    [--prompts prompts.jsonl] [--tokenizer tokenizer.json] [--diverge-after-tokens N]
    [--diverge-after-fraction F] [--diverge-every N] [--batch-cost F]
    nondeterminism: [--branch-every N] [--branch-at-fraction F] [--branch-probability P] [--branch-length-factor F]
    noise: [--jitter SD] [--run-variance SD] [--seed N] [--start-counter FILE]
    faults: [--crash-log FILE] [--crash-exit-code N] [--never-healthy] [--startup-delay-ms MS]
    [--die-after-requests N] [--die-exit-code N] [--hold-after-requests N]
    [--stop-early id,id] [--stop-early-fraction F] [--stop-early-on-starts N,N]
    [--http-500 id,id] [--malformed-sse id,id]
    cheats: [--cheat-claim-tokens] [--cheat-usage-factor F] [--cheat-filler-text] [--cheat-filler-after-tokens N]
    [--cheat-filler-after N|P%] [--cheat-prompt-id-speedup F] [--cheat-answer-cache-speedup F]
    [--cheat-filler-at-branch] [--cheat-unique-filler] [--cheat-filler-prompts id,id] [--cheat-filler-on-starts N,N]
    [--cheat-starve id,id]
    quality questions: [--questions questions.jsonl] [--question-accuracy F] [--question-unsteady F]
    [--question-seed N] [--question-answer-tokens N] [--numerics-change F] [--quality-drop F]

Flags override the profile. Requests do not name their prompt: the ids in the profile and the fault
lists are found from each request's content through the prompts file (--prompts, or the profile's
promptsFile). --tokenizer streams whole-word tokens of that tokenizer.json, so a round counting with
it sees exactly the engine's token counts. --jitter varies each request's timing and --run-variance
each start's speed, as log-normal factors with that standard deviation (0.02 is about 2%); --seed
makes the draws reproducible, and --start-counter FILE numbers the starts so that each start of a
seeded engine draws its own speed. --batch-cost F models a continuous batch: with n streams decoding,
each token takes 1 + F\xB7(n \u2212 1) times as long, so a stream that stops decoding speeds up the others.
--diverge-after-fraction F with --diverge-every N makes every Nth prompt's answer part from the
honest one after that share of its tokens (honest numeric drift). --stop-early-on-starts limits
--stop-early to those starts (0-based, with --start-counter), as a batch-dependent early stop comes
and goes between runs. --cheat-filler-after N or P% streams the honest answer's first N tokens (or P%
of them), then filler ten times as fast that costs no decode work: the stream leaves the batch.
--branch-every N makes every Nth prompt bistable, as a batching GPU engine's are at temperature 0:
at --branch-at-fraction F of the answer (0.25) each request takes a second continuation with
--branch-probability P (0.5), drawn per request (seeded with --seed), which runs on for
--branch-length-factor times the first's tokens (0.6). --cheat-filler-at-branch streams filler from
that point wherever a request would take the second continuation. --cheat-unique-filler gives every
request's filler a fresh random tag, so no filler answer matches another; --cheat-filler-prompts and
--cheat-filler-on-starts play the filler cheats on those prompts and starts only (0-based, with
--start-counter). --cheat-starve gives those prompts no decode step while any other stream decodes:
every answer exact, but served after the rest.
--questions names a quality question set (JSONL with reference answers, the round's quality.questions):
a request asking one of its questions is answered in the engine's words ending in "The answer is N.",
right for a seeded --question-accuracy share of the questions (0.8; --question-seed picks which),
right or wrong by a draw per request for a --question-unsteady share (a near-tie). --numerics-change F
turns that share of the right answers wrong and as many wrong ones right (the same accuracy);
--quality-drop F turns that share of the right answers wrong; --question-answer-tokens N sets
an answer's length (the profile's output tokens by default). --diverge-after-fraction and the cheats
apply to these answers too: filler never reaches the final answer.`;
function parseNumber(flag, value) {
  if (value === void 0) return void 0;
  const number = Number(value);
  if (!Number.isFinite(number)) throw new UsageError(`speedgate sim-engine: --${flag}: expected a number, got ${JSON.stringify(value)}`);
  return number;
}
function parseFillerAfter(value) {
  if (value === void 0) return void 0;
  const percent = /^(\d+(?:\.\d+)?)%$/.exec(value.trim());
  if (percent) return { fraction: Number(percent[1]) / 100 };
  return { tokens: parseNumber("cheat-filler-after", value) };
}
function branchFlags(values, fromFile) {
  const flag = (name) => parseNumber(name, typeof values[name] === "string" ? values[name] : void 0);
  const flags = dropUndefined({
    every: flag("branch-every"),
    atFraction: flag("branch-at-fraction"),
    probability: flag("branch-probability"),
    lengthFactor: flag("branch-length-factor")
  });
  return Object.keys(flags).length === 0 ? void 0 : { ...fromFile, ...flags };
}
function parseIds(value) {
  return value === void 0 ? void 0 : value.split(",").map((id) => id.trim()).filter((id) => id.length > 0);
}
function dropUndefined(value) {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== void 0));
}
async function readProfile(path) {
  let text;
  try {
    text = await readFile4(path, "utf8");
  } catch (error) {
    throw new ConfigError(`speedgate sim-engine: cannot read the profile ${path}: ${error.message}`);
  }
  try {
    const parsed = JSON.parse(text);
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("expected a JSON object");
    return { profile: parsed, dir: dirname4(resolve7(path)) };
  } catch (error) {
    throw new ConfigError(`speedgate sim-engine: the profile ${path} is not valid JSON: ${error.message}`);
  }
}
async function countStart(path) {
  let start = 0;
  try {
    start = Number.parseInt(await readFile4(path, "utf8"), 10);
  } catch (error) {
    if (error.code !== "ENOENT")
      throw new ConfigError(`speedgate sim-engine: --start-counter: cannot read ${path}: ${error.message}`);
  }
  if (!Number.isInteger(start) || start < 0)
    throw new ConfigError(`speedgate sim-engine: --start-counter: ${path} does not hold a start count`);
  try {
    await writeFile2(path, `${start + 1}
`);
  } catch (error) {
    throw new ConfigError(`speedgate sim-engine: --start-counter: cannot write ${path}: ${error.message}`);
  }
  return start;
}
var simEngineCommand = {
  name: "sim-engine",
  summary: "run the reference OpenAI-compatible engine (deterministic timings, fault flags)",
  usage: USAGE2,
  details: `Exit codes: 0 stopped by SIGINT or SIGTERM; 1 the port is taken (EADDRINUSE), or speedgate itself failed;
the --die-exit-code after --die-after-requests, or the --crash-exit-code with --crash-log; 2 bad usage or profile`,
  async run(args, context) {
    const { values } = parseCommandArgs("sim-engine", args, {
      port: { type: "string", default: "30000" },
      host: { type: "string", default: "127.0.0.1" },
      profile: { type: "string" },
      model: { type: "string" },
      flavour: { type: "string" },
      "ttft-ms": { type: "string" },
      "itl-ms": { type: "string" },
      "output-tokens": { type: "string" },
      "reasoning-tokens": { type: "string" },
      "tokens-per-chunk": { type: "string" },
      "usage-per-chunk": { type: "boolean" },
      "chunk-log": { type: "string" },
      "crash-log": { type: "string" },
      "crash-exit-code": { type: "string" },
      "never-healthy": { type: "boolean" },
      "startup-delay-ms": { type: "string" },
      "die-after-requests": { type: "string" },
      "hold-after-requests": { type: "string" },
      "die-exit-code": { type: "string" },
      "stop-early": { type: "string" },
      "stop-early-fraction": { type: "string" },
      "http-500": { type: "string" },
      "malformed-sse": { type: "string" },
      prompts: { type: "string" },
      tokenizer: { type: "string" },
      "diverge-after-tokens": { type: "string" },
      "diverge-after-fraction": { type: "string" },
      "diverge-every": { type: "string" },
      "batch-cost": { type: "string" },
      "branch-every": { type: "string" },
      "branch-at-fraction": { type: "string" },
      "branch-probability": { type: "string" },
      "branch-length-factor": { type: "string" },
      "cheat-filler-at-branch": { type: "boolean" },
      "cheat-unique-filler": { type: "boolean" },
      "cheat-filler-prompts": { type: "string" },
      "cheat-filler-on-starts": { type: "string" },
      "cheat-starve": { type: "string" },
      "stop-early-on-starts": { type: "string" },
      "cheat-filler-after": { type: "string" },
      "cheat-claim-tokens": { type: "boolean" },
      "cheat-usage-factor": { type: "string" },
      "cheat-filler-text": { type: "boolean" },
      "cheat-filler-after-tokens": { type: "string" },
      "cheat-prompt-id-speedup": { type: "string" },
      "cheat-answer-cache-speedup": { type: "string" },
      questions: { type: "string" },
      "question-accuracy": { type: "string" },
      "question-unsteady": { type: "string" },
      "question-seed": { type: "string" },
      "question-answer-tokens": { type: "string" },
      "numerics-change": { type: "string" },
      "quality-drop": { type: "string" },
      jitter: { type: "string" },
      "run-variance": { type: "string" },
      seed: { type: "string" },
      "start-counter": { type: "string" }
    });
    const port = parseNumber("port", values.port) ?? 3e4;
    if (!Number.isInteger(port) || port < 0 || port > 65535)
      throw new UsageError(`speedgate sim-engine: --port: expected a TCP port, got ${values.port}`);
    const loaded = values.profile ? await readProfile(values.profile) : { profile: {}, dir: process.cwd() };
    const fileProfile = loaded.profile;
    const profilePath = (flag, inFile) => {
      if (flag !== void 0) return resolve7(process.cwd(), flag);
      return typeof inFile === "string" ? resolve7(loaded.dir, inFile) : void 0;
    };
    const fillerAfter = parseFillerAfter(values["cheat-filler-after"]);
    const crashFlag = values["crash-log"] !== void 0 || values["crash-exit-code"] !== void 0;
    const input = {
      ...fileProfile,
      ...dropUndefined({
        model: values.model,
        flavour: values.flavour,
        usagePerChunk: values["usage-per-chunk"],
        batchCost: parseNumber("batch-cost", values["batch-cost"]),
        promptsFile: profilePath(values.prompts, fileProfile.promptsFile),
        tokenizer: profilePath(values.tokenizer, fileProfile.tokenizer)
      }),
      answer: {
        ...fileProfile.answer,
        ...dropUndefined({
          divergeAfterTokens: parseNumber("diverge-after-tokens", values["diverge-after-tokens"]),
          divergeAfterFraction: parseNumber("diverge-after-fraction", values["diverge-after-fraction"]),
          divergeEvery: parseNumber("diverge-every", values["diverge-every"]),
          branches: branchFlags(values, fileProfile.answer?.branches ?? null)
        })
      },
      cheats: {
        ...fileProfile.cheats,
        ...dropUndefined({
          claimTokens: values["cheat-claim-tokens"],
          usageFactor: parseNumber("cheat-usage-factor", values["cheat-usage-factor"]),
          fillerText: values["cheat-filler-text"],
          fillerAfterTokens: parseNumber("cheat-filler-after-tokens", values["cheat-filler-after-tokens"]) ?? fillerAfter?.tokens,
          fillerAfterFraction: fillerAfter?.fraction,
          promptIdSpeedup: parseNumber("cheat-prompt-id-speedup", values["cheat-prompt-id-speedup"]),
          answerCacheSpeedup: parseNumber("cheat-answer-cache-speedup", values["cheat-answer-cache-speedup"]),
          fillerAtBranch: values["cheat-filler-at-branch"],
          uniqueFiller: values["cheat-unique-filler"],
          fillerPrompts: parseIds(values["cheat-filler-prompts"]),
          fillerOnStarts: parseIds(values["cheat-filler-on-starts"])?.map((start2) => parseNumber("cheat-filler-on-starts", start2)),
          starve: parseIds(values["cheat-starve"])
        })
      },
      questions: {
        ...fileProfile.questions,
        ...dropUndefined({
          file: profilePath(values.questions, fileProfile.questions?.file),
          accuracy: parseNumber("question-accuracy", values["question-accuracy"]),
          unsteady: parseNumber("question-unsteady", values["question-unsteady"]),
          seed: parseNumber("question-seed", values["question-seed"]),
          answerTokens: parseNumber("question-answer-tokens", values["question-answer-tokens"]),
          numericsChange: parseNumber("numerics-change", values["numerics-change"]),
          qualityDrop: parseNumber("quality-drop", values["quality-drop"])
        })
      },
      defaults: {
        ...fileProfile.defaults,
        ...dropUndefined({
          ttftMs: parseNumber("ttft-ms", values["ttft-ms"]),
          itlMs: parseNumber("itl-ms", values["itl-ms"]),
          outputTokens: parseNumber("output-tokens", values["output-tokens"]),
          reasoningTokens: parseNumber("reasoning-tokens", values["reasoning-tokens"]),
          tokensPerChunk: parseNumber("tokens-per-chunk", values["tokens-per-chunk"])
        })
      },
      noise: {
        ...fileProfile.noise,
        ...dropUndefined({
          jitter: parseNumber("jitter", values.jitter),
          runVariance: parseNumber("run-variance", values["run-variance"]),
          seed: parseNumber("seed", values.seed)
        })
      },
      faults: {
        ...fileProfile.faults,
        ...dropUndefined({
          crashAtStart: crashFlag ? dropUndefined({ logFile: values["crash-log"], exitCode: parseNumber("crash-exit-code", values["crash-exit-code"]) }) : void 0,
          neverHealthy: values["never-healthy"],
          startupDelayMs: parseNumber("startup-delay-ms", values["startup-delay-ms"]),
          dieAfterRequests: parseNumber("die-after-requests", values["die-after-requests"]),
          dieExitCode: parseNumber("die-exit-code", values["die-exit-code"]),
          holdAfterRequests: parseNumber("hold-after-requests", values["hold-after-requests"]),
          stopEarly: parseIds(values["stop-early"]),
          stopEarlyFraction: parseNumber("stop-early-fraction", values["stop-early-fraction"]),
          stopEarlyOnStarts: parseIds(values["stop-early-on-starts"])?.map((start2) => parseNumber("stop-early-on-starts", start2)),
          http500: parseIds(values["http-500"]),
          malformedSse: parseIds(values["malformed-sse"])
        })
      }
    };
    const parsed = simProfileSchema.safeParse(input);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((issue) => `${issue.path.join(".") || "profile"}: ${issue.message}`);
      throw new ConfigError(`speedgate sim-engine: invalid profile: ${issues.join("; ")}`);
    }
    const profile = parsed.data;
    const logLine = (line) => {
      process.stderr.write(`${line}
`);
    };
    const crash = profile.faults.crashAtStart;
    if (crash) {
      if (crash.logFile) {
        const logPath = resolve7(values["crash-log"] !== void 0 ? process.cwd() : loaded.dir, crash.logFile);
        try {
          process.stderr.write(await readFile4(logPath));
        } catch (error) {
          throw new ConfigError(`speedgate sim-engine: cannot read the crash log ${logPath}: ${error.message}`);
        }
      }
      return crash.exitCode;
    }
    let inputs;
    try {
      inputs = await loadSimInputs(profile, loaded.dir);
    } catch (error) {
      if (error instanceof ConfigError) throw new ConfigError(`speedgate sim-engine: ${error.message}`);
      throw error;
    }
    const start = values["start-counter"] ? await countStart(values["start-counter"]) : 0;
    let engine;
    try {
      engine = await startSimEngine({
        host: values.host ?? "127.0.0.1",
        ...inputs,
        port,
        profile,
        start,
        log: logLine,
        keepRecords: false,
        ...values["chunk-log"] ? { chunkLogPath: values["chunk-log"] } : {},
        onDie: (exitCode) => process.exit(exitCode)
      });
    } catch (error) {
      const code = error.code;
      if (code !== "EADDRINUSE" && code !== "EACCES" && code !== "EADDRNOTAVAIL") throw error;
      const why = code === "EADDRINUSE" ? "address already in use (EADDRINUSE): another process listens there" : error.message;
      context.logger.error(`speedgate sim-engine: cannot listen on ${values.host ?? "127.0.0.1"}:${port}: ${why}`);
      return 1;
    }
    await new Promise((resolveAbort) => {
      if (context.signal.aborted) resolveAbort();
      else context.signal.addEventListener("abort", () => resolveAbort(), { once: true });
    });
    await engine.close();
    logLine("sim-engine: shut down");
    return 0;
  }
};

// src/cli/commands/index.ts
var commands = [
  runCommand,
  calibrateCommand,
  watchCommand,
  bisectCommand,
  demoCommand,
  mergeCommand,
  renderCommand,
  historyCommand,
  simEngineCommand,
  cleanupCommand
];

// src/cli/main.ts
var GLOBAL_OPTIONS = `Options for every command:
  --verbose   also print debug messages and every engine log line on stderr
  --help, -h  print the command's options and exit codes
  --version   print speedgate's version`;
function helpText(all) {
  const width = Math.max(...all.map((command) => command.name.length));
  const lines = all.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`);
  return `speedgate ${SPEEDGATE_VERSION}: does this patch really make the engine faster?

Usage: speedgate <command> [options]

${lines.join("\n")}

${GLOBAL_OPTIONS}

Run "speedgate <command> --help" or "speedgate help <command>" for a command's options and exit codes.
`;
}
function commandHelpText(command) {
  const details = command.details ? `
${command.details}
` : "";
  return `${command.summary}

Usage: ${command.usage}
${details}
${GLOBAL_OPTIONS}
`;
}
async function main(argv, options = {}) {
  const stdout = options.stdout ?? process.stdout;
  const logger = options.logger ?? createStderrLogger({ verbose: argv.includes("--verbose") });
  const [name, ...rest] = argv.filter((arg) => arg !== "--verbose");
  if (name === "help" && rest[0] !== void 0) {
    const command2 = commands.find((candidate) => candidate.name === rest[0]);
    if (!command2) {
      logger.error(`speedgate help: unknown command ${JSON.stringify(rest[0])}; expected one of ${commands.map((c) => c.name).join(", ")}`);
      return 2;
    }
    stdout.write(commandHelpText(command2));
    return 0;
  }
  if (!name || name === "--help" || name === "-h" || name === "help") {
    stdout.write(helpText(commands));
    return name ? 0 : 2;
  }
  if (name === "--version") {
    stdout.write(`${SPEEDGATE_VERSION}
`);
    return 0;
  }
  const command = commands.find((candidate) => candidate.name === name);
  if (!command) {
    logger.error(`unknown command ${JSON.stringify(name)}; expected one of ${commands.map((c) => c.name).join(", ")}`);
    return 2;
  }
  if (rest.includes("--help") || rest.includes("-h")) {
    stdout.write(commandHelpText(command));
    return 0;
  }
  const context = {
    stdout,
    logger,
    signal: options.signal ?? new AbortController().signal,
    env: options.env ?? process.env
  };
  try {
    return await command.run(rest, context);
  } catch (error) {
    if (error instanceof ConfigError || error instanceof UsageError) {
      logger.error(error.message);
      return 2;
    }
    logger.error(`speedgate ${name} failed: ${error.stack ?? String(error)}`);
    return 1;
  }
}

// src/cli/install-signal-handlers.ts
function installSignalHandlers() {
  const controller = new AbortController();
  const onSignal = (signal2) => {
    if (!controller.signal.aborted) {
      process.stderr.write(`speedgate: received ${signal2}, stopping engines\u2026
`);
      controller.abort(new Error(`received ${signal2}`));
      return;
    }
    if (signal2 === "SIGINT") {
      process.stderr.write("speedgate: received SIGINT again, exiting now\n");
      process.exit(130);
    }
    process.stderr.write(`speedgate: received ${signal2}, still stopping engines\u2026
`);
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  return controller.signal;
}

// src/cli/index.ts
var signal = installSignalHandlers();
process.exitCode = await main(process.argv.slice(2), { signal });
