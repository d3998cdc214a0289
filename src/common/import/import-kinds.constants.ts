import { Catalogue } from '../declarations/catalogue';

/**
 * The kinds of import (docs/api/decisions.md §13): each module names its own where its import kind
 * is written (`const ATTENDANCE_IMPORT = declareImportKind('attendance')` at the top of its `*.import.ts`,
 * the kind's `kind`), so the Imports module and this file list none. One array, in name order, kept
 * up to date in place: the route's validation and the document read it once every module has loaded.
 */
const kinds = new Catalogue<true>('import kind');
export const IMPORT_KIND_NAMES: string[] = kinds.names;

/** Declares an import kind's name (when its module's file loads) and returns it. */
export function declareImportKind(name: string): string {
  kinds.declare(name, true);
  return name;
}
