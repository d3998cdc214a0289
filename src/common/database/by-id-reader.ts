import { ObjectLiteral, Repository } from 'typeorm';

/**
 * Reads one entity by its primary key with SQL built once. TypeORM's findOne builds the query
 * (aliases, escaping, find options) and hydrates through its generic result transformer on every
 * call: a quarter of the CPU of GET /employees/{id}. Values go through the driver's hydration
 * (column types, transformers) as findOne's do. For entities of plain columns (no relations,
 * embedded or virtual columns, load listeners); anything else is refused when the reader is made.
 */
export function byIdReader<E extends ObjectLiteral>(repo: Repository<E>): (id: number) => Promise<E | null> {
  let prepared: { sql: string; hydrate: (row: Record<string, unknown>) => E } | null = null;
  // Built at the first read: the metadata is complete once the data source is initialized.
  const prepare = () => {
    const meta = repo.metadata;
    const driver = repo.manager.connection.driver;
    if (meta.primaryColumns.length !== 1 || meta.relations.length || meta.embeddeds.length || meta.afterLoadListeners.length) {
      throw new Error(`byIdReader: ${meta.name} is not an entity of plain columns with one primary key`);
    }
    const columns = meta.columns.filter((c) => !c.isVirtual);
    const select = columns.map((c) => driver.escape(c.databaseName)).join(', ');
    return {
      sql: `SELECT ${select} FROM ${driver.escape(meta.tableName)} WHERE ${driver.escape(meta.primaryColumns[0].databaseName)} = ?`,
      hydrate: (row: Record<string, unknown>) => {
        const entity = repo.create();
        for (const c of columns) c.setEntityValue(entity, driver.prepareHydratedValue(row[c.databaseName], c));
        return entity;
      },
    };
  };
  return async (id) => {
    prepared ??= prepare();
    const rows = await repo.manager.query<Array<Record<string, unknown>>>(prepared.sql, [id]);
    return rows.length ? prepared.hydrate(rows[0]) : null;
  };
}
