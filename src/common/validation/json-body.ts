import { DomainException } from '../errors/domain.exception';

/** Bodies nested deeper than this are refused before anything (validation, idempotency hashing) walks them. */
export const MAX_JSON_DEPTH = 64;

/** Whether the JSON text nests arrays/objects deeper than `max`: one pass over the text, no recursion. */
export function jsonDepthExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

function refusePrototypeKeys(this: unknown, key: string, value: unknown): unknown {
  if (
    key === '__proto__' ||
    (key === 'constructor' && typeof value === 'object' && value !== null && Object.hasOwn(value, 'prototype'))
  ) {
    throw new DomainException('INVALID_JSON', `Request body may not contain the key "${key}"`, [
      { field: key, message: 'is not allowed' },
    ]);
  }
  return value;
}

/**
 * Parses a JSON request body: invalid JSON, nesting deeper than MAX_JSON_DEPTH and keys that would
 * reach an object's prototype ("__proto__", "constructor.prototype") are a 400 INVALID_JSON.
 */
export function parseJsonBody(text: string): unknown {
  if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) {
    throw new DomainException('INVALID_JSON', `Request body is nested deeper than ${MAX_JSON_DEPTH} levels`);
  }
  // The reviver costs a call per value: only texts that may hold such a key (escapes included) pay it.
  const suspicious = text.includes('proto') || text.includes('constructor') || text.includes('\\u');
  try {
    return suspicious ? JSON.parse(text, refusePrototypeKeys) : JSON.parse(text);
  } catch (err) {
    if (err instanceof DomainException) throw err;
    throw new DomainException('INVALID_JSON', 'Request body is not valid JSON');
  }
}
