import { Catalogue } from '../declarations/catalogue';

/** A module as the seed's extension entry (GET /meta/extensions): its code, label and features. */
export interface Extension {
  code: string;
  label: string;
  features: readonly string[];
}

const extensions = new Catalogue<Extension>('extension');

/**
 * Declares what a module offers, in its `<module>.module.ts` (issue 64 item 1): GET /meta/extensions
 * lists what the modules of this build declared, so it says what is installed.
 */
export function declareExtension(extension: Extension): void {
  extensions.declare(extension.code, extension);
}

/** Every declared extension, by code. */
export function declaredExtensions(): Extension[] {
  return extensions.all();
}
