import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

/** What the check needs of an OpenAPI 3.0 document. */
interface Document {
  servers?: Array<{ url: string }>;
  paths: Record<string, Record<string, Operation>>;
  components?: object;
}
interface Operation {
  responses?: Record<string, Response>;
  requestBody?: { content?: Record<string, { schema?: object }> };
}
interface Response {
  content?: Record<string, { schema?: object }>;
  headers?: Record<string, { required?: boolean }>;
}

/**
 * OpenAPI 3.0.3's `nullable: true` as JSON Schema, with 3.0.3's own semantics: it adds null to
 * the types of the `type` beside it, and does nothing without one (a `$ref` or `allOf` with
 * `nullable` beside it still rejects null: the clarification of 3.0.3, and what Prism and
 * Redocly's nullable-type-sibling hold). An `enum` keeps its own say (null must be listed).
 */
function withNullAsType(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withNullAsType);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) if (k !== 'nullable') out[k] = withNullAsType(v);
  const schema = node as { nullable?: unknown; type?: unknown };
  if (schema.nullable === true && typeof schema.type === 'string') out.type = [schema.type, 'null'];
  return out;
}

interface Route {
  template: string;
  pattern: RegExp;
  literals: number;
}

/**
 * Checks responses against the service's own OpenAPI document (issue 25): the operation the
 * request reached must document the response's status, with its JSON body matching that status's
 * schema (ajv, OpenAPI 3.0 `nullable`) and its required headers present. Requests to paths the
 * document does not describe (unknown routes, the documentation itself) are not checked.
 */
export class ContractCheck {
  private readonly ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false, inlineRefs: false });
  private readonly routes: Route[];
  /** By the response schema's text. */
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly base: string;
  /** Responses checked so far. */
  checked = 0;

  constructor(private readonly doc: Document) {
    addFormats(this.ajv);
    for (const format of ['int32', 'int64', 'float', 'double', 'binary', 'byte', 'password']) this.ajv.addFormat(format, true);
    // Only the components are ajv's to index (a tenth of the document: the paths' examples are
    // most of it); each schema of a path is compiled on its own, its references pointed there.
    this.ajv.addSchema({ components: withNullAsType(doc.components ?? {}) }, 'doc');
    this.base = (doc.servers?.[0]?.url ?? '').replace(/\/+$/, '');
    this.routes = Object.keys(doc.paths).map((template) => ({
      template,
      pattern: new RegExp(`^${(this.base + template).replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
      literals: template.split('/').filter((s) => s && !s.startsWith('{')).length,
    }));
  }

  /** The problems of a request body against the JSON body the document gives `method` on `template`. */
  bodyProblems(method: string, template: string, body: unknown): string[] {
    const schema = this.doc.paths[template]?.[method]?.requestBody?.content?.['application/json']?.schema;
    if (!schema) return [`${method} ${template}: no JSON request body in the document`];
    const validate = this.validatorOf(schema);
    return validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '(body)'} ${e.message ?? ''}`);
  }

  /** The problems of one response, empty when it matches (or is outside the document). */
  problems(method: string, url: string, status: number, headers: Record<string, unknown>, body: string): string[] {
    const path = url.split('?')[0];
    // A `.` or `..` segment (%2e%2e too) is resolved by the router to another route: not this template's response.
    if (path.split('/').some((segment) => ['.', '..'].includes(safeDecode(segment)))) return [];
    const route = this.routes.filter((r) => r.pattern.test(path)).sort((a, b) => b.literals - a.literals)[0];
    const operation = route && this.doc.paths[route.template][method.toLowerCase()];
    if (!route || !operation) return [];
    this.checked += 1;
    const where = `${method} ${route.template} → ${status}`;
    const response = operation.responses?.[String(status)] ?? operation.responses?.default;
    if (!response) return [`${where}: status ${status} is not documented`];
    const problems: string[] = [];
    for (const [name, header] of Object.entries(response.headers ?? {}))
      if (header.required && headers[name.toLowerCase()] === undefined) problems.push(`${where}: header ${name} missing`);
    const contentType = headers['content-type'];
    const type = typeof contentType === 'string' ? contentType.split(';')[0] : '';
    // SCIM's bodies are application/scim+json, and checked the same way (Hardening IV item 15).
    if (type !== 'application/json' && type !== 'application/scim+json') return problems;
    const documented = response.content?.[type];
    if (!documented?.schema) return [...problems, `${where}: a JSON body that the document does not describe`];
    const validate = this.validatorOf(documented.schema);
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return [...problems, `${where}: the body is not JSON`];
    }
    if (!validate(parsed)) {
      for (const e of (validate.errors ?? []).slice(0, 5))
        problems.push(`${where}: ${e.instancePath || '(body)'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
    }
    return problems;
  }

  /**
   * The validator of a schema of the document's paths, by the schema's text: 2 359 of the
   * document's 2 698 response schemas are the same $ref to the error envelope, 169 are distinct.
   */
  private validatorOf(schema: object): ValidateFunction {
    const text = JSON.stringify(schema);
    let validate = this.validators.get(text);
    if (!validate) {
      const own = JSON.stringify(withNullAsType(schema)).replaceAll('"$ref":"#/', '"$ref":"doc#/');
      validate = this.ajv.compile(JSON.parse(own) as object);
      this.validators.set(text, validate);
    }
    return validate;
  }
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
