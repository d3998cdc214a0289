import { getMetadataStorage } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';

type Lookup = (target: object, schema: string, always: boolean, strictGroups: boolean, groups?: string[]) => ValidationMetadata[];

interface Storage {
  getTargetValidationMetadatas: Lookup;
  groupByPropertyName(metadata: ValidationMetadata[]): Record<string, ValidationMetadata[]>;
  addValidationMetadata(metadata: ValidationMetadata): void;
  addConstraintMetadata(metadata: unknown): void;
}

const memoized = new WeakSet<object>();

/**
 * class-validator looks up a class's rules on every validation by testing the class against every
 * class that has rules (`prototype instanceof`, a few hundred DTOs here) and regrouping them by
 * property: 10 % of the CPU of GET /employees/{id}, whose only DTO is its query (`as_of`). The
 * lookups without groups (the only kind this service makes) are kept per class and options, and
 * forgotten whenever a rule or constraint is added (a class defined later, a decorator applied at
 * run time), so that a lookup never misses a rule.
 */
export function memoizeValidationMetadata(): void {
  const storage = getMetadataStorage() as unknown as Storage;
  if (memoized.has(storage)) return;
  memoized.add(storage);
  const lookup = storage.getTargetValidationMetadatas.bind(storage);
  const group = storage.groupByPropertyName.bind(storage);
  let lookups = new Map<object, Map<string, ValidationMetadata[]>>();
  let groups = new WeakMap<ValidationMetadata[], Record<string, ValidationMetadata[]>>();
  const forget = () => {
    lookups = new Map();
    groups = new WeakMap();
  };
  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, requested) => {
    if (requested?.length) return lookup(target, schema, always, strictGroups, requested);
    const key = `${schema}\n${always}\n${strictGroups}`;
    let byOptions = lookups.get(target);
    if (!byOptions) lookups.set(target, (byOptions = new Map<string, ValidationMetadata[]>()));
    let found = byOptions.get(key);
    if (!found) byOptions.set(key, (found = lookup(target, schema, always, strictGroups, requested)));
    return found;
  };
  storage.groupByPropertyName = (metadata) => {
    let grouped = groups.get(metadata);
    if (!grouped) groups.set(metadata, (grouped = group(metadata)));
    return grouped;
  };
  for (const name of ['addValidationMetadata', 'addConstraintMetadata'] as const) {
    const add = storage[name].bind(storage) as (m: unknown) => void;
    storage[name] = (metadata: never) => {
      forget();
      add(metadata);
    };
  }
}
