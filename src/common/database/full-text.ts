import { DataSource } from 'typeorm';

/** Where a list's `search` looks: the columns, and on SQLite the FTS5 table indexing them (rowid = the row's id). */
export interface FullTextSpec {
  columns: string[];
  /** SQLite: an FTS5 table with the same columns, `content` the searched table, `content_rowid` its id. */
  sqliteTable: string;
}

/** At most this many words of a search count, each at most this long. */
const MAX_WORDS = 8;
const MAX_WORD = 64;
/** MariaDB/MySQL index no words shorter than innodb_ft_min_token_size (default 3). */
const MIN_TOKEN = 3;

/**
 * The words of a search as the database's tokenizer splits text: letters and digits (MariaDB also
 * keeps `_` and inner apostrophes, as its parser does), after NFKC normalization, so operators
 * and quotes typed by a user are never passed on as full-text syntax.
 */
export function searchWords(text: string, sqlite: boolean): string[] {
  const words = text.normalize('NFKC').match(sqlite ? /[\p{L}\p{N}]+/gu : /[\p{L}\p{N}_']+/gu) ?? [];
  return words
    .map((w) => w.replace(/^'+|'+$/g, ''))
    .filter(Boolean)
    .slice(0, MAX_WORDS)
    .map((w) => w.slice(0, MAX_WORD));
}

/**
 * `search` as word-prefix matching over a full-text index: every word of the search must begin a
 * word of one of the columns ("ann smi" finds Anna Smith, "smith" finds smith@example.com; "mith"
 * finds nothing). SQLite: FTS5 (unicode61: case and diacritics folded). MariaDB: a FULLTEXT index
 * in boolean mode; words shorter than its minimum token length are matched with LIKE at the start
 * of a column or after a space, dot, @ or hyphen. A search without letters or digits matches nothing.
 */
export function fullTextCondition(
  ds: DataSource,
  spec: FullTextSpec,
  idColumn: string,
  text: string,
): { sql: string; params: Record<string, unknown> } {
  const sqlite = ds.options.type === 'better-sqlite3';
  const words = searchWords(text, sqlite);
  if (!words.length) return { sql: '1 = 0', params: {} };
  if (sqlite) {
    return {
      sql: `${idColumn} IN (SELECT rowid FROM ${spec.sqliteTable} WHERE ${spec.sqliteTable} MATCH :ftsQuery)`,
      params: { ftsQuery: words.map((w) => `"${w}"*`).join(' ') },
    };
  }
  const parts: string[] = [];
  const params: Record<string, unknown> = {};
  const long = words.filter((w) => [...w].length >= MIN_TOKEN);
  if (long.length) {
    parts.push(`MATCH (${spec.columns.join(', ')}) AGAINST (:ftQuery IN BOOLEAN MODE)`);
    params.ftQuery = long.map((w) => `+${w}*`).join(' ');
  }
  words
    .filter((w) => [...w].length < MIN_TOKEN)
    .forEach((w, i) => {
      const escaped = w.replace(/[!%_]/g, (c) => `!${c}`);
      const starts = [`${escaped}%`, ...[' ', '.', '@', '-'].map((sep) => `%${sep}${escaped}%`)];
      starts.forEach((p, j) => (params[`ftShort${i}_${j}`] = p));
      parts.push(`(${spec.columns.flatMap((c) => starts.map((_, j) => `${c} LIKE :ftShort${i}_${j} ESCAPE '!'`)).join(' OR ')})`);
    });
  return { sql: parts.join(' AND '), params };
}
