import anyAscii from 'any-ascii';

/**
 * The character set of SEPA credit transfers (EPC's implementation guidelines, "Latin character
 * set"): a-z A-Z 0-9 / - ? : ( ) . , ' + and space. Everything else is transliterated first
 * (any-ascii: Müller → Muller, Łódź → Lodz, Дмитрий → Dmitriy, 東京 → DongJing), then what is still
 * outside the set becomes a space; runs of spaces collapse.
 */
const OUTSIDE = /[^A-Za-z0-9/\-?:().,'+ ]/g;

/** Text as a SEPA file may carry it, at most `max` characters; never empty (a dash instead). */
export function sepaText(value: string, max: number): string {
  const latin = anyAscii(value.normalize('NFC')).replace(/&/g, '+').replace(OUTSIDE, ' ').replace(/\s+/g, ' ').trim();
  return latin.slice(0, max).trim() || '-';
}

/**
 * An identifier (MsgId, PmtInfId, EndToEndId): the SEPA set without spaces, not starting or ending
 * with a slash nor holding two in a row (EPC rule for references), at most 35 characters.
 */
export function sepaId(value: string): string {
  const id = value
    .replace(/[^A-Za-z0-9\-?:().,'+/]/g, '-')
    .replace(/\/{2,}/g, '/')
    .replace(/^\/+|\/+$/g, '');
  return id.slice(0, 35);
}

/**
 * Why a name cannot stand in a SEPA file as the person wrote it, or null: what transliteration
 * makes of it must keep its letters (an emoji becomes a shortcode such as :grinning:, a symbol
 * nothing), so a bank reads the name the employee gave.
 */
export function sepaNameProblem(value: string): string | null {
  for (const char of value.normalize('NFC')) {
    if (/[\p{L}\p{M}\p{N}\s'’.,\-/&()+?:]/u.test(char)) continue;
    return `holds "${char}", which a bank transfer cannot carry: letters, digits, spaces and . , ' - / & ( ) only`;
  }
  const latin = anyAscii(value.normalize('NFC'));
  if (/:[a-z0-9_+-]+:/i.test(latin)) return 'holds a symbol a bank transfer cannot carry';
  return sepaText(value, 140) === '-' ? 'must hold a letter or a digit a bank transfer can carry' : null;
}
