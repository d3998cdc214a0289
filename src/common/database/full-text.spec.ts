import { DataSource } from 'typeorm';
import { fullTextCondition, searchWords } from './full-text';

const spec = { columns: ['e.first_name', 'e.last_name'], sqliteTable: 'employees_search' };
const ds = (type: string) => ({ options: { type } }) as unknown as DataSource;

describe('full-text search conditions', () => {
  it('splits a search into the words the tokenizers index, dropping every operator', () => {
    expect(searchWords('"Smi* -ann" (O\'Brien) +x_y', true)).toEqual(['Smi', 'ann', 'O', 'Brien', 'x', 'y']);
    expect(searchWords('"Smi* -ann" (O\'Brien) +x_y', false)).toEqual(['Smi', 'ann', "O'Brien", 'x_y']);
    expect(searchWords('ＡＢＣ１', true)).toEqual(['ABC1']); // NFKC: full-width letters
    expect(searchWords('+-<>()~*"@', false)).toEqual([]);
    expect(searchWords('a b c d e f g h i j', true)).toHaveLength(8);
  });

  it('SQLite: quoted prefix terms for FTS5', () => {
    expect(fullTextCondition(ds('better-sqlite3'), spec, 'e.id', 'ann "smi')).toEqual({
      sql: 'e.id IN (SELECT rowid FROM employees_search WHERE employees_search MATCH :ftsQuery)',
      params: { ftsQuery: '"ann"* "smi"*' },
    });
  });

  it('MariaDB: required prefix terms in boolean mode; short words by LIKE at word starts, wildcards escaped', () => {
    const { sql, params } = fullTextCondition(ds('mysql'), spec, 'e.id', 'smith l_');
    expect(sql).toMatch(
      /^MATCH \(e\.first_name, e\.last_name\) AGAINST \(:ftQuery IN BOOLEAN MODE\) AND \(e\.first_name LIKE :ftShort0_0 ESCAPE '!' OR /,
    );
    expect(params.ftQuery).toBe('+smith*');
    expect(params.ftShort0_0).toBe('l!_%');
    expect(params.ftShort0_1).toBe('% l!_%');
  });

  it('a search without words matches nothing', () => {
    expect(fullTextCondition(ds('mysql'), spec, 'e.id', '***').sql).toBe('1 = 0');
  });
});
