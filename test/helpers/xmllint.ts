import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Whether Debian's xmllint (libxml2-utils) is on this machine: .ci/run installs it; npm test does without. */
export function xmllintAvailable(): boolean {
  try {
    execFileSync('xmllint', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * Validates an XML document with the system's xmllint against the ISO 20022 schema of `version`
 * (the copy in src/payroll/books/iso20022): '' when valid, else what xmllint said.
 */
export function xmllint(version: string, xml: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'bank-file-'));
  try {
    const file = join(dir, 'file.xml');
    writeFileSync(file, xml);
    const schema = join(__dirname, '../../src/payroll/books/iso20022', `${version}.xsd`);
    const res = spawnSync('xmllint', ['--noout', '--schema', schema, file], { encoding: 'utf8' });
    return res.status === 0 ? '' : `${res.stderr}`.slice(0, 4000);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
