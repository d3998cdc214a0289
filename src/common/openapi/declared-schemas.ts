/**
 * Schemas a module writes by hand, for shapes a standard defines and no DTO class holds (SCIM's
 * User, Group, ListResponse, PatchOp, Error): declared beside the module's controller when its file
 * loads, added to the document's components by finishDocument. A name declared twice with another
 * schema is a mistake found at start.
 */
const declared = new Map<string, object>();

export function declareSchemas(schemas: Record<string, object>): void {
  for (const [name, schema] of Object.entries(schemas)) {
    const before = declared.get(name);
    if (before && JSON.stringify(before) !== JSON.stringify(schema)) throw new Error(`OpenAPI schema ${name} is declared twice`);
    declared.set(name, schema);
  }
}

const replacing = new Map<string, () => object>();

/**
 * A schema that replaces the one @nestjs/swagger made of a DTO class, built when the document is:
 * a union of what modules declared (the change feed's items, `oneOf` the events' schemas).
 */
export function replaceSchema(name: string, build: () => object): void {
  replacing.set(name, build);
}

/** A deep copy of each declared schema (the document's finishing steps change what they visit). */
export function declaredSchemas(): Array<[string, object]> {
  return [...declared].map(([name, schema]) => [name, structuredClone(schema)]);
}

/** The names of the declared schemas. */
export function declaredSchemaNames(): ReadonlySet<string> {
  return new Set(declared.keys());
}

/** The replacing schemas, built now. */
export function replacedSchemas(): Array<[string, object]> {
  return [...replacing].map(([name, build]) => [name, build()]);
}

/**
 * An operation extension: the content of its error responses when they are not the error envelope
 * (SCIM answers RFC 7644 §3.12 error bodies); finishDocument uses it for the errors it adds too.
 */
export const ERROR_CONTENT_EXTENSION = 'x-error-content';
