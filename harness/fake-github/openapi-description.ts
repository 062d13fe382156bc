import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { Ajv, type ValidateFunction } from "ajv";

/*
 * GitHub's published REST description (@octokit/openapi), used by the fake to refuse any request the
 * real API would not accept: unknown route, method, path or query parameter, or a body its schema rejects.
 */

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: Record<string, unknown>;
}

interface Operation {
  operationId: string;
  parameters?: Array<Parameter | { $ref: string }>;
  requestBody?: { required?: boolean; content?: Record<string, { schema?: unknown }> };
}

interface Description {
  paths: Record<string, Record<string, Operation>>;
  components: Record<string, unknown>;
}

export interface MatchedOperation {
  template: string;
  operationId: string;
  pathParams: Record<string, string>;
}

interface Route {
  template: string;
  method: string;
  pattern: RegExp;
  names: string[];
  literals: number;
  operation: Operation;
}

const SPEC_ID = "github-openapi.json";
let loaded: { description: Description; routes: Route[]; ajv: Ajv } | null = null;
const bodyValidators = new Map<string, ValidateFunction | null>();

function load(): NonNullable<typeof loaded> {
  if (loaded) return loaded;
  const require = createRequire(import.meta.url);
  const file = require.resolve("@octokit/openapi/generated/api.github.com.json");
  const description = JSON.parse(readFileSync(file, "utf8")) as Description;
  const routes: Route[] = [];
  for (const [template, methods] of Object.entries(description.paths)) {
    const names: string[] = [];
    const segments = template.split("/").map((segment) => {
      const param = /^\{(\w+)\}$/.exec(segment);
      if (param?.[1]) {
        names.push(param[1]);
        return "([^/]+)";
      }
      return segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    });
    const pattern = new RegExp(`^${segments.join("/")}$`);
    for (const [method, operation] of Object.entries(methods)) {
      if (!["get", "post", "put", "patch", "delete"].includes(method)) continue;
      routes.push({ template, method: method.toUpperCase(), pattern, names, literals: segments.length - names.length, operation });
    }
  }
  // OpenAPI 3.0 keywords (nullable, example, x-github) are not JSON Schema; strict mode would refuse them.
  const ajv = new Ajv({ strict: false, allErrors: false, validateFormats: false, validateSchema: false });
  ajv.addSchema({ $id: SPEC_ID, components: description.components }, SPEC_ID, false);
  loaded = { description, routes, ajv };
  return loaded;
}

function resolveRef<T>(value: T | { $ref: string }): T {
  if (typeof value !== "object" || value === null || !("$ref" in value)) return value;
  let current: unknown = load().description;
  for (const key of value.$ref.replace(/^#\//, "").split("/")) current = (current as Record<string, unknown>)[key];
  return current as T;
}

function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] = key === "$ref" && typeof item === "string" && item.startsWith("#/") ? `${SPEC_ID}${item}` : rewriteRefs(item);
  }
  // Ajv reads OpenAPI's nullable only beside a type; a nullable oneOf (an issue's milestone) says the same as "or null".
  if ("nullable" in out && !("type" in out)) {
    const { nullable, ...rest } = out;
    return nullable === true ? { anyOf: [rest, { type: "null" }] } : rest;
  }
  return out;
}

function typeProblem(name: string, raw: string, schema: Record<string, unknown> | undefined): string | null {
  if (!schema) return null;
  if (schema.type === "integer" && !/^-?\d+$/.test(raw)) return `${name}=${raw} is not an integer`;
  if (schema.type === "boolean" && raw !== "true" && raw !== "false") return `${name}=${raw} is not a boolean`;
  if (Array.isArray(schema.enum) && !schema.enum.includes(raw)) return `${name}=${raw} is not one of ${schema.enum.join(", ")}`;
  return null;
}

/** The operation a request addresses, or the reason the published description does not allow it. */
export function validateRequest(
  method: string,
  path: string,
  query: URLSearchParams,
  body: unknown,
): { ok: true; operation: MatchedOperation } | { ok: false; problem: string } {
  const { routes, ajv } = load();
  const rawSegments = path.split("/");
  const candidates = routes.filter((route) => route.method === method && route.pattern.test(path)).sort((a, b) => b.literals - a.literals);
  const route = candidates[0];
  if (!route) {
    const anyMethod = routes.some((candidate) => candidate.pattern.test(path));
    return { ok: false, problem: anyMethod ? `${method} is not allowed on ${path}` : `no such route: ${method} ${path}` };
  }
  const match = route.pattern.exec(rawSegments.join("/"));
  const pathParams: Record<string, string> = {};
  route.names.forEach((name, index) => {
    pathParams[name] = decodeURIComponent(match?.[index + 1] ?? "");
  });
  const parameters = (route.operation.parameters ?? []).map((parameter) => resolveRef<Parameter>(parameter));
  for (const parameter of parameters.filter((p) => p.in === "path")) {
    const problem = typeProblem(parameter.name, pathParams[parameter.name] ?? "", parameter.schema);
    if (problem) return { ok: false, problem: `${method} ${route.template}: path ${problem}` };
  }
  const queryParams = new Map(parameters.filter((p) => p.in === "query").map((p) => [p.name, p]));
  for (const [name, value] of query) {
    const parameter = queryParams.get(name);
    if (!parameter) return { ok: false, problem: `${method} ${route.template}: unknown query parameter ${name}` };
    const problem = typeProblem(name, value, parameter.schema);
    if (problem) return { ok: false, problem: `${method} ${route.template}: query ${problem}` };
  }
  const requestBody = route.operation.requestBody ? resolveRef(route.operation.requestBody) : undefined;
  const schema = requestBody?.content?.["application/json"]?.schema;
  if (body === undefined) {
    if (requestBody?.required) return { ok: false, problem: `${method} ${route.template}: a JSON body is required` };
  } else if (!schema) {
    return { ok: false, problem: `${method} ${route.template}: takes no JSON body` };
  } else {
    const key = `${method} ${route.template}`;
    let validate = bodyValidators.get(key);
    if (validate === undefined) {
      validate = ajv.compile(rewriteRefs(schema) as object);
      bodyValidators.set(key, validate);
    }
    if (validate && !validate(body)) {
      const errors = (validate.errors ?? []).map((error) => `${error.instancePath || "(body)"} ${error.message ?? ""}`).join("; ");
      return { ok: false, problem: `${method} ${route.template}: body rejected by the description: ${errors}` };
    }
  }
  return { ok: true, operation: { template: route.template, operationId: route.operation.operationId, pathParams } };
}
