import { composeIBAN, electronicFormatIBAN, validateBIC, validateIBAN, ValidationErrorsIBAN } from 'ibantools';

/**
 * IBANs and BICs (issue 46, docs/api/decisions.md §22). The checks are ibantools' (ISO 13616: the country's
 * registered length and BBAN format, the mod-97 check digits; ISO 9362 for BICs): a registry of
 * every country's IBAN format is data we would otherwise copy and keep up to date by hand.
 */

/** An IBAN as stored and written to bank files: no spaces, upper case. */
export function normalizeIban(value: string): string {
  return electronicFormatIBAN(value) ?? '';
}

/** Why an IBAN (normalized) is not valid, in words an API client can show; null when it is valid. */
export function ibanProblem(iban: string): string | null {
  if (!/^[A-Z]{2}[0-9]{2}[A-Z0-9]{1,30}$/.test(iban))
    return 'must be two letters of a country, two check digits and up to 30 letters or digits';
  const { valid, errorCodes } = validateIBAN(iban);
  if (valid) return null;
  const codes = new Set(errorCodes);
  if (codes.has(ValidationErrorsIBAN.NoIBANCountry)) return `country ${iban.slice(0, 2)} does not use IBANs (ISO 13616)`;
  if (codes.has(ValidationErrorsIBAN.WrongBBANLength)) return `has the wrong length for ${iban.slice(0, 2)}`;
  if (codes.has(ValidationErrorsIBAN.WrongBBANFormat)) return `does not have the account format of ${iban.slice(0, 2)}`;
  if (codes.has(ValidationErrorsIBAN.WrongIBANChecksum) || codes.has(ValidationErrorsIBAN.ChecksumNotNumber))
    return 'has a wrong checksum (ISO 13616 mod 97)';
  if (codes.has(ValidationErrorsIBAN.WrongAccountBankBranchChecksum)) return 'has a wrong national check digit';
  return 'is not a valid IBAN';
}

/** Why a BIC is not valid (ISO 9362: 8 or 11 characters, bank, country, location, branch); null when it is. */
export function bicProblem(bic: string): string | null {
  if (!/^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(bic))
    return 'must be 8 or 11 capital letters or digits, the first six letters (ISO 9362)';
  if (validateBIC(bic).valid) return null;
  return 'is not a valid BIC: its country code is unknown (ISO 9362)';
}

/** What a caller who may not see the account gets: country, check digits and the last four characters. */
export function maskIban(iban: string): string {
  if (iban.length <= 8) return `${iban.slice(0, 2)}${'*'.repeat(Math.max(0, iban.length - 2))}`;
  return `${iban.slice(0, 4)}${'*'.repeat(iban.length - 8)}${iban.slice(-4)}`;
}

/** A German IBAN at bank code 37040044 for an account number, check digits by ISO 13616: the demo's and the tests' accounts. */
export function testIban(account: number): string {
  return composeIBAN({ countryCode: 'DE', bban: `37040044${String(account).padStart(10, '0')}` }) ?? '';
}
