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

/** A deep copy of each declared schema (the document's finishing steps change what they visit). */
export function declaredSchemas(): Array<[string, object]> {
  return [...declared].map(([name, schema]) => [name, structuredClone(schema)]);
}

/**
 * An operation extension: the content of its error responses when they are not the error envelope
 * (SCIM answers RFC 7644 §3.12 error bodies); finishDocument uses it for the errors it adds too.
 */
export const ERROR_CONTENT_EXTENSION = 'x-error-content';
