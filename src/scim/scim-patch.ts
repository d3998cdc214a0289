import { matches, parseFilter } from './scim-filter';
import { attributeOf, AttributeDef, canonical, canonicalValue, Json } from './scim-schema';
import { ScimError } from './scim.error';

export interface ResourceSchema {
  coreUrn: string;
  attrs: AttributeDef[];
  extension?: { urn: string; attrs: AttributeDef[] };
}

const MAX_OPERATIONS = 200;

interface ParsedPath {
  def: AttributeDef;
  inExtension: boolean;
  filter: string | null;
  sub: AttributeDef | null;
}

function parsePath(path: string, schema: ResourceSchema): ParsedPath {
  const bad = () => new ScimError('invalidPath', `"${path.slice(0, 200)}" is not an attribute path of this resource`);
  let urn: string | null = null;
  let rest = path;
  if (/^urn:/i.test(path)) {
    const lower = path.toLowerCase();
    const known = [schema.coreUrn, schema.extension?.urn].find(
      (u): u is string => !!u && lower.startsWith(`${u.toLowerCase()}:`),
    );
    if (!known) throw bad();
    urn = known.toLowerCase();
    rest = path.slice(known.length + 1);
  }
  const m = /^([A-Za-z$][\w$-]*)(?:\[(.+)\])?(?:\.([A-Za-z$][\w$-]*))?$/s.exec(rest);
  if (!m) throw bad();
  const found = attributeOf(m[1].toLowerCase(), urn, schema.coreUrn, schema.attrs, schema.extension);
  if (!found) throw bad();
  const sub = m[3] ? (found.def.subAttributes?.find((s) => s.name.toLowerCase() === m[3].toLowerCase()) ?? null) : null;
  if (m[3] && !sub) throw bad();
  if (m[2] && !found.def.multiValued) throw bad();
  return { ...found, filter: m[2] ?? null, sub };
}

/** A filter's items of a multi-valued attribute; a malformed filter in a path is an invalid path. */
function filterOf(text: string) {
  try {
    return parseFilter(text);
  } catch (err) {
    throw err instanceof ScimError ? new ScimError('invalidPath', err.message) : err;
  }
}

function sameItem(a: unknown, b: unknown): boolean {
  const value = (x: unknown) => (typeof x === 'object' && x !== null ? (x as Json).value : x);
  return value(a) !== undefined ? String(value(a)) === String(value(b)) : JSON.stringify(a) === JSON.stringify(b);
}

function applyOne(resource: Json, op: 'add' | 'replace' | 'remove', path: string, value: unknown, schema: ResourceSchema): void {
  const p = parsePath(path, schema);
  if (p.def.mutability === 'readOnly') throw new ScimError('mutability', `${p.def.name} is read-only`);
  const container = p.inExtension ? ((resource[schema.extension!.urn] ??= {}) as Json) : resource;
  const key = p.def.name;
  if (op !== 'remove' && value === undefined) throw new ScimError('invalidValue', `${op} of ${path} needs a value`);

  if (p.filter !== null) {
    const filter = filterOf(p.filter);
    const items = (Array.isArray(container[key]) ? container[key] : []) as Json[];
    const hit = items.filter((item) => matches(item, filter, schema.coreUrn));
    if (op === 'remove') {
      if (p.sub) for (const item of hit) delete item[p.sub.name];
      else container[key] = items.filter((item) => !hit.includes(item));
      return;
    }
    if (!hit.length) {
      // Entra ID replaces emails[type eq "work"].value on a user that has no work e-mail yet: the item is made.
      if (filter.op !== 'eq' || filter.path.includes('.')) throw new ScimError('noTarget', `${path} matches nothing`);
      const made: Json = { [filter.path]: filter.value };
      items.push(made);
      hit.push(made);
      container[key] = items;
    }
    for (const item of hit) {
      if (p.sub) item[p.sub.name] = value;
      else Object.assign(item, canonical(value as Json, p.def.subAttributes ?? []));
    }
    return;
  }

  if (p.sub) {
    if (p.def.multiValued) {
      for (const item of (container[key] ?? []) as Json[]) {
        if (op === 'remove') delete item[p.sub.name];
        else item[p.sub.name] = value;
      }
      return;
    }
    const obj = (typeof container[key] === 'object' && container[key] !== null ? container[key] : (container[key] = {})) as Json;
    if (op === 'remove') delete obj[p.sub.name];
    else obj[p.sub.name] = value;
    return;
  }

  if (op === 'remove') {
    delete container[key];
    return;
  }
  const next = canonicalValue(value, p.def);
  if (p.def.multiValued && op === 'add') {
    const items = (Array.isArray(container[key]) ? container[key] : []) as unknown[];
    for (const item of next as unknown[]) if (!items.some((i) => sameItem(i, item))) items.push(item);
    container[key] = items;
  } else if (p.def.type === 'complex' && !p.def.multiValued && typeof container[key] === 'object' && container[key] !== null) {
    container[key] = { ...(container[key] as Json), ...(next as Json) };
  } else {
    container[key] = next;
  }
}

/**
 * Applies a PatchOp body (RFC 7644 §3.5.2) to a resource as the service shows it and returns the
 * result, which the caller then stores as it stores a PUT. The forms Entra ID and Okta send: op in
 * any case ("Replace"), a path with a value filter (members[value eq "7"], emails[type eq
 * "work"].value), no path with an object of attributes (URN-qualified names included), and a bare
 * string for a complex multi-valued attribute's value.
 */
export function applyPatch(resource: Json, body: unknown, schema: ResourceSchema): Json {
  const ops: unknown =
    typeof body === 'object' && body !== null
      ? Object.entries(body as Json).find(([k]) => k.toLowerCase() === 'operations')?.[1]
      : undefined;
  if (!Array.isArray(ops) || !ops.length) throw new ScimError('invalidSyntax', 'A PatchOp needs Operations: a non-empty array');
  if (ops.length > MAX_OPERATIONS) throw new ScimError('tooMany', `At most ${MAX_OPERATIONS} operations in one PATCH`);
  const result = structuredClone(resource);
  for (const raw of ops) {
    if (typeof raw !== 'object' || raw === null) throw new ScimError('invalidSyntax', 'Each operation is an object');
    const entry = (name: string) => Object.entries(raw as Json).find(([k]) => k.toLowerCase() === name)?.[1];
    const rawOp = entry('op');
    const op = typeof rawOp === 'string' ? rawOp.toLowerCase() : '';
    if (op !== 'add' && op !== 'replace' && op !== 'remove')
      throw new ScimError('invalidSyntax', 'op must be add, replace or remove');
    const path = entry('path');
    const value = entry('value');
    if (path !== undefined && typeof path !== 'string') throw new ScimError('invalidPath', 'path must be a string');
    if (path) {
      applyOne(result, op, path, value, schema);
      continue;
    }
    if (op === 'remove') throw new ScimError('noTarget', 'remove needs a path');
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new ScimError('invalidValue', `${op} without a path needs an object of attributes`);
    }
    for (const [name, v] of Object.entries(value as Json)) {
      const ext = schema.extension;
      if (ext && name.toLowerCase() === ext.urn.toLowerCase() && typeof v === 'object' && v !== null) {
        for (const [sub, sv] of Object.entries(v as Json)) applyOne(result, op, `${ext.urn}:${sub}`, sv, schema);
      } else if (!['schemas', 'id', 'meta'].includes(name.toLowerCase())) {
        applyOne(result, op, name, v, schema);
      }
    }
  }
  return result;
}
