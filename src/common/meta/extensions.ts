/** A module as the seed's extension entry (GET /meta/extensions): its code, label and features. */
export interface Extension {
  code: string;
  label: string;
  features: readonly string[];
}

const extensions = new Map<string, Extension>();

/**
 * Declares what a module offers, in its `<module>.module.ts` (issue 64 item 1): GET /meta/extensions
 * lists what the modules of this build declared, so it says what is installed.
 */
export function declareExtension(extension: Extension): void {
  const before = extensions.get(extension.code);
  if (before && JSON.stringify(before) !== JSON.stringify(extension))
    throw new Error(`extension ${extension.code} is declared twice, differently`);
  extensions.set(extension.code, extension);
}

/** Every declared extension, by code. */
export function declaredExtensions(): Extension[] {
  return [...extensions.values()].sort((a, b) => a.code.localeCompare(b.code));
}
