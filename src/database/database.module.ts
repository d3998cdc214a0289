import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { dataSourceOptions, runMigrations, startupStatistics } from './data-source';
import { assertUtf8mb4, sqliteGate } from '../common/database/transaction';
import { ReadReplicas } from '../common/database/read-replicas';
import { shareSqliteStatements } from '../common/database/sqlite-statements';

/**
 * The TypeORM connection; pending migrations are applied before any module uses it. On SQLite the
 * planner's statistics are made at start when missing (`startupStatistics`), and refreshed a minute
 * after start and every hour by the `schedule:sqlite-statistics` job (MaintenanceService).
 */
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({
        ...dataSourceOptions(config.database),
        autoLoadEntities: true,
        retryAttempts: 3,
        retryDelay: 2000,
        // Carried to dataSourceFactory below, which runs them under the migration lock.
        migrationsRun: config.migrationsRun,
      }),
      dataSourceFactory: async (options) => {
        if (!options) throw new Error('missing data source options');
        const ds = await new DataSource({ ...options, migrationsRun: false }).initialize();
        shareSqliteStatements(ds);
        if (ds.options.type === 'better-sqlite3') sqliteGate(ds);
        await assertUtf8mb4(ds).catch(async (err: unknown) => {
          await ds.destroy();
          throw err;
        });
        const applied = options.migrationsRun ? await runMigrations(ds) : [];
        await startupStatistics(ds, applied);
        return ds;
      },
    }),
  ],
  providers: [ReadReplicas],
  exports: [ReadReplicas],
})
export class DatabaseModule {}
