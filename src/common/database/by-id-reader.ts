import { ObjectLiteral, Repository } from 'typeorm';
import { DriverReader, Row } from './driver-reader';

/** Column types the binary protocol returns as doubles where the text protocol gives their printed value. */
const FLOATING_TYPES = new Set(['float', 'double', 'double precision', 'real']);

/**
 * Reads one entity by its primary key with SQL built once. TypeORM's findOne builds the query
 * (aliases, escaping, find options) and hydrates through its generic result transformer on every
 * call: a quarter of the CPU of GET /employees/{id}. The statement is a prepared one on MariaDB
 * (DriverReader.first). Values go through the driver's hydration
 * (column types, transformers) as findOne's do. For entities of plain columns (no relations,
 * embedded or virtual columns, load listeners, floating-point columns); anything else is refused
 * when the reader is made.
 */
export function byIdReader<E extends ObjectLiteral>(repo: Repository<E>): (id: number) => Promise<E | null> {
  let prepared: { read: (id: number) => Promise<Row | undefined>; hydrate: (row: Row) => E } | null = null;
  // Built at the first read: the metadata is complete once the data source is initialized.
  const prepare = () => {
    const meta = repo.metadata;
    const driver = repo.manager.connection.driver;
    if (
      meta.primaryColumns.length !== 1 ||
      meta.relations.length ||
      meta.embeddeds.length ||
      meta.afterLoadListeners.length ||
      meta.columns.some((c) => FLOATING_TYPES.has(String(c.type).toLowerCase()))
    ) {
      throw new Error(`byIdReader: ${meta.name} is not an entity of plain columns with one primary key`);
    }
    const columns = meta.columns.filter((c) => !c.isVirtual);
    const select = columns.map((c) => driver.escape(c.databaseName)).join(', ');
    const sql = `SELECT ${select} FROM ${driver.escape(meta.tableName)} WHERE ${driver.escape(meta.primaryColumns[0].databaseName)} = ?`;
    const reader = DriverReader.of(repo.manager.connection);
    return {
      read: (id: number) => reader.first(sql, [id]),
      hydrate: (row: Row) => {
        const entity = repo.create();
        for (const c of columns) c.setEntityValue(entity, driver.prepareHydratedValue(row[c.databaseName], c));
        return entity;
      },
    };
  };
  return async (id) => {
    prepared ??= prepare();
    const row = await prepared.read(id);
    return row ? prepared.hydrate(row) : null;
  };
}
