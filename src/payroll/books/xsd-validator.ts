import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateXML } from 'xmllint-wasm';
import { PainVersion } from './sepa-file';

/** The ISO 20022 schemas, copied unchanged from ../shared/standards/iso20022 (read once, on first use). */
const schemas = new Map<PainVersion, string>();
function schemaOf(version: PainVersion): string {
  let text = schemas.get(version);
  if (text === undefined) schemas.set(version, (text = readFileSync(join(__dirname, 'iso20022', `${version}.xsd`), 'utf8')));
  return text;
}

/** WebAssembly memory of one validation: 16 MiB to start, at most 256 MiB (a 12 500-employee file is about 8 MB). */
const INITIAL_PAGES = 256;
const MAX_PAGES = 4096;

/**
 * Validates a pain.001 document against its ISO 20022 schema with libxml2 (xmllint-wasm: libxml2
 * 2.13 compiled to WebAssembly, run in a worker thread, so the event loop stays free and a crash
 * of the validator is not the process's), in libxml2's streaming mode (memory does not grow with
 * the document's tree). Answers the schema's messages; none: valid.
 */
export async function schemaErrors(version: PainVersion, document: string): Promise<string[]> {
  const result = await validateXML({
    xml: [{ fileName: 'bank-file.xml', contents: document }],
    schema: [{ fileName: `${version}.xsd`, contents: schemaOf(version) }],
    stream: true,
    initialMemoryPages: INITIAL_PAGES,
    maxMemoryPages: MAX_PAGES,
  });
  if (result.valid) return [];
  const errors = result.errors.map((e) => e.rawMessage).filter((m) => m.trim());
  return errors.length ? errors : [result.rawOutput.slice(0, 2000) || 'the validator answered neither valid nor a message'];
}
