import { DataSource } from 'typeorm';

/**
 * The few SQL expressions whose spelling differs between SQLite and MariaDB/MySQL, for GROUP BY
 * aggregations (insights). `expr` is a DATE or DATETIME column; both answer integers.
 */
export interface SqlDialect {
  /** 1..31 */
  dayOfMonth(expr: string): string;
  /** 0 = Monday .. 6 = Sunday */
  weekday(expr: string): string;
}

const SQLITE: SqlDialect = {
  dayOfMonth: (expr) => `CAST(strftime('%d', ${expr}) AS INTEGER)`,
  weekday: (expr) => `((CAST(strftime('%w', ${expr}) AS INTEGER) + 6) % 7)`,
};

const MYSQL: SqlDialect = {
  dayOfMonth: (expr) => `DAYOFMONTH(${expr})`,
  weekday: (expr) => `WEEKDAY(${expr})`,
};

export function sqlDialect(ds: DataSource): SqlDialect {
  return ds.options.type === 'better-sqlite3' ? SQLITE : MYSQL;
}
