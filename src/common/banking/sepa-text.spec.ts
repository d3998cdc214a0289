import { sepaNameProblem, sepaText } from './sepa-text';

/** Holder names a bank transfer carries as written (Hardening IV item 27). */
describe('SEPA holder names', () => {
  it('takes names in any script, refuses emoji and symbols that transliterate to shortcodes or nothing', () => {
    for (const ok of ['Jane Doe', 'Łukasz Żółć', 'Дмитрий Иванов', '東京 太郎', "O'Brien-Smith", 'Müller & Söhne GmbH'])
      expect({ ok, problem: sepaNameProblem(ok) }).toEqual({ ok, problem: null });
    for (const bad of ['😀', 'Jane 😀 Doe', '★', '™', '∑∑'])
      expect({ bad, problem: sepaNameProblem(bad) }).toEqual({ bad, problem: expect.stringMatching(/cannot carry/) });
    // What a file would carry for one: a shortcode, not a name.
    expect(sepaText('😀', 70)).toBe(':grinning:');
  });
});
