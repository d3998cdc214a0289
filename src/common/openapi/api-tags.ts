import { Catalogue } from '../declarations/catalogue';

/**
 * The OpenAPI document's tags, each declared by the module whose routes carry it, in its
 * `<module>.module.ts` (`declareApiTag(name, description, order)`): `order` places it where a
 * reader meets it (the platform first, then people, time, pay, the rest). An operation tagged with
 * a name no module declared fails the document's build.
 */
const tags = new Catalogue<{ description: string; order: number }>('OpenAPI tag');

export function declareApiTag(name: string, description: string, order: number): void {
  tags.declare(name, { description, order });
}

/** Every declared tag with its description, in order. */
export function apiTags(): Array<[string, string]> {
  return tags.names
    .map((name) => [name, tags.get(name)!] as const)
    .sort((a, b) => a[1].order - b[1].order || a[0].localeCompare(b[0]))
    .map(([name, t]) => [name, t.description]);
}

/** Whether `name` was declared. */
export function isApiTag(name: string): boolean {
  return tags.has(name);
}
